# gradtrace: `make run` serves the playground on http://127.0.0.1:8000, `make test` runs every test.
# Both set everything up first on a fresh machine (virtualenv, Python packages, frontend build; for tests
# also PyTorch 2.13.0 as the oracle and Debian's Chromium for the browser tests).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

FRONTEND_SOURCES := $(shell find frontend/src frontend/public frontend/*.html frontend/vite.config.* -type f 2>/dev/null)

.PHONY: run test setup setup-test frontend chromium bench clean

run: setup frontend
	$(PY) -m server --host $(HOST) --port $(PORT)

test: setup-test frontend chromium
	cd frontend && npm test
	$(PY) -m pytest

setup: $(VENV)/.installed
setup-test: $(VENV)/.installed-test

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

frontend: frontend/dist/index.html

frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	touch $@

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	cd frontend && npm run build

chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && apt-get install -y chromium; }

bench: setup-test
	$(PY) benchmarks/lessons.py
	$(PY) benchmarks/throughput.py
	$(PY) benchmarks/load.py

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist .pytest_cache

# gradtrace: `make run` serves the playground on http://127.0.0.1:8000, `make test` runs every test.
# Both set everything up first on a fresh machine (virtualenv, Python packages, frontend build; for tests
# also PyTorch 2.13.0 as the oracle, Debian's Chromium for the browser tests, and Debian's nginx, redis-server and
# docker-compose for the deployment tests in tests/deploy/).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

FRONTEND_SOURCES := $(shell find frontend/src frontend/public frontend/*.html frontend/vite.config.* -type f 2>/dev/null)

.PHONY: run test test-realcourse setup setup-test frontend chromium deploy-tools bench bench-load clean

run: setup frontend
	$(PY) -m server --host $(HOST) --port $(PORT)

test: setup-test frontend chromium deploy-tools
	cd frontend && npm test
	$(PY) -m pytest

# The real-course corpus alone (tests/realcourse/README.md); `make test` runs it too.
test-realcourse: setup-test
	$(PY) -m pytest tests/realcourse/test_corpus.py

setup: $(VENV)/.installed
setup-test: $(VENV)/.installed-test

$(VENV)/.installed: pyproject.toml setup.py engine/numerics/fma_chain.c
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

# nginx and redis-server run as plain processes on loopback in tests/deploy/; docker-compose (1.29) validates
# docker-compose.yml without a Docker engine. No recommends: docker-compose's would bring the Docker engine.
deploy-tools:
	@missing=""; \
	test -x /usr/sbin/nginx || command -v nginx >/dev/null 2>&1 || missing="$$missing nginx"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v docker-compose >/dev/null 2>&1 || missing="$$missing docker-compose"; \
	if [ -n "$$missing" ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

bench: setup-test frontend chromium
	$(PY) benchmarks/report.py

# Attackers of every kind beside one normal client (issue 9): minutes long, so apart from `make bench`.
bench-load: setup-test
	$(PY) benchmarks/load.py

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist .pytest_cache

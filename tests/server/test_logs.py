"""Issue 15: structured logs (one JSON object a line, each request with its id, no user code by default), ``/healthz``
(alive) and ``/readyz`` (workers warm; Redis reached when configured), against a real server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import ROOT, _free_port


@contextmanager
def logging_server(log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``python -m server --log-level info`` with its stderr in ``log``."""
    port = _free_port()
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "info"],
            cwd=ROOT,
            env={**os.environ, "GRADTRACE_RATE_LIMIT": "", "GRADTRACE_WORKERS": "1", **(env or {})},
            stdout=sink,
            stderr=sink,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def lines(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def access(log: Path, rid: str) -> dict[str, Any]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        found = [line for line in lines(log) if line.get("request_id") == rid and line["logger"] == "gradtrace.access"]
        if found:
            assert len(found) == 1
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"no access line for {rid}")


def test_every_line_is_json_and_each_request_has_its_id_and_no_code(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    secret = f"secret_{uuid.uuid4().hex}"
    code = f"{secret} = 41\nprint({secret} + 1)\n"
    with logging_server(log) as url:
        run = httpx.post(f"{url}/api/run", json={"code": code}, timeout=30)
        given = httpx.post(f"{url}/api/run", json={"code": code}, headers={"X-Request-ID": "from-nginx.42"}, timeout=30)
        bad_id = httpx.post(f"{url}/api/run", json={"code": "x"}, headers={"X-Request-ID": "no spaces {}"}, timeout=30)
        refused = httpx.post(f"{url}/api/run", content=b'{"code": NaN}', headers={"content-type": "application/json"})
        failing = httpx.post(f"{url}/api/run", json={"code": f"raise ValueError('{secret}')"}, timeout=30)
    assert run.json()["stdout"] == "42\n" and refused.status_code == 400
    assert given.headers["x-request-id"] == "from-nginx.42"
    assert bad_id.headers["x-request-id"] != "no spaces {}" and len(bad_id.headers["x-request-id"]) == 32

    everything = lines(log)  # every line parses as JSON (json.loads above would raise)
    assert all({"time", "level", "logger", "message"} <= set(line) for line in everything)
    assert secret not in log.read_text()  # neither the code nor what it printed nor its error

    first = access(log, run.headers["x-request-id"])
    assert first["method"] == "POST" and first["path"] == "/api/run" and first["status"] == 200
    assert first["outcome"] == "ok" and first["duration_ms"] > 0 and first["client"] == "127.0.0.1"
    assert access(log, "from-nginx.42")["outcome"] == "kept"
    assert access(log, refused.headers["x-request-id"])["status"] == 400
    assert access(log, failing.headers["x-request-id"])["outcome"] == "error"


def test_the_code_is_logged_only_when_asked(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    code = f"print('{uuid.uuid4().hex}')"
    with logging_server(log, {"GRADTRACE_LOG_CODE": "true"}) as url:
        run = httpx.post(f"{url}/api/run", json={"code": code}, timeout=30)
    assert access(log, run.headers["x-request-id"])["code"] == code


def test_healthz_is_alive_and_readyz_says_what_it_waits_for(tmp_path: Path) -> None:
    dead_redis = f"redis://127.0.0.1:{_free_port()}/0"
    with logging_server(tmp_path / "a.log") as url:
        assert httpx.get(f"{url}/readyz").json() == {"status": "ready", "workers": True}
        health = httpx.get(f"{url}/healthz").json()
        assert health["status"] == "ok" and len(health["engine"]) == 64 and health["process"] > 0
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "GRADTRACE_WORKERS": "1", "GRADTRACE_REDIS_URL": dead_redis},
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        ready = httpx.get(f"{url}/readyz", timeout=5)
        assert ready.status_code == 503  # alive, but its Redis was never reached: not in rotation yet
        assert ready.json() == {"status": "not ready", "workers": True, "redis": False}
        assert httpx.post(f"{url}/api/run", json={"code": "print(1)"}, timeout=30).json()["stdout"] == "1\n"
    finally:
        proc.terminate()
        proc.wait(timeout=15)

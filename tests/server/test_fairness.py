"""Issue 9: one client cannot take every run slot (``GRADTRACE_MAX_PENDING_RUNS_PER_CLIENT``), over HTTP against a
real server. Clients are told apart by address; the server trusts ``X-Forwarded-For`` from loopback (uvicorn's
``FORWARDED_ALLOW_IPS``, as behind nginx), so the test plays two clients (documentation addresses) from here."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import running_server

SILENT = "while True:\n    pass\n"
ATTACKER, STUDENT = "198.51.100.7", "203.0.113.9"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {
        "GRADTRACE_MAX_PENDING_RUNS": "4",
        "GRADTRACE_MAX_PENDING_RUNS_PER_CLIENT": "2",
        "GRADTRACE_WORKERS": "4",
        "GRADTRACE_MAX_STEPS": "1000000000",
        "GRADTRACE_MAX_SECONDS": "30",
        "GRADTRACE_RUN_DEADLINE_SECONDS": "40",
        "GRADTRACE_RUN_CPU_SECONDS": "40",
    }
    with running_server(env) as url:
        yield url


def _stream_as(url: str, client: str, code: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    body = json.dumps({"code": code}).encode()
    sock.sendall(
        b"POST /api/run/stream HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nx-forwarded-for: %s\r\n"
        b"content-length: %d\r\n\r\n%s" % (client.encode(), len(body), body)
    )
    return sock


def _run_as(url: str, client: str, code: str) -> httpx.Response:
    return httpx.post(f"{url}/api/run", json={"code": code}, headers={"X-Forwarded-For": client}, timeout=30)


def _pending(url: str) -> int:
    pending: int = httpx.get(f"{url}/healthz", timeout=10).json()["pending_runs"]
    return pending


def test_one_client_gets_its_share_and_the_others_still_run(server: str) -> None:
    streams = [_stream_as(server, ATTACKER, SILENT + f"# {k}\n") for k in range(2)]
    try:
        assert all(sock.recv(12) == b"HTTP/1.1 200" for sock in streams)
        deadline = time.monotonic() + 10
        while _pending(server) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        third = _stream_as(server, ATTACKER, SILENT + "# 3\n")
        assert third.recv(12) == b"HTTP/1.1 429"  # its share is taken: refused before the stream starts
        third.close()
        refused = _run_as(server, ATTACKER, "print(1)")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert "you have too many runs" in refused.json()["detail"]
        answered = _run_as(server, STUDENT, "print(6 * 7)")  # the server has room: another client runs
        assert answered.status_code == 200 and answered.json()["stdout"] == "42\n"
    finally:
        for sock in streams:
            sock.close()
    deadline = time.monotonic() + 5
    while _pending(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _run_as(server, ATTACKER, "print(2)").json()["stdout"] == "2\n"  # its slots came back

"""Request heads and bodies bounded before anything parses them (server/http_guard.py), over raw sockets against a
real server: 431 past 16 KiB a header, 64 KiB or 100 lines in all; 408 for a head or a body that never ends; a
48 MB header costs the others nothing."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import running_server

REFUSED = {"detail": "request headers too large"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {"GRADTRACE_WORKERS": "1", "GRADTRACE_HEAD_TIMEOUT_SECONDS": "1", "GRADTRACE_BODY_TIMEOUT_SECONDS": "1"}
    with running_server(env) as url:
        yield url


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _exchange(url: str, data: bytes, timeout: float = 10) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it (or ``timeout``)."""
    with socket.create_connection(_address(url)) as sock:
        sock.settimeout(timeout)
        try:
            sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return received


@pytest.mark.parametrize(
    "headers",
    [{"x-pad": "a" * 17_000}, {f"x-pad-{i}": "a" * 15_000 for i in range(5)}, {f"x-{i}": "1" for i in range(101)}],
    ids=["one header over 16 KiB", "over 64 KiB in all", "over 100 headers"],
)
def test_oversized_heads_answer_431_with_json(server: str, headers: dict[str, str]) -> None:
    response = httpx.get(f"{server}/healthz", headers=headers, timeout=10)
    assert response.status_code == 431 and response.headers["content-type"] == "application/json"
    assert response.json() == REFUSED and response.headers["connection"] == "close"


def test_heads_within_the_limits_are_served(server: str) -> None:
    fine = httpx.get(f"{server}/healthz", headers={"x-pad": "a" * 12_000, "cookie": "b" * 14_000}, timeout=10)
    assert fine.status_code == 200 and fine.json()["status"] == "ok"
    many = httpx.get(f"{server}/healthz", headers={f"x-{i}": "1" for i in range(90)}, timeout=10)
    assert many.status_code == 200


def test_a_big_body_arriving_with_its_head_is_not_counted_as_head(server: str) -> None:
    code = "print(len('" + "a" * 60_000 + "'))"
    body = json.dumps({"code": code}).encode()
    request = (
        b"POST /api/run HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nconnection: close\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(body), body)
    )
    answer = _exchange(server, request)
    assert answer.startswith(b"HTTP/1.1 200") and b'"stdout":"60000\\n"' in answer


def test_two_requests_in_one_write_are_both_answered(server: str) -> None:
    request = b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\nGET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
    answer = _exchange(server, request)
    assert answer.count(b"HTTP/1.1 200") == 2


def test_a_head_that_never_ends_answers_408_and_is_closed(server: str) -> None:
    start = time.monotonic()
    answer = _exchange(server, b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ")
    assert answer.startswith(b"HTTP/1.1 408") and answer.endswith(
        b'{"detail":"the request headers did not arrive in time"}'
    )
    assert 0.9 < time.monotonic() - start < 5


def test_a_body_that_never_arrives_answers_408_and_is_closed(server: str) -> None:
    start = time.monotonic()
    head = b'POST /api/run HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"co'
    answer = _exchange(server, head)
    assert answer.startswith(b"HTTP/1.1 408") and answer.endswith(
        b'{"detail":"the request body did not arrive in time"}'
    )
    assert 0.9 < time.monotonic() - start < 5
    assert httpx.get(f"{server}/healthz", timeout=10).json()["pending_runs"] == 0


def _healthz_latencies(url: str, seconds: float) -> list[float]:
    latencies = []
    with httpx.Client(base_url=url, timeout=10) as client:
        client.get("/healthz")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.monotonic()
            assert client.get("/healthz").status_code == 200
            latencies.append(time.monotonic() - start)
            time.sleep(0.01)
    return sorted(latencies)


def test_a_48_mb_header_does_not_delay_healthz(server: str) -> None:
    host, port = _address(server)
    idle = _healthz_latencies(server, 2.0)
    attacker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"""
import socket
for _ in range(4):
    sock = socket.create_connection(({host!r}, {port}))
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\\r\\nhost: x\\r\\nx-pad: " + b"a" * (48 * 2**20) + b"\\r\\n\\r\\n")
    except OSError:
        pass
    print(sock.recv(100)[:12].decode(), flush=True)
    sock.close()
""",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        attacked = _healthz_latencies(server, 2.0)
        out, _ = attacker.communicate(timeout=60)
    finally:
        attacker.kill()
    assert "HTTP/1.1 431" in out, out  # refused at 64 KiB (the client may see the rest as a reset connection)
    assert attacked[-1] < idle[-1] + 0.1, (idle[-3:], attacked[-3:])


def test_a_connection_that_sends_nothing_is_closed(server: str) -> None:
    start = time.monotonic()
    answer = _exchange(server, b"")
    assert answer.startswith(b"HTTP/1.1 408") and 0.9 < time.monotonic() - start < 5


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nbad header\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/run HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ids=["not http", "a header without a colon", "an unknown version", "both body lengths"],
)
def test_what_the_http_parser_refuses_answers_400_with_json(server: str, request_bytes: bytes) -> None:
    answer = _exchange(server, request_bytes)
    assert answer.startswith(b"HTTP/1.1 400") and answer.endswith(b'{"detail":"invalid HTTP request"}'), answer[:200]


def test_a_huge_request_line_answers_431(server: str) -> None:
    answer = _exchange(server, b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nhost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431")


def test_a_huge_chunk_extension_costs_nothing_and_the_body_limit_holds(server: str) -> None:
    start = time.monotonic()
    body = b'{"code": "print(1)"}'
    chunked = b"%x;ext=" % len(body) + b"e" * (8 * 2**20) + b"\r\n" + body + b"\r\n0\r\n\r\n"
    answer = _exchange(
        server,
        b"POST /api/run HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n" + chunked,
    )
    assert time.monotonic() - start < 5
    assert answer.startswith((b"HTTP/1.1 200", b"HTTP/1.1 400")), answer[:100]
    assert answer.endswith((b'"stdout":"1\\n","error":null', b"}")), answer[-100:]

"""Streamed runs hold their run slot only while someone reads them (server/sse.py), over HTTP against a real
server: a client that stops reading and hangs up, one that hangs up during a silent run, and one that reads far
slower than its run writes all give their slot back at once, and the server admits new runs."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import running_server

# A program whose trace is big (18 MB of print events, more than the sockets between it and its client hold), then
# runs on silently.
CHATTY = "s = 'x' * 60000\nfor i in range(300):\n    print(s)\nwhile True:\n    pass\n"
SILENT = "while True:\n    pass\n"
# A trace of 40 KB, more than the client reads (it reads nothing), less than gets it dropped, then silence.
STALLED = "s = 'x' * 2000\nfor i in range(20):\n    print(s)\nwhile True:\n    pass\n"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {
        "GRADTRACE_MAX_PENDING_RUNS": "4",
        "GRADTRACE_WORKERS": "4",
        "GRADTRACE_MAX_STEPS": "1000000000",
        "GRADTRACE_MAX_SECONDS": "30",
        "GRADTRACE_RUN_DEADLINE_SECONDS": "40",
        "GRADTRACE_RUN_CPU_SECONDS": "40",
        "GRADTRACE_STREAM_BUFFER_BYTES": "65536",
        "GRADTRACE_MAX_OUTPUT_BYTES": "100000000",
        "GRADTRACE_ANSWER_CACHE_MB": "0",
    }
    with running_server(env) as url:
        yield url


def _open_stream(url: str, code: str, rcvbuf: int = 4096) -> socket.socket:
    """Start a streamed run on a raw socket with a small receive buffer, and read only the status line."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((host, int(port)))
    body = json.dumps({"code": code}).encode()
    sock.sendall(
        b"POST /api/run/stream HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(body), body)
    )
    assert sock.recv(12) == b"HTTP/1.1 200"
    return sock


_CLIENT = httpx.Client(timeout=30)  # one client: making one costs more than a request on this busy machine


def _pending(url: str) -> int:
    pending: int = _CLIENT.get(f"{url}/healthz").json()["pending_runs"]
    return pending


def _admitted_within(url: str, seconds: float) -> float:
    """Seconds until a new run is admitted (200), failing after ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        response = _CLIENT.post(f"{url}/api/run", json={"code": "print(6 * 7)"})
        if response.status_code == 200:
            assert response.json()["stdout"] == "42\n"
            return time.monotonic() - start
        assert response.status_code == 429
        time.sleep(0.1)
    raise AssertionError(f"no run admitted within {seconds} s")


def test_four_streams_that_stop_reading_then_close_give_their_slots_back(server: str) -> None:
    streams = [_open_stream(server, STALLED + f"# {k}\n") for k in range(4)]
    time.sleep(1.5)  # their traces pile up unread
    assert _CLIENT.post(f"{server}/api/run", json={"code": "print(1)"}).status_code == 429
    for sock in streams:
        sock.close()
    assert _admitted_within(server, 5.0) < 5.0
    assert _pending(server) == 0


def test_a_client_that_leaves_during_a_silent_run_gives_its_slot_back_at_once(server: str) -> None:
    streams = [_open_stream(server, SILENT + f"# {k}\n") for k in range(4)]
    time.sleep(0.5)
    assert _pending(server) == 4
    for sock in streams:
        sock.close()
    start = time.monotonic()
    while _pending(server) and time.monotonic() - start < 2:
        time.sleep(0.02)
    assert _pending(server) == 0 and time.monotonic() - start < 1.0


def test_a_reader_far_behind_its_run_is_dropped_and_its_slot_comes_back(server: str) -> None:
    sock = _open_stream(server, CHATTY + "# slow\n", rcvbuf=2048)
    start = time.monotonic()
    while _pending(server) and time.monotonic() - start < 10:  # never read, never closed by the client
        time.sleep(0.05)
    assert _pending(server) == 0, "a reader that fell behind still holds its run"
    sock.settimeout(10)
    received = b""
    try:
        while chunk := sock.recv(65536):  # what was sent before the drop, then the server's end of the connection
            received += chunk
    except ConnectionResetError:
        pass  # the server hung up on unread data: the kernel may say so with a reset
    assert b"event: done" not in received  # dropped, not ended: the stream never finished
    sock.close()
    assert _admitted_within(server, 5.0) < 5.0


def test_a_stream_read_to_the_end_still_ends_with_done(server: str) -> None:
    with (
        httpx.Client(base_url=server, timeout=30) as client,
        client.stream("POST", "/api/run/stream", json={"code": "print(1)\nprint(2)"}) as response,
    ):
        text = "".join(response.iter_text())
    assert text.endswith("\n\n") and text.count("event: done") == 1
    done = json.loads(text.rsplit("event: done\ndata: ", 1)[1])
    assert done["stdout"] == "1\n2\n" and done["error"] is None

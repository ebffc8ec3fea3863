"""JSON answers above 1 KiB go out gzipped when the client accepts gzip (issue 14: a trace compresses several
times); small answers and event streams are sent as they are. Over HTTP against the real server."""

from __future__ import annotations

import gzip
import json

import httpx

from server.lessons import LESSONS

BIG = LESSONS[2].code  # lesson 3's trace: tens of KiB of JSON
SMALL = "print(1)"


def _raw(live_server: str, method: str, path: str, body: dict[str, object], encoding: str) -> httpx.Response:
    with httpx.Client(base_url=live_server, timeout=60) as client:
        request = client.build_request(method, path, json=body, headers={"Accept-Encoding": encoding})
        response = client.send(request, stream=True)
        response.read()  # httpx decodes gzip in .content; .read() keeps the raw stream in response.stream
        return response


def test_a_big_answer_is_gzipped_and_decodes_to_the_same_json(live_server: str) -> None:
    body = {"code": BIG, "seed": 7}
    zipped = _raw(live_server, "POST", "/api/run", body, "gzip")
    plain = _raw(live_server, "POST", "/api/run", body, "identity")
    assert zipped.status_code == plain.status_code == 200
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) * 2 < len(plain.content)  # at least 2x smaller on the wire
    assert json.loads(zipped.content) == json.loads(plain.content)  # httpx undid the gzip


def test_the_wire_bytes_are_gzip(live_server: str) -> None:
    headers = {"Accept-Encoding": "gzip"}
    with (
        httpx.Client(base_url=live_server, timeout=60) as client,
        client.stream("POST", "/api/run", json={"code": BIG, "seed": 7}, headers=headers) as response,
    ):
        wire = b"".join(response.iter_raw())
    assert json.loads(gzip.decompress(wire))["error"] is None


def test_a_small_answer_is_not_compressed(live_server: str) -> None:
    response = _raw(live_server, "POST", "/api/run", {"code": SMALL}, "gzip")
    assert response.status_code == 200 and len(response.content) < 1024
    assert "content-encoding" not in response.headers


def test_a_stream_is_never_compressed(live_server: str) -> None:
    with (
        httpx.Client(base_url=live_server, timeout=60) as client,
        client.stream(
            "POST", "/api/run/stream", json={"code": BIG, "seed": 7}, headers={"Accept-Encoding": "gzip"}
        ) as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in response.headers
        text = b"".join(response.iter_raw()).decode()
    assert text.count("event: done") == 1


def _wire(live_server: str, body: dict[str, object]) -> tuple[httpx.Headers, bytes]:
    with (
        httpx.Client(base_url=live_server, timeout=60) as client,
        client.stream("POST", "/api/run", json=body, headers={"Accept-Encoding": "gzip"}) as response,
    ):
        return response.headers, b"".join(response.iter_raw())


def test_a_kept_answer_goes_out_gzipped_as_the_same_bytes_each_time(live_server: str) -> None:
    """Compressed once, then kept so: a replay costs no compression (issue 9: a kept answer is ready to send)."""
    body = {"code": BIG + "# gzipped once\n", "seed": 3}
    _wire(live_server, body)  # runs it, and keeps the answer
    first_headers, first = _wire(live_server, body)
    second_headers, second = _wire(live_server, body)
    assert first_headers["content-encoding"] == second_headers["content-encoding"] == "gzip"
    assert "accept-encoding" in first_headers["vary"].lower()
    assert first == second and json.loads(gzip.decompress(first))["error"] is None

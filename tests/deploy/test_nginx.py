"""The project's nginx config (deploy/nginx/) in front of two real api replicas, on loopback: load balancing, retries
when a replica dies, Server-Sent Events unbuffered, header and body limits, asset caching and compression.

nginx's access log (the config's JSON lines) says which replica answered each request (``upstream``) and whether
nginx had to try another one (two addresses, the first with its failure status).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from server.lessons import LESSONS
from tests.deploy.stack import STATIC_ROOT, Nginx, Stack, wait_until

LESSON = LESSONS[0].code


def _new_entries(stack: Stack, before: int, paths: tuple[str, ...], count: int) -> list[dict[str, Any]]:
    """The access log's entries of ``paths`` since entry ``before``, once there are ``count`` of them (nginx writes
    a request's line just after its answer went out; a stream of the test before may end late)."""
    entries: list[dict[str, Any]] = []

    def complete() -> bool:
        entries[:] = [entry for entry in stack.nginx.log()[before:] if entry["path"] in paths]
        return len(entries) >= count

    with contextlib.suppress(RuntimeError):
        wait_until(complete, 5, "the access log")
    return entries


def _served_by_nginx_alone(entry: dict[str, Any]) -> bool:
    return entry["upstream"] == ""


def test_requests_alternate_between_the_replicas(stack: Stack) -> None:
    before = len(stack.nginx.log())
    with httpx.Client(base_url=stack.url, timeout=30) as client:
        for i in range(16):
            response = client.post("/api/run", json={"code": f"print({i} * 7)"})
            assert response.status_code == 200 and response.json()["stdout"] == f"{i * 7}\n"
            # a new connection each time, so that both of nginx's worker processes take some: one order for both
            assert httpx.get(f"{stack.url}/api/examples", headers={"connection": "close"}).status_code == 200
    entries = _new_entries(stack, before, ("/api/run", "/api/examples"), 32)
    upstreams = [entry["upstream"] for entry in entries]
    assert len(upstreams) == 32 and all("," not in u for u in upstreams)  # nobody needed a second try
    counts = Counter(upstreams)
    print(f"\nalternation: {dict(counts)}")
    assert set(counts) == set(stack.by_address()) and set(counts.values()) == {16}
    assert all(a != b for a, b in zip(upstreams, upstreams[1:])), upstreams  # round robin: strictly in turn


LOOP = 8000


def _load(url: str, count: int, threads: int, on_progress: Any) -> list[tuple[int, str]]:
    """``count`` runs (each a new program, so each goes to a worker; ~0.06 s of work, so that a replica always has
    some under way), from ``threads`` clients at once."""
    results: list[tuple[int, str]] = [(0, "")] * count
    lock = threading.Lock()
    finished = [0]

    def client(indices: range) -> None:
        with httpx.Client(base_url=url, timeout=60) as http:
            for i in indices:
                code = f"total = 0\nfor k in range({LOOP}):\n    total += k\nprint(total + {i})\n"
                try:
                    response = http.post("/api/run", json={"code": code})
                    results[i] = (response.status_code, response.text)
                except httpx.HTTPError as exc:
                    results[i] = (-1, repr(exc))
                with lock:
                    finished[0] += 1
                    on_progress(finished[0])

    workers = [threading.Thread(target=client, args=(range(t, count, threads),)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
    return results


def test_killing_a_replica_mid_load_loses_no_request(tmp_path: Path) -> None:
    count, threads = 96, 8
    with Stack.start(tmp_path) as stack:
        victim, survivor = stack.replicas
        kill_now, killed = threading.Event(), threading.Event()

        def killer() -> None:
            kill_now.wait(timeout=120)
            victim.kill()  # SIGKILL, mid-load: runs in its workers, requests in flight on its connections
            killed.set()

        thread = threading.Thread(target=killer)
        thread.start()
        results = _load(stack.url, count, threads, lambda done: done >= count // 4 and kill_now.set())
        thread.join(timeout=30)
        assert killed.is_set()
        log = _new_entries(stack, 0, ("/api/run",), count)
        errors = stack.nginx.errors()

    expected = {f"{sum(range(LOOP)) + i}\n" for i in range(count)}
    answers = [(status, json.loads(text)["stdout"] if status == 200 else text) for status, text in results]
    assert [status for status, _ in answers] == [200] * count, [a for a in answers if a[0] != 200][:5]
    assert {stdout for _, stdout in answers} == expected
    assert len(log) == count and all(entry["status"] == 200 for entry in log)
    retried = [entry for entry in log if "," in entry["upstream"]]
    after = len(log) - min(log.index(entry) for entry in retried) if retried else 0
    first_tries = Counter(entry["upstream"].split(", ")[0] for entry in log)
    print(
        f"\nkill mid-load: {count} runs from {threads} clients, victim killed after {count // 4} answers; "
        f"first tries {dict(first_tries)}; retried on the other replica: {len(retried)} "
        f"({[(e['upstream'], e['upstream_status'], e['upstream_response_time']) for e in retried]}); "
        f"answered from the first retry on: {after}, all 200"
    )
    # Requests the victim had taken and never answered were sent again to the survivor (nginx's error log says
    # they failed "while reading response header"), and every answer came from a live replica.
    assert retried, "no request was retried: the kill did not happen mid-load"
    in_flight = [
        line
        for line in errors.splitlines()
        if "while reading response header" in line and victim.address in line and "[error]" in line
    ]
    print(f"requests in flight at the victim when it died: {len(in_flight)}")
    assert in_flight, errors
    for entry in retried:
        tries = entry["upstream"].split(", ")
        assert tries[0] == victim.address and tries[-1] == survivor.address
        assert entry["upstream_status"].split(", ")[-1] == "200"


SLOW_PRINTS = (
    "print('one')\ntotal = 0\nfor i in range(100000):\n    total += i\nprint('two')\n"
    "for i in range(100000):\n    total += i\nprint('three')\n"
)


def _stream(url: str, code: str) -> tuple[float, dict[str, float], int, httpx.Headers]:
    """Arrival times of the stream's messages: (start, {print text or 'done': seconds after start}, messages)."""
    arrivals: dict[str, float] = {}
    messages = 0
    with httpx.Client(base_url=url, timeout=60) as client:
        started = time.monotonic()
        with client.stream("POST", "/api/run/stream", json={"code": code}) as response:
            assert response.status_code == 200
            headers = response.headers
            kind = ""
            for line in response.iter_lines():
                if line.startswith("event:"):
                    kind = line.split(":", 1)[1].strip()
                elif line.startswith("data:"):
                    messages += 1
                    now = time.monotonic() - started
                    if kind == "done":
                        arrivals["done"] = now
                    for event in json.loads(line.split(":", 1)[1]) if kind == "trace" else []:
                        if event["type"] == "print":
                            arrivals[event["text"].strip()] = now
    return started, arrivals, messages, headers


def test_a_stream_arrives_event_by_event_through_nginx(stack: Stack) -> None:
    # Each a new program (a comment apart), so that neither is a kept answer replayed in one message.
    _, direct, _, _ = _stream(stack.replicas[0].url, "# direct\n" + SLOW_PRINTS)
    _, through, messages, headers = _stream(stack.url, "# through nginx\n" + SLOW_PRINTS)
    print(f"\nSSE arrivals (s after the request): direct {direct}; through nginx {through}")
    assert list(through) == ["one", "two", "three", "done"] and messages >= 4
    assert "content-encoding" not in headers  # never gzipped: compression would hold messages back
    whole = through["done"]
    # Each print leaves nginx when the replica sends it: a run of two silent loops shows them apart, in order.
    assert through["two"] - through["one"] > whole / 4, through
    assert through["three"] - through["two"] > whole / 4, through
    assert through["one"] < whole / 4, through


def test_oversized_headers_answer_431_at_nginx(stack: Stack) -> None:
    before = len(stack.nginx.log())
    with httpx.Client(base_url=stack.url, timeout=30) as client:
        one_big = client.get("/healthz", headers={"x-pad": "a" * 17_000})
        many = client.get("/healthz", headers={f"x-pad-{i}": "a" * 15_000 for i in range(5)})
        # Within the limits (nginx's defaults would refuse the first: 8 KiB a header line).
        fine = client.get("/healthz", headers={"x-pad": "a" * 12_000, "cookie": "b" * 14_000})
    for refused in (one_big, many):
        assert refused.status_code == 431 and refused.headers["content-type"] == "application/json"
        assert refused.json() == {"detail": "request headers too large"}
    assert fine.status_code == 200
    entries = _new_entries(stack, before, ("/healthz",), 3)
    assert [(e["status"], _served_by_nginx_alone(e)) for e in entries] == [(431, True), (431, True), (200, False)]


def test_oversized_bodies_answer_413_at_nginx(stack: Stack) -> None:
    before = len(stack.nginx.log())
    code = "#" * (300 * 1024)
    with httpx.Client(base_url=stack.url, timeout=30) as client:
        declared = client.post("/api/run", json={"code": code})

        def chunks() -> Any:
            body = json.dumps({"code": code}).encode()
            for i in range(0, len(body), 16384):
                yield body[i : i + 16384]

        chunked = client.post("/api/run", content=chunks(), headers={"content-type": "application/json"})
        # Under nginx's limit, over the api's 64 KiB of code: nginx passes it on and the replica refuses it.
        under = client.post("/api/run", json={"code": "#" * (100 * 1024)})
    for refused in (declared, chunked):
        assert refused.status_code == 413 and refused.json() == {"detail": "request body too large"}
    assert under.status_code == 413 and "limit is 65536 bytes" in under.text
    entries = _new_entries(stack, before, ("/api/run",), 3)
    assert [(e["status"], _served_by_nginx_alone(e)) for e in entries] == [(413, True), (413, True), (413, False)]


def test_hashed_assets_are_cached_for_a_year_and_compressed(stack: Stack) -> None:
    assets = sorted((STATIC_ROOT / "assets").iterdir())
    assert any(path.suffix == ".js" for path in assets) and any(path.suffix == ".css" for path in assets)
    before = len(stack.nginx.log())
    with httpx.Client(base_url=stack.url, timeout=30, headers={"accept-encoding": "gzip"}) as client:
        for path in assets:
            response = client.get(f"/assets/{path.name}")
            assert response.status_code == 200
            assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert response.headers["x-content-type-options"] == "nosniff"
            if path.stat().st_size >= 1024:
                assert response.headers["content-encoding"] == "gzip" and response.headers["vary"] == "Accept-Encoding"
                raw = client.get(f"/assets/{path.name}", headers={"accept-encoding": "identity"})
                assert "content-encoding" not in raw.headers and raw.content == path.read_bytes()
                assert (
                    int(response.headers.get("content-length", len(gzip.compress(raw.content)))) < path.stat().st_size
                )
            assert response.content == path.read_bytes()  # httpx decompressed it: the same bytes
        missing = client.get("/assets/app-00000000.js")
        assert missing.status_code == 404
        page = client.get("/")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]  # the api's own headers
        embed = client.get("/embed")
        assert embed.status_code == 200 and "frame-ancestors *" in embed.headers["content-security-policy"]
    paths = tuple(f"/assets/{path.name}" for path in assets)
    entries = _new_entries(stack, before, (*paths, "/assets/app-00000000.js", "/", "/embed"), len(assets) + 3)
    assert all(_served_by_nginx_alone(entry) for entry in entries if entry["path"].startswith("/assets/"))
    assert all(not _served_by_nginx_alone(entry) for entry in entries if entry["path"] in ("/", "/embed"))


def test_api_answers_come_compressed_and_intact(stack: Stack) -> None:
    direct = httpx.post(f"{stack.replicas[0].url}/api/run", json={"code": LESSON}, timeout=30)
    through = httpx.post(f"{stack.url}/api/run", json={"code": LESSON}, headers={"accept-encoding": "gzip"}, timeout=30)
    assert through.status_code == 200 and through.headers["content-encoding"] == "gzip"
    assert through.json()["stdout"] == direct.json()["stdout"] and through.json()["events"] == direct.json()["events"]


def test_metrics_are_not_public(stack: Stack) -> None:
    before = len(stack.nginx.log())
    assert httpx.get(f"{stack.url}/metrics", timeout=10).status_code == 404
    (entry,) = _new_entries(stack, before, ("/metrics",), 1)
    assert _served_by_nginx_alone(entry)


def test_no_live_replica_answers_503_in_json(tmp_path: Path) -> None:
    from tests.conftest import _free_port

    nginx = Nginx.start(tmp_path, [f"127.0.0.1:{_free_port()}", f"127.0.0.1:{_free_port()}"])
    try:
        response = httpx.post(f"{nginx.url}/api/run", json={"code": "print(1)"}, timeout=30)
    finally:
        nginx.stop()
    assert response.status_code == 503 and response.headers["retry-after"] == "1"
    assert response.json() == {"detail": "no api replica answered; try again shortly"}
    (entry,) = [entry for entry in nginx.log() if entry["path"] == "/api/run"]
    assert entry["upstream"].count(",") == 1  # both were tried


def test_headers_or_a_body_that_never_arrive_are_cut_off_at_nginx(stack: Stack) -> None:
    import socket

    before = len(stack.nginx.log())
    partial = {
        "/healthz": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",
        "/api/run": b"POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    }
    sockets = {path: socket.create_connection(("127.0.0.1", stack.nginx.port)) for path in partial}
    started = time.monotonic()
    for path, data in partial.items():
        sockets[path].sendall(data)
        sockets[path].settimeout(30)
    closed = {path: (sock.recv(1000), time.monotonic() - started) for path, sock in sockets.items()}
    for sock in sockets.values():
        sock.close()
    # nginx closes both connections after its 10 s timeouts, without bothering a replica
    assert all(data == b"" and 9 < waited < 20 for data, waited in closed.values()), closed
    entries = _new_entries(stack, before, tuple(partial), 2)
    assert sorted((e["path"], e["status"], e["upstream"]) for e in entries) == [
        ("/api/run", 408, ""),
        ("/healthz", 408, ""),
    ]


def test_the_request_id_nginx_logs_is_the_one_the_replica_answers_with(stack: Stack) -> None:
    before = len(stack.nginx.log())
    response = httpx.post(f"{stack.url}/api/run", json={"code": "print('id')"}, timeout=30)
    assert response.status_code == 200
    entry = _new_entries(stack, before, ("/api/run",), 1)[0]
    assert response.headers["x-request-id"] == entry["request_id"] and len(entry["request_id"]) == 32

"""Issue 15: kept answers shared between replicas through Redis, as docs/SCALE-OUT.md specifies them
(``server/answer_store.py``); a replica without Redis, or whose Redis goes away mid-run, answers as before.

The stack is tests/deploy/stack.py's: nginx in front of two replicas started with ``GRADTRACE_REDIS_URL``, one
Debian redis-server with deploy/redis/redis.conf. nginx's access log says which replica answered.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import httpx

from server.lessons import LESSONS
from tests.conftest import _free_port
from tests.deploy.stack import RedisServer, Replica, Stack, wait_until

PREFIX = b"gradtrace:answer:v1:"


def _keys(stack: Stack) -> set[bytes]:
    return set(stack.redis.client().scan_iter(match=PREFIX + b"*"))


def _expected_key(engine: str, seed: int | None, code: str) -> bytes:
    text = f"{engine}\0{'-' if seed is None else seed}\0{code}".encode("utf-8", "surrogatepass")
    return PREFIX + hashlib.sha256(text).hexdigest().encode()


def _post(stack: Stack, body: dict[str, Any]) -> tuple[httpx.Response, str]:
    """POST /api/run through nginx; the answer and the address of the replica that gave it."""
    before = len(stack.nginx.log())
    response = httpx.post(f"{stack.url}/api/run", json=body, timeout=30)
    entries: list[dict[str, Any]] = []

    def logged() -> bool:
        entries[:] = [e for e in stack.nginx.log()[before:] if e["path"] == "/api/run"]
        return bool(entries)

    wait_until(logged, 5, "the access log")
    return response, entries[-1]["upstream"]


def test_an_answer_kept_by_one_replica_is_given_again_by_the_other(stack: Stack) -> None:
    code = LESSONS[0].code + "# shared across replicas\n"
    keys_before = _keys(stack)
    first, by = _post(stack, {"code": code})
    assert first.status_code == 200 and first.json()["error"] is None
    engine = stack.by_address()[by].health()["engine"]
    wait_until(lambda: _expected_key(engine, None, code) in _keys(stack), 5, "the answer reaching Redis")
    assert _keys(stack) - keys_before == {_expected_key(engine, None, code)}
    other = next(replica for address, replica in stack.by_address().items() if address != by)
    given_before = other.health()["answers_given_again"]
    second, by_second = _post(stack, {"code": code})  # round robin: the other replica, which never ran it
    assert by_second == other.address
    assert second.content == first.content
    assert other.health()["answers_given_again"] == given_before + 1


def test_the_key_holds_the_seed(stack: Stack) -> None:
    code = "import torch\nprint(torch.rand(3))\n# seeded\n"
    answers = {seed: _post(stack, {"code": code, "seed": seed}) for seed in (5, 6)}
    assert answers[5][0].json()["stdout"] != answers[6][0].json()["stdout"]
    engine = stack.by_address()[answers[5][1]].health()["engine"]
    wait_until(lambda: {_expected_key(engine, s, code) for s in (5, 6)} <= _keys(stack), 5, "both seeds in Redis")
    again, _ = _post(stack, {"code": code, "seed": 5})
    assert again.content == answers[5][0].content


def test_a_program_that_draws_its_own_seed_is_never_shared(stack: Stack) -> None:
    keys_before = _keys(stack)
    response, _ = _post(stack, {"code": "import torch\nprint(torch.rand(2))\n# unseeded\n"})
    assert response.status_code == 200
    time.sleep(0.5)
    assert _keys(stack) == keys_before


def test_a_program_that_hits_a_limit_is_never_shared(stack: Stack) -> None:
    keys_before = _keys(stack)
    code = "print('before')\nx = 2 ** 10 ** 10\n# limit\n"  # the int-size limit: at once, whatever the budgets
    response, _ = _post(stack, {"code": code, "seed": 1})
    assert response.json()["error"]["type"] == "LimitExceeded"
    time.sleep(0.5)
    assert _keys(stack) == keys_before


def _stream(url: str, code: str) -> list[tuple[str, str]]:
    messages: list[tuple[str, str]] = []
    with httpx.stream("POST", f"{url}/api/run/stream", json={"code": code}, timeout=30) as response:
        kind = ""
        for line in response.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                messages.append((kind, line.split(":", 1)[1].strip()))
    return messages


def test_a_streamed_run_kept_by_one_replica_streams_again_from_the_other(stack: Stack) -> None:
    code = LESSONS[1].code + "# streamed across replicas\n"
    first_replica, second_replica = stack.replicas
    first = _stream(first_replica.url, code)
    given_before = second_replica.health()["answers_given_again"]
    engine = first_replica.health()["engine"]
    wait_until(lambda: _expected_key(engine, None, code) in _keys(stack), 5, "the streamed answer reaching Redis")
    second = _stream(second_replica.url, code)
    assert second_replica.health()["answers_given_again"] == given_before + 1

    def events(messages: list[tuple[str, str]]) -> list[Any]:
        return [event for kind, data in messages if kind == "trace" for event in json.loads(data)]

    assert events(second) == events(first) and second[-1] == first[-1]


def test_without_redis_a_replica_keeps_answers_itself(tmp_path: Path) -> None:
    replica = Replica.start({"GRADTRACE_WORKERS": "1", "GRADTRACE_REDIS_URL": f"redis://127.0.0.1:{_free_port()}/0"})
    try:
        replica.wait_ready()
        code = LESSONS[0].code
        started = time.monotonic()
        answers = [httpx.post(f"{replica.url}/api/run", json={"code": code}, timeout=30) for _ in range(3)]
        elapsed = time.monotonic() - started
        health = replica.health()
    finally:
        replica.stop()
    assert [a.status_code for a in answers] == [200] * 3 and answers[0].content == answers[2].content
    assert health["answers_given_again"] == 2  # from its own copy
    assert elapsed < 3  # a dead Redis costs no timeout per request


def test_redis_going_away_changes_nothing_a_client_sees(tmp_path: Path) -> None:
    store = RedisServer.start(tmp_path / "redis")
    replica = Replica.start({"GRADTRACE_WORKERS": "1", "GRADTRACE_REDIS_URL": store.url})
    try:
        replica.wait_ready()
        before = httpx.post(f"{replica.url}/api/run", json={"code": "print(1)"}, timeout=30)
        store.stop()
        after = [httpx.post(f"{replica.url}/api/run", json={"code": f"print({i})"}, timeout=30) for i in (1, 2)]
    finally:
        replica.stop()
        store.stop()
    assert before.status_code == 200 and [a.status_code for a in after] == [200, 200]
    assert after[0].content == before.content and after[1].json()["stdout"] == "2\n"

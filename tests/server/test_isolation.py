"""The worker pool behind the interpreter: a run past its deadline is killed with its worker, the pool
replaces the worker, and a full server answers 429 rather than queueing without end."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import running_server

SLOW = "total = 0\nfor i in range(150000):\n    total += i\nprint(total)\n"  # ~0.4 s in the interpreter
LESSON_1 = (
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
)


@pytest.fixture(scope="module")
def strict_server() -> Iterator[str]:
    """A server whose runs are killed after 0.1 s and which admits one run at a time."""
    with running_server({"GRADTRACE_RUN_DEADLINE_SECONDS": "0.1", "GRADTRACE_MAX_PENDING_RUNS": "1"}) as url:
        yield url


def test_a_run_past_the_deadline_is_killed_and_the_pool_recovers(strict_server: str) -> None:
    slow = httpx.post(f"{strict_server}/api/run", json={"code": SLOW}, timeout=30)
    assert slow.status_code == 200
    assert slow.json()["error"]["type"] == "LimitExceeded"
    assert "wall-clock limit" in slow.json()["error"]["message"]
    for _ in range(3):  # the replaced worker serves the next runs
        body = httpx.post(f"{strict_server}/api/run", json={"code": "print(6 * 7)"}, timeout=30).json()
        assert body == {**body, "stdout": "42\n", "error": None}


def test_one_op_longer_than_the_clock_allows_ends_at_the_deadline(strict_server: str) -> None:
    # within the per-tensor limit, but one 2048-cube product takes seconds: no clock check runs inside it
    code = "import torch\na = torch.ones(2048, 2048)\nb = a @ a\nprint(b[0, 0])\n"
    big = httpx.post(f"{strict_server}/api/run", json={"code": code}, timeout=30)
    assert big.status_code == 200
    assert big.json()["error"]["type"] == "LimitExceeded" and big.json()["stdout"] == ""
    body = httpx.post(f"{strict_server}/api/run", json={"code": "print(6 * 7)"}, timeout=30).json()
    assert body == {**body, "stdout": "42\n", "error": None}


def test_a_killed_streamed_run_still_ends_with_done(strict_server: str) -> None:
    with httpx.stream("POST", f"{strict_server}/api/run/stream", json={"code": SLOW}, timeout=30) as response:
        text = "".join(response.iter_text())
    assert "event: done" in text and "wall-clock limit" in text


def test_a_full_server_answers_429_with_retry_after(strict_server: str) -> None:
    def post(_: int) -> httpx.Response:
        return httpx.post(f"{strict_server}/api/run", json={"code": SLOW}, timeout=30)

    with ThreadPoolExecutor(4) as pool:
        responses = list(pool.map(post, range(4)))
    refused = [r for r in responses if r.status_code == 429]
    assert refused, [r.status_code for r in responses]
    assert all(r.headers["retry-after"] == "1" and "detail" in r.json() for r in refused)
    assert all(r.status_code in (200, 429) for r in responses)


def test_runs_in_parallel_do_not_see_each_other(live_server: str) -> None:
    seeded = "import torch\ntorch.manual_seed({s})\nprint(torch.rand(3))\n"

    def post(s: int) -> str:
        return httpx.post(f"{live_server}/api/run", json={"code": seeded.format(s=s)}, timeout=30).json()["stdout"]

    with ThreadPoolExecutor(4) as pool:
        outputs = list(pool.map(post, [1, 2, 1, 2, 1, 2]))
    assert outputs[0::2] == [outputs[0]] * 3 and outputs[1::2] == [outputs[1]] * 3
    assert outputs[0] != outputs[1]
    patched = httpx.post(f"{live_server}/api/run", json={"code": "import torch\ntorch.tensor = None\n"}, timeout=30)
    assert patched.status_code == 200
    assert httpx.post(f"{live_server}/api/run", json={"code": LESSON_1}, timeout=30).json()["stdout"] == (
        "tensor([2., 4., 6.])\n"
    )


def test_a_full_server_refuses_streams_with_429_before_they_start() -> None:
    env = {
        "GRADTRACE_MAX_PENDING_RUNS": "1",
        "GRADTRACE_MAX_STEPS": "1000000000",
        "GRADTRACE_MAX_SECONDS": "3",
        "GRADTRACE_WORKERS": "2",
    }
    with running_server(env) as url:
        busy = "print('started')\nwhile True:\n    pass"
        with httpx.stream("POST", f"{url}/api/run/stream", json={"code": busy}, timeout=30) as first:
            chunks = first.iter_text()
            seen = ""
            while "started" not in seen:
                seen += next(chunks)
            refused = httpx.post(f"{url}/api/run/stream", json={"code": "print(1)"}, timeout=30)
            assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
            assert "runs are already waiting or running" in refused.json()["detail"]
            assert httpx.post(f"{url}/api/run", json={"code": "print(1)"}, timeout=30).status_code == 429
            rest = "".join(chunks)
        assert "event: done" in rest and "(time limit)" in rest
        assert httpx.post(f"{url}/api/run", json={"code": LESSON_1}, timeout=30).json()["error"] is None

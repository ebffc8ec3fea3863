"""The worker side of the pool (server/worker.py), in this process: a run's answer, and an answer too big to write."""

from __future__ import annotations

import json

import pytest

from server import worker
from server.answers import KEEP, LIMIT
from server.jsonio import run_answer
from server.worker import WorkerConfig

LESSON_1 = (
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
)


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch) -> WorkerConfig:
    monkeypatch.setattr(worker, "set_up", lambda config: None)  # no process-wide limits on the test process
    return WorkerConfig(memory_bytes=0)


def test_a_worker_answers_with_the_json_body(config: WorkerConfig) -> None:
    encoded, why, report = worker.run_in_this_worker(LESSON_1, config, encode=run_answer)
    body = json.loads(encoded)
    assert body["stdout"] == "tensor([2., 4., 6.])\n" and body["error"] is None and body["events"] and why == KEEP
    assert report[:2] == ("ok", None) and report[2] >= 1  # /metrics: the outcome, and the worker's runs so far


def test_an_answer_too_big_to_write_is_a_clear_error(config: WorkerConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def answer_once_out_of_memory(result: object) -> bytes:
        calls.append(result)
        if len(calls) == 1:
            raise MemoryError
        return run_answer(result)

    encoded, why, report = worker.run_in_this_worker(LESSON_1, config, encode=answer_once_out_of_memory)
    body = json.loads(encoded)
    assert why == LIMIT  # a bigger machine could write it: never kept
    assert report[:2] == ("limit", "memory")
    assert body["error"] == {
        "type": "MemoryError",
        "message": "out of memory while writing the answer (its trace is too big)",
        "line": None,
    }


def test_a_run_reports_the_time_it_took_in_the_worker(config: WorkerConfig) -> None:
    """What the pool charges the run's client (server/dispatch.py): the run's own time, not its wait for a worker."""
    import time

    from server.isolation import _spent_in_worker

    start = time.monotonic()
    answer = worker.run_in_this_worker(LESSON_1, config, started=start - 3.0, encode=run_answer)  # waited 3 s
    took = time.monotonic() - start
    assert 0 < answer[2][3] <= took < 3.0 and _spent_in_worker(answer) == answer[2][3]

"""The worker side of the pool (server/worker.py), in this process: a run's answer, and an answer too big to write."""

from __future__ import annotations

import json

import pytest

from server import worker
from server.worker import WorkerConfig

LESSON_1 = "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch) -> WorkerConfig:
    monkeypatch.setattr(worker, "set_up", lambda config: None)  # no process-wide limits on the test process
    return WorkerConfig(memory_bytes=0)


def test_a_worker_answers_with_the_json_body(config: WorkerConfig) -> None:
    encoded, reproducible = worker.execute(LESSON_1, config, encode=True)
    body = json.loads(encoded)
    assert body["stdout"] == "tensor([2., 4., 6.])\n" and body["error"] is None and body["events"] and reproducible


def test_an_answer_too_big_to_write_is_a_clear_error(config: WorkerConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    real_dumps = worker.dumps
    calls = []

    def dumps_once_out_of_memory(value: object) -> str:
        calls.append(value)
        if len(calls) == 1:
            raise MemoryError
        return real_dumps(value)

    monkeypatch.setattr(worker, "dumps", dumps_once_out_of_memory)
    encoded, reproducible = worker.execute(LESSON_1, config, encode=True)
    body = json.loads(encoded)
    assert not reproducible  # a bigger machine could write it
    assert body["error"] == {
        "type": "MemoryError", "message": "out of memory while writing the answer (its trace is too big)", "line": None
    }

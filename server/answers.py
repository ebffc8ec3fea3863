"""Answers kept for code sent again: a class pressing Run on the same lesson, a course page that runs its example
on load, a program asking the API for the same gradients. A reproducible run (``RunResult.reproducible``: no random
seed drawn, no limit that depends on the machine) gives the same answer every time, so the second request gets
the first one's answer without a worker: it costs about what a bare FastAPI endpoint costs, and a burst of the same
program leaves the workers free for everyone else. Code that differs by one character is a different program.

Kept in memory, least recently used first out, within ``GRADTRACE_ANSWER_CACHE_MB`` (0 turns it off).

Example::

    >>> answers = AnswerCache(max_bytes=2**20)
    >>> answers.put("print(1)", b'{"stdout":"1\\n","error":null,"seed":7,"events":[]}')
    >>> answers.get("print(1)")
    b'{"stdout":"1\\n","error":null,"seed":7,"events":[]}'
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from engine.runner import RunResult
from server.jsonio import dumps, result_body


class AnswerCache:
    """JSON answers (``/api/run``'s bytes) by program text, within ``max_bytes`` (code and answer counted); an
    answer bigger than ``max_bytes // 16`` is not kept (a few huge traces would push out the many lessons)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 16
        self._answers: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def __contains__(self, code: str) -> bool:
        return code in self._answers

    def get(self, code: str) -> bytes | None:
        body = self._answers.get(code)
        if body is None:
            self.misses += 1
            return None
        self.hits += 1
        self._answers.move_to_end(code)
        return body

    def put(self, code: str, body: bytes) -> None:
        size = _size(code, body)
        if size > self.max_entry_bytes or code in self._answers:
            return
        while self._size + size > self.max_bytes:
            old_code, old_body = self._answers.popitem(last=False)
            self._size -= _size(old_code, old_body)
        self._answers[code] = body
        self._size += size


def _size(code: str, body: bytes) -> int:
    return len(code) + len(body)


class StreamCopy:
    """The trace batches of a streamed run as they go out, while they fit in one kept answer (``limit`` bytes);
    ``ended`` once the run's last batch came (a killed worker's batches may be missing)."""

    def __init__(self, limit: int) -> None:
        self.frames: list[str] = []
        self.limit = limit
        self.size = 0
        self.ended = False

    def add(self, frame: str) -> None:
        self.size += len(frame)
        if self.size <= self.limit:
            self.frames.append(frame)
        else:
            self.frames.clear()

    def whole(self) -> bool:
        return self.ended and self.size <= self.limit


def replay(body: bytes) -> tuple[str | None, RunResult]:
    """A kept answer as a stream sends it: one ``trace`` batch (JSON array text; None without events) and the
    ``done`` result."""
    answer: dict[str, Any] = json.loads(body)
    events = answer["events"]
    result = RunResult(stdout=answer["stdout"], error=answer["error"], seed=answer["seed"], reproducible=True)
    return (dumps(events) if events else None), result


def answer_of_stream(result: RunResult, frames: list[str]) -> bytes:
    """The ``/api/run`` answer of a streamed run, from its ``done`` result and its ``trace`` batches (JSON arrays,
    in order): the same bytes the worker would have written."""
    head = dumps(result_body(result, events=False))
    events = ",".join(frame[1:-1] for frame in frames if frame != "[]")
    return f'{head[:-1]},"events":[{events}]}}'.encode("ascii")

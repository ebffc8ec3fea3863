"""Answers kept for code sent again: a class pressing Run on the same lesson, a course page that runs its example
on load, a program asking the API for the same gradients. Only a reproducible run is kept (``verdict``: no random
seed drawn, no limit met, nothing read from the machine; ``RunResult.reproducible`` says so): its answer is a pure
function of its code and its seed, so the second request with the same code and seed gets the first one's answer
without a worker. Code that differs by one character is a different program.

A kept answer is held ready to send both ways (``Kept``): ``/api/run``'s JSON bytes and ``/api/run/stream``'s whole
Server-Sent Events body, made from each other by slicing bytes (never decoding or encoding JSON), so a replay costs
the event loop a lookup and a write, however big the trace.

Kept in memory, least recently used first out, within ``GRADTRACE_ANSWER_CACHE_MB`` (0 turns it off).

Example::

    >>> answers = AnswerCache(max_bytes=2**20)
    >>> answers.put(("print(1)", None), Kept.of_body(b'{"stdout":"1\\n","error":null,"seed":7,"events":[]}'))
    >>> answers.get(("print(1)", None)).stream
    b'event: done\\ndata: {"stdout":"1\\n","error":null,"seed":7}\\n\\n'
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

_MACHINE_LIMITS = frozenset({"LimitExceeded", "MemoryError", "RecursionError", "InternalError"})
"""Errors that say a limit (or the machine) ended the run: such a run is never kept."""

KEEP, NONDETERMINISTIC, LIMIT, TOO_BIG = "kept", "not_kept_nondeterministic", "not_kept_limit", "not_kept_too_big"


def verdict(result: Any) -> str:
    """Whether a run's answer may be kept: ``KEEP``, or why not (``LIMIT``: a limit or the machine ended it;
    ``NONDETERMINISTIC``: running it again could answer differently)."""
    error = result.error
    if error is not None and error.get("type") in _MACHINE_LIMITS:
        return LIMIT
    return KEEP if result.reproducible else NONDETERMINISTIC


_LIMITS = [
    ("step limit", "steps"),
    ("(time limit)", "time"),
    ("wall-clock limit", "deadline"),
    ("CPU limit", "cpu"),
    ("memory limit", "memory"),
    ("out of memory", "memory"),
    ("graph limit", "graph"),
    ("output limit", "output"),
    ("elements per tensor", "tensor_size"),
    ("nested", "depth"),
    ("depth", "depth"),
]
_SIZES = ("items", "characters", "bits", "fields", "copies")


def limit_name(message: str) -> str:
    """Which budget a ``LimitExceeded`` message names (``/metrics``' ``limit`` label)."""
    for words, name in _LIMITS:
        if words in message:
            return name
    return "size" if any(words in message for words in _SIZES) else "other"


def outcome(result: Any) -> tuple[str, str | None]:
    """How a run ended, for ``/metrics``: ``("ok" | "error", None)``, or ``("limit", which)`` when a budget or
    the machine ended it."""
    error = result.error
    if error is None and not getattr(result, "limit_hit", False):
        return "ok", None
    kind = error.get("type") if error is not None else None
    if kind == "MemoryError":
        return "limit", "memory"
    if kind == "RecursionError":
        return "limit", "depth"
    if kind in _MACHINE_LIMITS or getattr(result, "limit_hit", False):
        return "limit", limit_name(str(error.get("message", "")) if error is not None else "")
    return "error", None


def sse(event: bytes, data: bytes) -> bytes:
    """One Server-Sent Events message (``data`` is one line: JSON as ``server/jsonio.py`` writes it)."""
    return b"event: " + event + b"\ndata: " + data + b"\n\n"


_EVENTS = b',"events":['  # where the events start in an answer (its first keys are stdout, error and seed)


@dataclass(frozen=True)
class Kept:
    """One kept answer: ``body`` (``/api/run``'s JSON) and ``stream`` (``/api/run/stream``'s bytes); ``gzipped``
    holds the body gzipped once it was asked for so (``server/routes/run.py``), so that a replay is never compressed
    again."""

    body: bytes
    stream: bytes
    gzipped: list[bytes] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of_body(cls, body: bytes) -> Kept:
        """From ``/api/run``'s answer: one ``trace`` message with all its events (none without events), then
        ``done`` with the rest. (``,"events":[`` cannot occur in the strings before it: their quotes are escaped.)"""
        cut = body.index(_EVENTS)
        events = body[cut + len(_EVENTS) - 1 : -1]
        trace = sse(b"trace", events) if events != b"[]" else b""
        return cls(body=body, stream=trace + sse(b"done", body[:cut] + b"}"))

    @classmethod
    def of_stream(cls, frames: list[bytes], done: bytes) -> Kept:
        """From a streamed run's ``trace`` batches (JSON arrays, in order) and its ``done`` message (JSON)."""
        events = b",".join(frame[1:-1] for frame in frames if frame != b"[]")
        stream = b"".join(sse(b"trace", frame) for frame in frames) + sse(b"done", done)
        return cls(body=done[:-1] + _EVENTS + events + b"]}", stream=stream)


class AnswerCache:
    """Kept answers by (code, seed), within ``max_bytes`` (code and both forms counted); an answer bigger than
    ``max_bytes // 16`` is not kept (a few huge traces would push out the many lessons). Counts what it kept and
    why it did not keep the others (``/healthz``)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 16
        self._answers: OrderedDict[Hashable, Kept] = OrderedDict()
        self._size = 0
        self.hits = self.misses = 0
        self.counts = {KEEP: 0, NONDETERMINISTIC: 0, LIMIT: 0, TOO_BIG: 0}

    def __len__(self) -> int:
        return len(self._answers)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._answers

    def get(self, key: Hashable) -> Kept | None:
        kept = self._answers.get(key)
        if kept is None:
            self.misses += 1
            return None
        self.hits += 1
        self._answers.move_to_end(key)
        return kept

    def offer(self, key: Hashable, why: str, make: Any) -> Kept | None:
        """Keep ``make()`` (a ``Kept``) if ``why`` is ``KEEP``, and return it if kept; count the verdict either
        way."""
        if why != KEEP:
            self.counts[why] += 1
            return None
        kept: Kept = make()
        return kept if self.put(key, kept) else None

    def put(self, key: Hashable, kept: Kept) -> bool:
        """Keep ``kept`` (a run's verdict: counted); False when it is too big to keep."""
        if key in self._answers:
            return False
        if not self.fill(key, kept):
            self.counts[TOO_BIG] += 1
            return False
        self.counts[KEEP] += 1
        return True

    def fill(self, key: Hashable, kept: Kept) -> bool:
        """Hold ``kept`` (also one another process kept: no verdict counted), the least recently used out to make
        room; False when it is too big to keep."""
        size = _size(key, kept)
        if key in self._answers:
            return True
        if size > self.max_entry_bytes:
            return False
        while self._size + size > self.max_bytes:
            old_key, old = self._answers.popitem(last=False)
            self._size -= _size(old_key, old)
        self._answers[key] = kept
        self._size += size
        return True


def _size(key: Hashable, kept: Kept) -> int:
    code = key[0] if isinstance(key, tuple) else key
    return len(code) + len(kept.body) + len(kept.stream)  # type: ignore[arg-type]


class StreamCopy:
    """The trace batches of a streamed run as they go out (JSON arrays), while they fit in one kept answer
    (``limit`` bytes); ``ended`` once the run's last batch came (a killed worker's batches may be missing)."""

    def __init__(self, limit: int) -> None:
        self.frames: list[bytes] = []
        self.limit = limit
        self.size = 0
        self.ended = False

    def add(self, frame: bytes) -> None:
        self.size += 2 * len(frame)  # kept twice: in the answer and in the stream
        if self.size <= self.limit:
            self.frames.append(frame)
        else:
            self.frames.clear()

    def whole(self) -> bool:
        return self.ended and self.size <= self.limit

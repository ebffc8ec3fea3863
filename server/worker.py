"""The worker side of the pool (``server/isolation.py``): what runs inside a worker process.

A worker is forked from the pool's forkserver and set up once (``set_up``, with a ``WorkerConfig``: address-space
limit, niceness, the engine warmed); then every call runs one program under the guards of ``server/guards.py`` and
returns its result, or the JSON answer's bytes and whether the answer may be kept
(encoding then runs in the worker, in parallel, rather than in the server's one event loop). A streamed run also sends
its trace events in batches, as they come, to the server's event inbox (``server/inbox.py``) over a Unix socket.

An answer bigger than ``SHIP_ABOVE`` goes to the inbox too, on a connection of its own (``reply``), and the pool gets
a ``Shipped`` in its place: the pool's one result pipe is shared by all workers under one lock (pebble), which a
worker holds until the server has read its whole message, and which every idle worker needs to take its next run; a
1 MB answer there makes every other worker wait for the server to read it (a student's 2 ms run included). On its own
socket a big answer makes nobody wait.

Example (what the pool sends to a worker)::

    body, why = run_in_this_worker("print(1)", WorkerConfig(), started=time.monotonic(), encode=run_answer)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import resource
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.runner import YOUNG_COLLECTION_AFTER
from engine.sandbox import Limits
from server.answers import outcome, verdict
from server.guards import WORKER, CpuLimit, Demotion, alarm, can_renice, cleaned, cleanup_later
from server.jsonio import dumps


@dataclass(frozen=True)
class WorkerConfig:
    """How a worker limits itself and its runs (from the server's settings)."""

    memory_bytes: int = 512 * 2**20  # RLIMIT_AS of the whole worker (0: none)
    limits: Limits = field(default_factory=Limits)
    cpu_seconds: float = 0.0  # CPU time per run (RLIMIT_CPU, then SIGXCPU; 0: none)
    nice: int = 0
    demote_after: float = 0.0  # CPU seconds after which a run yields the CPU to short runs (0: off)


def set_up(config: WorkerConfig) -> None:
    """Once per worker: limits and garbage collection tuned. (The engine comes imported and warmed from the
    forkserver: ``server/preload.py``.)"""
    if WORKER.get("config") == config:
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a worker that crashes leaves no core file
    if config.nice:
        try:
            os.nice(config.nice)
        except OSError:  # pragma: no cover - not permitted here
            pass
    WORKER["demote_after"] = config.demote_after if config.demote_after > 0 and can_renice() else 0.0
    if config.memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (config.memory_bytes, config.memory_bytes))
    path = ctypes.util.find_library("c")
    try:
        WORKER["libc"] = ctypes.CDLL(path) if path else None
    except OSError:  # pragma: no cover - not glibc
        WORKER["libc"] = None
    if gc.get_freeze_count() == 0:  # forked from the forkserver, they came frozen (server/preload.py)
        gc.collect()
        gc.freeze()  # the engine's own objects are never garbage: keep collections short
    # Collect less often, as engine.run does during a run, here for writing the answer too (a big trace is many
    # objects; lesson 1 0.5 ms -> 0.3 ms).
    gc.set_threshold(YOUNG_COLLECTION_AFTER, 20, 10)
    WORKER["config"] = config
    cleanup_later()  # notes the worker's size at start


def warm(config: WorkerConfig) -> None:
    """The pool's warm-up task (a task like a run: it counts toward the worker's ``max_tasks``)."""
    set_up(config)
    WORKER["runs"] = WORKER.get("runs", 0) + 1


def _engine_run_under_guards(
    code: str, config: WorkerConfig, started: float | None, on_event: Any = None, seed: int | None = None
) -> Any:
    """``engine.run`` under the guards; a guard that fires while the run was already reporting its end still makes
    a result."""
    import engine
    from engine.sandbox.errors import LimitExceeded

    try:
        with CpuLimit(config.cpu_seconds), alarm(config.limits, started), Demotion(WORKER.get("demote_after", 0.0)):
            return engine.run(code, limits=config.limits, on_event=on_event, started=started, seed=seed)
    except LimitExceeded as exc:
        return engine.RunResult(stdout="", error={"type": "LimitExceeded", "message": exc.message, "line": None})


SHIP_ABOVE = 32 * 1024
"""Bytes of an encoded answer above which it goes over the inbox socket rather than the pool's shared pipe."""


@dataclass(frozen=True)
class Shipped:
    """Stands for an answer's bytes that went to the inbox (``reply``) instead: ``size`` bytes in one frame."""

    size: int


def ship(answer: Any, reply: tuple[str, bytes] | None) -> Any:
    """``answer`` (bytes, or ``(status, bytes)``), or, when its bytes are over ``SHIP_ABOVE`` and there is a
    ``reply`` inbox, the same with a ``Shipped`` in their place once they are sent there (one frame, then the end)."""
    body = answer[1] if isinstance(answer, tuple) else answer
    if reply is None or not isinstance(body, bytes) or len(body) <= SHIP_ABOVE:
        return answer
    path, token = reply
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(path)
            sock.sendall(token + b"\n" + len(body).to_bytes(4, "big"))
            sock.sendall(body)
            sock.sendall(b"\0\0\0\0")
    except OSError:  # the inbox is gone (the server is stopping): the pool's pipe still works
        return answer
    shipped = Shipped(len(body))
    return (answer[0], shipped) if isinstance(answer, tuple) else shipped


def run_in_this_worker(
    code: str,
    config: WorkerConfig,
    started: float | None = None,
    encode: Callable[[Any], Any] | None = None,
    inbox: tuple[str, bytes] | None = None,
    seed: int | None = None,
    reply: tuple[str, bytes] | None = None,
) -> Any:
    """Run ``code`` (with ``seed``, or one drawn at random) in this worker; its clock counts from ``started``
    (``time.monotonic()``, which all processes share). With ``encode`` (``server.jsonio.run_answer``, ``done_answer``
    or ``/api/grad``'s), return what it makes of the result (the answer's bytes) and the result's ``verdict``
    (may it be kept?) instead of the result. With ``inbox`` (a Unix socket path and the run's token), send the
    events there as they come and leave them out of the result. With ``reply`` (the same, for a run that is not
    streamed), an encoded answer over ``SHIP_ABOVE`` bytes goes there and the result holds a ``Shipped``."""
    set_up(config)
    cleaned()
    WORKER["runs"] = WORKER.get("runs", 0) + 1
    try:
        if inbox is None:
            result = _engine_run_under_guards(code, config, started, seed=seed)
        else:
            with EventSender(*inbox) as sender:
                result = _engine_run_under_guards(code, config, started, sender.on_event, seed=seed)
            result.events = []  # already sent
        try:
            if encode is None:
                return result
            return ship(encode(result), reply), verdict(result), _report(result)
        except MemoryError:  # the answer itself is too big for the worker's memory: say so, keep the worker
            del result
            return _out_of_memory(encode)
    finally:
        cleanup_later()


def _out_of_memory(encode: Callable[[Any], Any] | None) -> Any:
    import engine

    error = {
        "type": "MemoryError",
        "message": "out of memory while writing the answer (its trace is too big)",
        "line": None,
    }
    result = engine.RunResult(stdout="", error=error)
    return (encode(result), verdict(result), _report(result)) if encode is not None else result


def _report(result: Any) -> tuple[str, str | None, int]:
    """What ``/metrics`` counts of a run: its outcome, the limit that ended it, and how many tasks this worker has
    served (the pool replaces it after ``max_tasks``)."""
    kind, limit = outcome(result)
    return kind, limit, int(WORKER.get("runs", 0))


_AT_ONCE = frozenset(("print", "error"))  # what a learner watches arrive: never held for the next batch


class EventSender:
    """Sends a run's events to the server's inbox in batches (JSON arrays, each a length-prefixed frame), at least
    every ``flush_seconds`` even while the program computes silently; a zero-length frame ends the run's events."""

    def __init__(self, path: str, token: bytes, flush_seconds: float = 0.05, flush_size: int = 500) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.connect(path)
        self._socket.sendall(token + b"\n")
        self._batch: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self._flush_seconds = flush_seconds
        self._flush_size = flush_size
        self._sent_at = 0.0  # (the first event goes out at once)
        self._thread = threading.Thread(target=self._flusher, daemon=True)

    def on_event(self, event: dict[str, Any]) -> None:
        self._batch.append(event)
        # The run's own thread sends too, once a flush is due: the flusher thread may not get the GIL (or a core)
        # in time on a busy machine, and an event after a long silent loop (a print) must not wait for the next.
        if (
            event["type"] in _AT_ONCE
            or len(self._batch) >= self._flush_size
            or time.monotonic() - self._sent_at >= self._flush_seconds
        ):
            self.send()

    def send(self) -> None:
        with self._lock:
            items = self._batch[:]
            del self._batch[: len(items)]
            if items:  # (an empty flush sends nothing: the next event after a silence goes out at once)
                self._sent_at = time.monotonic()
                payload = dumps(items).encode("ascii")
                self._socket.sendall(len(payload).to_bytes(4, "big") + payload)

    def _flusher(self) -> None:
        while not self._finished.wait(self._flush_seconds):
            self.send()

    def __enter__(self) -> EventSender:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._finished.set()
        self._thread.join()
        try:
            self.send()
            self._socket.sendall(b"\0\0\0\0")
        finally:
            self._socket.close()

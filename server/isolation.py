"""Runs user programs in supervised worker processes (pebble), so that a run costs only itself.

The interpreter already bounds steps, time and memory; the pool is the second wall behind it. Each worker
has an address-space limit (RLIMIT_AS) and a CPU-time limit per run (RLIMIT_CPU: the kernel stops it), is killed
when a run outlives its wall-clock deadline (pebble then starts a fresh one), and is recycled after a number of
runs. Workers come from a ``forkserver`` that has imported the engine once, so a replacement starts in
milliseconds and never inherits the server's threads; numpy runs single-threaded in them, so that the OS shares
the cores fairly between runs. Each run gets fresh facade modules (``engine.run``), so nothing one program
patches is seen by the next. The guards around each run (alarm, CPU limit, demotion of long runs, giving memory
back) are in ``server/guards.py``.

Streamed runs send their events back in batches through a per-run queue of a ``multiprocessing`` manager
(one connection per process, so a worker killed mid-send can't wedge the others).

Example::

    pool = RunPool(workers=12, memory_bytes=512 * 2**20, deadline=8.0, limits=Limits(), cpu_seconds=8.0)
    result = pool.submit("print(1)").result()      # a concurrent.futures.Future of a RunResult
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import multiprocessing
import os
import queue as queue_module
import resource
import threading
from concurrent.futures import Future
from typing import Any

import pebble

from engine.sandbox import Limits
from server.guards import WORKER as _worker
from server.guards import Demotion, alarm, can_renice, cleaned, cleanup_later, limit_cpu
from server.jsonio import dumps, result_body

STREAM_END = "__end__"
"""Put on a run's event queue after its last batch."""

_PRELOAD = ["engine.runner", "engine.facade", "numpy"]
_WORKER_ENVIRONMENT = {
    # numpy's BLAS single-threaded: the OS shares the cores between runs instead of one run taking them all
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    # a fixed mmap threshold (glibc otherwise raises it after each big free): big arrays live in their own
    # mappings and go back to the OS when freed, so a worker returns to its baseline after a big run
    "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "1048576",
}



def _init_worker(
    memory_bytes: int, limits: Limits | None = None, cpu_seconds: float = 0.0, nice: int = 0, demote_after: float = 0.0
) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a worker the kernel stops leaves no core file
    if nice:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - not permitted here
            pass
    _worker["demote_after"] = demote_after if demote_after > 0 and can_renice() else 0.0
    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import engine.runner  # noqa: F401  (already imported by the forkserver; cheap)

    _worker.update(limits=limits, cpu_seconds=cpu_seconds)
    path = ctypes.util.find_library("c")
    try:
        _worker["libc"] = ctypes.CDLL(path) if path else None
    except OSError:  # pragma: no cover - not glibc
        _worker["libc"] = None
    gc.freeze()  # the engine's own objects are never garbage: keep collections short
    cleanup_later()  # notes the worker's size at start


def _run(code: str, limits: Limits | None, on_event: Any = None) -> Any:
    """``engine.run`` under the alarm; a ring while the run was already reporting its end still makes a result."""
    import engine
    from engine.sandbox.errors import LimitExceeded

    try:
        with alarm(limits), Demotion(_worker.get("demote_after", 0.0)):
            return engine.run(code, limits=limits, on_event=on_event)
    except LimitExceeded as exc:
        return engine.RunResult(stdout="", error={"type": "LimitExceeded", "message": exc.message, "line": None})


def execute(
    code: str, events: Any = None, flush_seconds: float = 0.05, flush_size: int = 500, encode: bool = False
) -> Any:
    """Worker side: run ``code``; with ``events`` (a manager queue), stream event batches into it as JSON text as
    they come (at least every ``flush_seconds``, even while the program computes silently) and leave them out of
    the returned result. With ``encode``, return the JSON answer's bytes instead of the result: encoding runs in
    the worker, in parallel, rather than in the server's one event loop."""
    cleaned()
    limits = _worker["limits"]
    limit_cpu(_worker["cpu_seconds"])
    if events is None:
        try:
            result = _run(code, limits)
            return dumps(result_body(result)).encode("ascii") if encode else result
        finally:
            cleanup_later()
    batch: list[dict[str, Any]] = []
    lock = threading.Lock()
    finished = threading.Event()

    def send() -> None:
        with lock:
            items = batch[:]
            del batch[: len(items)]
            if items:
                events.put(dumps(items))

    def on_event(event: dict[str, Any]) -> None:
        batch.append(event)
        if len(batch) >= flush_size:
            send()

    def flusher() -> None:
        while not finished.wait(flush_seconds):
            send()

    thread = threading.Thread(target=flusher, daemon=True)
    thread.start()
    try:
        result = _run(code, limits, on_event)
    finally:
        finished.set()
        thread.join()
        cleanup_later()
    send()
    events.put(STREAM_END)
    result.events = []  # already sent
    return result


class RunPool:
    """A bounded pool of worker processes that run ``engine.run``."""

    def __init__(
        self,
        workers: int,
        memory_bytes: int,
        deadline: float,
        max_tasks: int = 500,
        limits: Limits | None = None,
        cpu_seconds: float = 0.0,
        nice: int = 0,
        demote_after: float = 0.0,
    ) -> None:
        for name, value in _WORKER_ENVIRONMENT.items():  # read when the forkserver starts (glibc, numpy's BLAS)
            os.environ.setdefault(name, value)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        self._context = context
        self._deadline = deadline
        self._pool = pebble.ProcessPool(
            max_workers=workers,
            max_tasks=max_tasks,
            initializer=_init_worker,
            initargs=(memory_bytes, limits, cpu_seconds, nice, demote_after),
            context=context,
        )
        self._manager: Any = None

    def submit(self, code: str, encode: bool = False) -> "Future[Any]":
        """Run ``code`` in a worker; the future fails with ``TimeoutError`` when the worker had to be killed. With
        ``encode``, its result is the JSON answer's bytes."""
        return self._pool.schedule(execute, args=(code,), kwargs={"encode": encode}, timeout=self._deadline)

    def submit_streamed(self, code: str) -> "tuple[Future[Any], Any]":
        """Run ``code`` in a worker, its events arriving in batches on the returned queue, then ``STREAM_END``."""
        if self._manager is None:
            self._manager = self._context.Manager()
        events = self._manager.Queue()
        return self._pool.schedule(execute, args=(code, events), timeout=self._deadline), events

    def warm_up(self) -> None:
        """Start the workers now rather than on the first request."""
        self.submit("").result()

    def close(self) -> None:
        """Stop the workers (and the manager)."""
        self._pool.stop()
        self._pool.join()
        if self._manager is not None:
            self._manager.shutdown()


def drain(events: Any, future: "Future[Any]", poll: float = 0.05) -> str | None:
    """Blocking: the next batch from ``events`` (a JSON array, as text); None once the run has ended (or its
    worker died)."""
    while True:
        try:
            item = events.get(timeout=poll)
        except queue_module.Empty:
            if future.done():
                return None  # a killed worker never sends STREAM_END
            continue
        except (EOFError, OSError, BrokenPipeError):
            return None
        return None if item == STREAM_END else item

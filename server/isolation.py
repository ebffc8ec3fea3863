"""Runs user programs in supervised worker processes (pebble), so that a run costs only itself.

The interpreter already bounds steps, time and memory; the pool is the second wall behind it. Each worker
has an address-space limit, is killed when a run outlives its deadline (pebble then starts a fresh one), and
is recycled after a number of runs. Workers come from a ``forkserver`` that has imported the engine once,
so a replacement starts in milliseconds and never inherits the server's threads.

Streamed runs send their events back in batches through a per-run queue of a ``multiprocessing`` manager
(one connection per process, so a worker killed mid-send can't wedge the others).

Example::

    pool = RunPool(workers=2, memory_bytes=512 * 2**20, deadline=7.0)
    result = pool.submit("print(1)").result()      # a concurrent.futures.Future of a RunResult
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import resource
import threading
from concurrent.futures import Future
from typing import Any

import pebble

STREAM_END = "__end__"
"""Put on a run's event queue after its last batch."""

_PRELOAD = ["engine.runner", "engine.facade", "numpy"]


def _init_worker(memory_bytes: int) -> None:
    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import engine.runner  # noqa: F401  (already imported by the forkserver; cheap)


def execute(code: str, events: Any = None, flush_seconds: float = 0.05, flush_size: int = 500) -> Any:
    """Worker side: run ``code``; with ``events`` (a manager queue), stream event batches into it as they come
    (at least every ``flush_seconds``, even while the program computes silently) and leave them out of the
    returned result."""
    import engine

    if events is None:
        return engine.run(code)
    batch: list[dict[str, Any]] = []
    lock = threading.Lock()
    finished = threading.Event()

    def send() -> None:
        with lock:
            items = batch[:]
            del batch[: len(items)]
            if items:
                events.put(items)

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
        result = engine.run(code, on_event=on_event)
    finally:
        finished.set()
        thread.join()
    send()
    events.put(STREAM_END)
    result.events = []  # already sent
    return result


class RunPool:
    """A bounded pool of worker processes that run ``engine.run``."""

    def __init__(self, workers: int, memory_bytes: int, deadline: float, max_tasks: int = 500) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        self._context = context
        self._deadline = deadline
        self._pool = pebble.ProcessPool(
            max_workers=workers,
            max_tasks=max_tasks,
            initializer=_init_worker,
            initargs=(memory_bytes,),
            context=context,
        )
        self._manager: Any = None

    def submit(self, code: str) -> "Future[Any]":
        """Run ``code`` in a worker; the future fails with ``TimeoutError`` when the worker had to be killed."""
        return self._pool.schedule(execute, args=(code,), timeout=self._deadline)

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


def drain(events: Any, future: "Future[Any]", poll: float = 0.05) -> "list[dict[str, Any]] | None":
    """Blocking: the next batch from ``events``; None once the run has ended (or its worker died)."""
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

"""Runs user programs in supervised worker processes (pebble), so that a run costs only itself.

The interpreter already bounds steps, time and memory; the pool is the second wall behind it. Each worker has an
address-space limit (RLIMIT_AS) and a CPU-time limit per run (RLIMIT_CPU), set up by ``server/worker.py``; a run
still going at its deadline (counted from the request's arrival) is killed with its worker, and pebble starts a
fresh one. Workers are forked from a ``forkserver`` that has imported and warmed the engine once
(``server/preload.py``), so a replacement starts in milliseconds, warm, and never inherits the server's threads;
workers are recycled after a number of runs. Each run gets fresh facade modules (``engine.run``), so nothing one
program patches is seen by the next.

Pebble rather than ``anyio.to_process``: both were measured side by side (``benchmarks/throughput.py``, then
``benchmarks/load.py``). anyio's pool was no faster on lesson 1 through HTTP (0.45-0.53x against pebble's
0.37-0.45x, same run, same busy machine), but its workers are fresh interpreters: a killed one is replaced by a
cold start that imports numpy and the engine, and under attack that cost students' runs 1-1.6 s (pebble: 48-116 ms).

Example (in the event loop)::

    pool = RunPool(workers=12, config=WorkerConfig(limits=Limits()), deadline=8.0)
    body, why = await pool.run_in_a_worker("print(1)", started=time.monotonic(), encode=run_answer)  # the bytes
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable
from typing import Any

import pebble

from server.dispatch import FairDispatch
from server.worker import WorkerConfig, run_in_this_worker, set_up, warm

_PRELOAD = ["server.preload"]
_WORKER_ENVIRONMENT = {
    # numpy's BLAS single-threaded: the OS shares the cores between runs instead of one run taking them all
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    # a fixed mmap threshold (glibc otherwise raises it after each big free): big arrays live in their own
    # mappings and go back to the OS when freed, so a worker returns to its baseline after a big run
    "MALLOC_MMAP_THRESHOLD_": "131072",
    "MALLOC_TRIM_THRESHOLD_": "1048576",
    # one malloc arena: glibc reserves 64 MiB of address space per extra arena, which RLIMIT_AS counts
    "MALLOC_ARENA_MAX": "1",
}


class RunPool:
    """A bounded pool of worker processes that run ``engine.run``, one run each at a time, waiting runs served in
    order. (A pool of pebble pools of one worker each, so that a task wakes only its worker, was measured too: no
    cheaper per request, and 36 threads in the server instead of 3.)"""

    def __init__(
        self,
        workers: int,
        config: WorkerConfig,
        deadline: float,
        max_tasks: int = 500,
        on_replaced: Callable[[], object] | None = None,
    ) -> None:
        for name, value in _WORKER_ENVIRONMENT.items():  # read when the forkserver starts (glibc, numpy's BLAS)
            os.environ.setdefault(name, value)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        self.config = config
        self.deadline = deadline
        self.max_tasks = max_tasks
        self.dispatch = FairDispatch(workers, reserve=workers // 4)
        self._on_replaced = on_replaced  # told of each worker stopped with its run (killed; a stream's client left)
        self._pool = pebble.ProcessPool(
            max_workers=workers, max_tasks=max_tasks, initializer=set_up, initargs=(config,), context=context
        )

    async def run_in_a_worker(
        self,
        code: str,
        started: float,
        encode: Callable[[Any], Any] | None = None,
        inbox: tuple[str, bytes] | None = None,
        seed: int | None = None,
        client: str = "",
        reply: tuple[str, bytes] | None = None,
    ) -> Any:
        """Run ``code`` in a worker (see ``server.worker.run_in_this_worker``) once one is free for ``client``
        (``server/dispatch.py``). Raises ``TimeoutError`` when the run had to be killed at ``started + deadline``,
        ``pebble.ProcessExpired`` when its worker died. Cancelling the call stops the run (pebble stops its worker
        and starts a fresh one)."""
        await self.dispatch.acquire(client)
        began = time.monotonic()
        try:
            return await self._schedule_and_wait(code, started, encode, inbox, seed, reply)
        finally:
            self.dispatch.release(client, time.monotonic() - began)

    async def _schedule_and_wait(
        self,
        code: str,
        started: float,
        encode: Callable[[Any], Any] | None,
        inbox: tuple[str, bytes] | None,
        seed: int | None,
        reply: tuple[str, bytes] | None,
    ) -> Any:
        remaining = max(started + self.deadline - time.monotonic(), 0.001)
        future = self._pool.schedule(
            run_in_this_worker, args=(code, self.config, started, encode, inbox, seed, reply), timeout=remaining
        )
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Any] = loop.create_future()
        future.add_done_callback(lambda done: _call_soon(loop, waiter, done))
        try:
            return await waiter
        except (TimeoutError, pebble.ProcessExpired):
            self._replaced()  # killed with its run
            raise
        except asyncio.CancelledError:
            if future.running():  # a worker had started it: pebble stops that worker (a queued run just leaves)
                self._replaced()
            cancel: Callable[[], bool] = future.cancel  # (pebble's methods are not annotated)
            cancel()
            raise

    def _replaced(self) -> None:
        if self._on_replaced is not None:
            self._on_replaced()

    def warm_up(self) -> None:
        """Start the workers now rather than on the first requests (blocking)."""
        self._pool.schedule(warm, args=(self.config,)).result()

    def close(self) -> None:
        """Stop the workers."""
        stop: Callable[[], None] = self._pool.stop  # (pebble's methods are not annotated)
        stop()
        self._pool.join()


def _call_soon(loop: asyncio.AbstractEventLoop, waiter: asyncio.Future[Any], done: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed (shut down while the run went on)
        loop.call_soon_threadsafe(_settle, waiter, done)


def _settle(waiter: asyncio.Future[Any], done: Any) -> None:
    """Pass a pebble future's end to the event loop's future (one way: cancelling ``waiter`` is ``run``'s job)."""
    if waiter.done():
        return
    if done.cancelled():
        waiter.cancel()
    elif done.exception() is not None:
        waiter.set_exception(done.exception())
    else:
        waiter.set_result(done.result())

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
    body = await pool.run("print(1)", started=time.monotonic(), encode=True)  # the JSON answer's bytes
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections import deque
from typing import Any

import pebble

from server.worker import WorkerConfig, execute, set_up

_PRELOAD = ["server.preload"]
_WORKER_ENVIRONMENT = {
    # numpy's BLAS single-threaded: the OS shares the cores between runs instead of one run taking them all
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    # a fixed mmap threshold (glibc otherwise raises it after each big free): big arrays live in their own
    # mappings and go back to the OS when freed, so a worker returns to its baseline after a big run
    "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "1048576",
}


class RunPool:
    """``workers`` worker processes that run ``engine.run``, one run each at a time, waiting runs served in order.

    Each worker is a pebble pool of one: pebble supervises it (timeout, kill, replacement, recycling) and it has its
    own pipes, so a run wakes only the worker that takes it. (One pebble pool of twelve shares one task pipe between
    its workers, and every task woke all the idle ones: ~1 ms of CPU per run, measured, against ~0.1 ms now.)
    Idle workers are reused most recently used first, so a run finds warm caches."""

    def __init__(self, workers: int, config: WorkerConfig, deadline: float, max_tasks: int = 500) -> None:
        for name, value in _WORKER_ENVIRONMENT.items():  # read when the forkserver starts (glibc, numpy's BLAS)
            os.environ.setdefault(name, value)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        self.config = config
        self.deadline = deadline
        self._pools = [
            pebble.ProcessPool(max_workers=1, max_tasks=max_tasks, initializer=set_up, initargs=(config,),
                               context=context)
            for _ in range(workers)
        ]
        self._idle = list(range(workers))  # a stack: the most recently used on top
        self._waiting: deque[asyncio.Future[int]] = deque()

    async def run(
        self, code: str, started: float, encode: bool = False, inbox: tuple[str, bytes] | None = None
    ) -> Any:
        """Run ``code`` in a worker (see ``server.worker.execute``) once one is free. Raises ``TimeoutError`` when
        the run had to be killed at ``started + deadline``, ``pebble.ProcessExpired`` when its worker died.
        Cancelling the call stops the run (pebble stops its worker and starts a fresh one)."""
        index = await self._acquire()
        try:
            remaining = max(started + self.deadline - time.monotonic(), 0.001)
            future = self._pools[index].schedule(execute, args=(code, self.config, started, encode, inbox),
                                                 timeout=remaining)
            return await asyncio.wrap_future(future)
        finally:
            self._release(index)

    async def _acquire(self) -> int:
        if self._idle and not self._waiting:
            return self._idle.pop()
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a worker just as the caller left: pass it on
                self._release(waiter.result())
            raise

    def _release(self, index: int) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(index)
                return
        self._idle.append(index)

    def warm_up(self) -> None:
        """Start the workers now rather than on the first requests (blocking)."""
        for future in [pool.schedule(set_up, args=(self.config,)) for pool in self._pools]:
            future.result()

    def close(self) -> None:
        """Stop the workers."""
        for pool in self._pools:
            pool.stop()
        for pool in self._pools:
            pool.join()

"""Runs user programs in supervised worker processes (``anyio.to_process``), so that a run costs only itself.

The interpreter already bounds steps, time and memory; the pool is the second wall behind it. Each worker is a
separate Python process with an address-space limit (RLIMIT_AS) and a CPU-time limit per run (RLIMIT_CPU), set up
by ``server/worker.py``. A run still going at its deadline (counted from the request's arrival) is killed with its
worker, and a fresh worker is started in the background to take its place. At most ``workers`` runs go at once
(a capacity limiter); each run gets fresh facade modules (``engine.run``), so nothing one program patches is seen by
the next.

Why ``anyio.to_process``: it talks to each worker over that worker's own pipes from the event loop itself, with no
threads and no shared lock, and reuses the most recently idle worker (warm caches). ``benchmarks/throughput.py``
measured pebble's pool (a shared task pipe and result pipe behind a lock, three threads in the server) at about
0.45x a bare FastAPI endpoint on lesson 1; this pool is what brought the ratio up to the 0.7x target.

Example (inside the event loop)::

    pool = RunPool(workers=12, config=WorkerConfig(limits=Limits()), deadline=5.0)
    await pool.start()
    body = await pool.run("print(1)", started=time.monotonic(), encode=True)   # the JSON answer's bytes
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import anyio
import anyio.to_process

from server.worker import WorkerConfig, execute, warm

_WORKER_ENVIRONMENT = {
    # numpy's BLAS single-threaded: the OS shares the cores between runs instead of one run taking them all
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    # a fixed mmap threshold (glibc otherwise raises it after each big free): big arrays live in their own
    # mappings and go back to the OS when freed, so a worker returns to its baseline after a big run
    "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "1048576",
}


class RunKilled(Exception):
    """The run outlived its deadline and was killed with its worker."""


class WorkerLost(Exception):
    """The worker died during the run (the kernel stopped it, or it crashed)."""


class RunPool:
    """A bounded set of worker processes that run ``engine.run``."""

    def __init__(self, workers: int, config: WorkerConfig, deadline: float) -> None:
        for name, value in _WORKER_ENVIRONMENT.items():  # inherited by the workers, read when they start
            os.environ.setdefault(name, value)
        self.workers = workers
        self.config = config
        self.deadline = deadline
        self._limiter = anyio.CapacityLimiter(workers)
        self._replacements: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        """Start all the workers now (in parallel), rather than on the first requests."""
        async with anyio.create_task_group() as group:
            for _ in range(self.workers):
                group.start_soon(self._warm_one)

    async def _warm_one(self) -> None:
        await anyio.to_process.run_sync(warm, self.config, limiter=self._limiter)

    async def run(self, code: str, started: float, encode: bool = False, inbox: tuple[str, bytes] | None = None) -> Any:
        """Run ``code`` in a worker (see ``server.worker.execute``); raises ``RunKilled`` when it had to be killed
        at ``started + deadline``, ``WorkerLost`` when its worker died."""
        try:
            with anyio.fail_after(started + self.deadline - time.monotonic()):
                return await anyio.to_process.run_sync(
                    execute, code, self.config, started, encode, inbox, cancellable=True, limiter=self._limiter
                )
        except TimeoutError:
            self._replace()
            raise RunKilled from None
        except anyio.BrokenWorkerProcess:
            self._replace()
            raise WorkerLost from None
        except asyncio.CancelledError:  # the client left (a stream): its worker was killed with the run
            self._replace()
            raise

    def _replace(self) -> None:
        """Start a worker in the background in place of one that was killed, so the next run finds it warm."""
        task = asyncio.get_running_loop().create_task(self._warm_one())
        self._replacements.add(task)
        task.add_done_callback(self._replacements.discard)

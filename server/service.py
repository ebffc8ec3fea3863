"""Runs user programs for the routes, off the event loop, in the supervised worker pool (server/isolation.py).

Admission is bounded: past ``max_pending`` runs waiting or running, a request is refused with 429 and a
``Retry-After`` so a classroom's burst is told to come back rather than queued without end.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from concurrent.futures import Future
from typing import Any

import anyio.to_thread
from fastapi import HTTPException
from pebble import ProcessExpired

from engine.runner import RunResult
from server.isolation import RunPool, drain
from server.jsonio import dumps, result_body
from server.settings import Settings


class RunService:
    """Executes ``engine.run`` in worker processes, batch or streamed."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._pool = RunPool(
            workers=settings.workers,
            memory_bytes=settings.worker_memory_mb * 2**20,
            deadline=settings.run_deadline_seconds,
            limits=settings.limits(),
            cpu_seconds=settings.run_cpu_seconds,
            nice=settings.worker_nice,
            demote_after=settings.demote_after_seconds,
        )
        self._pending = 0

    def start(self) -> None:
        """Start the worker processes (blocking; call once at start-up)."""
        self._pool.warm_up()

    def close(self) -> None:
        """Stop the worker processes."""
        self._pool.close()

    def check_capacity(self) -> None:
        """Raise 429 (with Retry-After) when ``max_pending_runs`` runs are already waiting or running."""
        if self._pending >= self._settings.max_pending_runs:
            raise HTTPException(
                429,
                f"{self._pending} runs are already waiting or running; try again shortly",
                headers={"Retry-After": "1"},
            )

    def _admit(self) -> None:
        self.check_capacity()
        self._pending += 1

    def _outcome(self, future: "Future[Any]") -> RunResult:
        try:
            result: RunResult = future.result()
            return result
        except TimeoutError:
            reason = f"the run was stopped after {self._settings.run_deadline_seconds:g} s (wall-clock limit)"
        except ProcessExpired as exc:
            if exc.exitcode == -signal.SIGXCPU:
                reason = f"the run was stopped after {self._settings.run_cpu_seconds:g} s of CPU time (CPU limit)"
            else:
                reason = (
                    "the run was stopped: it went over the memory limit "
                    f"({self._settings.worker_memory_mb} MiB) or crashed its worker"
                )
        except Exception as exc:  # noqa: BLE001 - the pool failed the run (a broken pipe...): say so, never a 500
            error = {"type": "InternalError", "message": f"the run failed in its worker ({type(exc).__name__})",
                     "line": None}
            return RunResult(stdout="", error=error)
        return RunResult(stdout="", error={"type": "LimitExceeded", "message": reason, "line": None})

    async def run(self, code: str) -> RunResult:
        """Run ``code`` to completion and return its result."""
        self._admit()
        try:
            future = self._pool.submit(code)
            try:
                await asyncio.wrap_future(future)
            except Exception:  # noqa: BLE001 - reported by _outcome
                pass
            return self._outcome(future)
        finally:
            self._pending -= 1

    async def run_encoded(self, code: str) -> bytes:
        """Run ``code`` to completion and return its JSON answer (``/api/run``), encoded by the worker."""
        self._admit()
        try:
            future = self._pool.submit(code, encode=True)
            try:
                body: bytes = await asyncio.wrap_future(future)
                return body
            except Exception:  # noqa: BLE001 - killed, expired or failed: _outcome says which
                return dumps(result_body(self._outcome(future))).encode("ascii")
        finally:
            self._pending -= 1

    async def stream(self, code: str) -> AsyncIterator[tuple[str, Any]]:
        """Yield ``("trace", "[event, …]")`` batches (JSON text) as the run produces them, then
        ``("done", RunResult)``.

        The route checks capacity before the stream starts (``check_capacity``); here the run only counts."""
        self._pending += 1
        try:
            future, events = await anyio.to_thread.run_sync(self._pool.submit_streamed, code)
            try:
                while (batch := await anyio.to_thread.run_sync(drain, events, future)) is not None:
                    yield "trace", batch
                await asyncio.wrap_future(future)
            except Exception:  # noqa: BLE001 - reported by _outcome
                pass
            finally:
                future.cancel()  # a client that left early doesn't keep a worker busy
            yield "done", self._outcome(future)
        finally:
            self._pending -= 1

"""Runs user programs off the event loop: each run in a worker thread, a bounded number at once.

The interpreter bounds every run's steps, wall time and memory itself, so a thread always comes back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio
import anyio.to_thread

import engine
from server.settings import Settings

_background: set["asyncio.Task[None]"] = set()  # runs whose stream consumer left early still finish here


class RunService:
    """Executes ``engine.run`` for the routes, batch or streamed."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = anyio.CapacityLimiter(settings.max_concurrent_runs)

    async def run(self, code: str) -> "engine.RunResult":
        """Run ``code`` to completion and return its result."""
        return await anyio.to_thread.run_sync(partial(engine.run, code), limiter=self._limiter)

    async def stream(self, code: str, pause: float = 0.05) -> AsyncIterator[tuple[str, Any]]:
        """Yield ``("trace", [event, …])`` batches as the run produces them, then ``("done", RunResult)``.

        The worker thread only appends to a list and wakes the loop when the list was empty, and the loop
        takes what has gathered at most every ``pause`` seconds: a run of 70,000 events costs the loop a few
        hundred wake-ups, not 70,000, so the run itself keeps the interpreter lock.
        """
        loop = asyncio.get_running_loop()
        pending: list[dict[str, Any]] = []
        wake = asyncio.Event()

        def on_event(event: dict[str, Any]) -> None:
            pending.append(event)
            if len(pending) == 1:
                loop.call_soon_threadsafe(wake.set)

        async def worker() -> Any:
            try:
                return await anyio.to_thread.run_sync(
                    partial(engine.run, code, on_event=on_event), limiter=self._limiter
                )
            finally:
                wake.set()

        task = asyncio.create_task(worker())
        _background.add(task)
        task.add_done_callback(_background.discard)
        while True:
            if not pending and not task.done():
                await wake.wait()  # the worker wakes us when it appends to an empty list, or when it ends
            wake.clear()
            if task.done():
                break
            await asyncio.sleep(pause)  # let a batch gather
            batch = pending[:]
            del pending[: len(batch)]  # the worker may have appended meanwhile: keep what came after the copy
            if batch:
                yield "trace", batch
        if pending:
            yield "trace", pending[:]
        yield "done", task.result()

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

_DONE = object()
_background: set["asyncio.Task[None]"] = set()  # runs whose stream consumer left early still finish here


class RunService:
    """Executes ``engine.run`` for the routes, batch or streamed."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = anyio.CapacityLimiter(settings.max_concurrent_runs)

    async def run(self, code: str) -> "engine.RunResult":
        """Run ``code`` to completion and return its result."""
        return await anyio.to_thread.run_sync(partial(engine.run, code), limiter=self._limiter)

    async def stream(self, code: str) -> AsyncIterator[tuple[str, Any]]:
        """Yield ``("trace", event)`` as the run produces them, then ``("done", RunResult)``."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()

        def on_event(event: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, event)

        async def worker() -> None:
            try:
                result: Any = await anyio.to_thread.run_sync(
                    partial(engine.run, code, on_event=on_event), limiter=self._limiter
                )
            except BaseException as exc:  # handed to the consumer, which re-raises it
                result = exc
            queue.put_nowait((_DONE, result))

        task = asyncio.create_task(worker())
        _background.add(task)
        task.add_done_callback(_background.discard)
        while True:
            item = await queue.get()
            if isinstance(item, tuple) and item and item[0] is _DONE:
                break
            yield "trace", item
        await task
        if isinstance(item[1], BaseException):
            raise item[1]
        yield "done", item[1]

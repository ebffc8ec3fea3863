"""The streamed run's response: Server-Sent Events bytes from ``RunService.stream``, sent as they come, and a run
that no longer has a reader stopped at once.

Three tasks share the response. The *producer* takes the run's messages as the worker sends them and queues them;
the *writer* sends the queue to the client as fast as the client reads; the *watcher* waits for the client to hang
up. The run's generator is closed (``aclose``, never left to the garbage collector), so its run slot comes back
and its worker is stopped, the moment any of these happens:

- the run ended (the normal case);
- the client hung up (the watcher sees ``http.disconnect``, even while the writer is stuck on a full socket);
- the client reads so slowly that more than ``max_buffered`` bytes wait for it: it is dropped (the connection is
  closed) rather than have the server hold a whole trace for it.

Example (a route)::

    return RunStream(service.stream(code, seed), max_buffered=settings.stream_buffer_bytes)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncGenerator

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

logger = logging.getLogger(__name__)


class SlowReader(Exception):
    """The client fell more than ``max_buffered`` bytes behind: uvicorn closes its connection."""


class _QuietSlowReaders(logging.Filter):
    """uvicorn logs an exception that ends a started response with its traceback; a dropped reader is expected."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, SlowReader) and not (
            isinstance(exc, BaseExceptionGroup) and exc.subgroup(SlowReader) is not None
        )


logging.getLogger("uvicorn.error").addFilter(_QuietSlowReaders())


class RunStream(Response):
    """A response streaming ``messages`` (bytes, ready to send), bounded by ``max_buffered`` bytes."""

    media_type = "text/event-stream"

    def __init__(self, messages: AsyncGenerator[bytes, None], max_buffered: int) -> None:
        self.messages = messages
        self.max_buffered = max_buffered
        self.dropped = False
        self.status_code = 200
        self.background = None
        # no-cache, and nginx passes each message on at once
        self.init_headers({"cache-control": "no-cache", "x-accel-buffering": "no"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        queue: deque[bytes] = deque()
        queued = 0
        more = asyncio.Event()
        ended = False

        async def produce() -> None:
            nonlocal queued, ended
            async with contextlib.aclosing(self.messages) as messages:
                async for message in messages:
                    queue.append(message)
                    queued += len(message)
                    more.set()
                    if queued > self.max_buffered:
                        self.dropped = True
                        return  # leaving the block closes the run
            ended = True
            more.set()

        async def write() -> None:
            nonlocal queued
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            while True:
                while queue and not self.dropped:
                    message = queue.popleft()
                    queued -= len(message)  # what is in flight is the socket's (bounded by uvicorn's flow control)
                    await send({"type": "http.response.body", "body": message, "more_body": True})
                if self.dropped or ended:
                    return
                more.clear()
                await more.wait()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        producer = asyncio.ensure_future(produce())
        writer = asyncio.ensure_future(write())
        watcher = asyncio.ensure_future(watch())
        try:
            # The producer ends first (the run is over, or its reader was dropped) unless the client leaves.
            await asyncio.wait({producer, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if producer.done() and not self.dropped:
                await asyncio.wait({writer, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (producer, writer, watcher):
                task.cancel()
            await asyncio.gather(producer, writer, watcher, return_exceptions=True)
        for task in (producer, writer):
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        if self.dropped:
            logger.warning("a stream's reader fell %d bytes behind and was dropped", queued)
            raise SlowReader
        if writer.done() and not writer.cancelled() and ended:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

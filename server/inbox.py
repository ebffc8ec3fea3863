"""Where worker processes send the trace events of streamed runs: one Unix socket in a private directory, served by
the event loop (no threads). Each streamed run has a random token; its worker connects, names the token, then sends
length-prefixed frames (a JSON array of events each) and a zero-length frame at the end (``server/worker.py``).

Example::

    inbox = EventInbox()
    await inbox.start()
    token, frames = inbox.open()          # frames: an asyncio.Queue of JSON bytes, then END
    ... run_in_this_worker(code, config, inbox=(inbox.path, token)) in a worker ...
    inbox.close(token)
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import tempfile
from pathlib import Path

END = None
"""Put on a run's queue after its last frame (also when its worker vanished mid-run)."""


class EventInbox:
    """The server's end of the event sockets."""

    def __init__(self) -> None:
        self._queues: dict[bytes, asyncio.Queue[bytes | None]] = {}
        self._server: asyncio.base_events.Server | None = None
        self._directory = ""
        self.path = ""

    async def start(self) -> None:
        """Listen (call once, in the event loop)."""
        self._directory = tempfile.mkdtemp(prefix="gradtrace-")  # mode 0700: only this user can connect
        self.path = str(Path(self._directory) / "events.sock")
        self._server = await asyncio.start_unix_server(self._receive, path=self.path)

    def open(self) -> tuple[bytes, asyncio.Queue[bytes | None]]:
        """A token for a new streamed run, and the queue its frames will arrive on."""
        token = secrets.token_hex(16).encode("ascii")
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._queues[token] = queue
        return token, queue

    def close(self, token: bytes) -> None:
        """Forget a run (its late frames, if any, are dropped)."""
        self._queues.pop(token, None)

    async def stop(self) -> None:
        """Stop listening and remove the socket."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        shutil.rmtree(self._directory, ignore_errors=True)

    async def _receive(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue = None
        try:
            token = (await reader.readline()).strip()
            queue = self._queues.get(token)
            while queue is not None:
                size = int.from_bytes(await reader.readexactly(4), "big")
                if size == 0:
                    break
                queue.put_nowait(await reader.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the worker was killed mid-run: what arrived stands
        finally:
            if queue is not None:
                queue.put_nowait(END)
            writer.close()

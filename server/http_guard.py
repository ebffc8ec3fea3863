"""The HTTP connection's first wall, below the ASGI app: request heads bounded in size, count and time, and request
bodies bounded in time, checked on the raw bytes before the parser sees them.

uvicorn's httptools parser has no limit on a header's size, and it joins a header's pieces with ``bytes +=``: a
48 MB header costs seconds of the one event loop everybody shares. Here each chunk a connection receives is scanned
first (one ``find`` per line, only while the head is still coming): a header line over ``max_header_bytes``, a head
over ``max_head_bytes`` or with more than ``max_header_count`` lines answers ``431`` (JSON, like every refusal)
and closes the connection, without feeding the parser. A head that takes longer than ``head_timeout`` seconds, or a
body that is not all there ``body_timeout`` seconds after its head, answers ``408`` and closes (a connection that
sends nothing at all is closed after ``head_timeout`` too). What the parser itself refuses answers a JSON ``400``.

Example (``server/__main__.py``)::

    uvicorn.run(app, http=guarded_protocol(settings))
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def _refusal(status: str, detail: bytes) -> bytes:
    body = b'{"detail":"' + detail + b'"}'
    return (
        b"HTTP/1.1 " + status.encode("ascii") + b"\r\ncontent-type: application/json\r\n"
        b"x-content-type-options: nosniff\r\ncontent-length: "
        + str(len(body)).encode("ascii")
        + b"\r\nconnection: close\r\n\r\n"
        + body
    )


HEADERS_TOO_LARGE = _refusal("431 Request Header Fields Too Large", b"request headers too large")
NOT_HTTP = _refusal("400 Bad Request", b"invalid HTTP request")
HEAD_TIMEOUT = _refusal("408 Request Timeout", b"the request headers did not arrive in time")
BODY_TIMEOUT = _refusal("408 Request Timeout", b"the request body did not arrive in time")


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the head scanned before parsing and both halves of a request timed."""

    max_header_bytes = 16 * 1024
    max_head_bytes = 64 * 1024
    max_header_count = 100
    head_timeout = 10.0
    body_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = self._line_bytes = self._lines = 0
        self._timer: asyncio.TimerHandle | None = None
        self._refused = False

    # -- the head, scanned on the raw bytes -------------------------------------------------------------------
    def _scan(self, data: bytes) -> bool:
        """Account for ``data`` while the head is coming; False when it breaks a limit. Stops at the head's blank
        line (what follows is the body, the parser's business)."""
        pos, end = 0, len(data)
        while pos < end:
            newline = data.find(b"\n", pos)
            if newline < 0:
                self._line_bytes += end - pos
                self._head_bytes += end - pos
                return self._line_bytes <= self.max_header_bytes and self._head_bytes <= self.max_head_bytes
            line = self._line_bytes + newline - pos  # its length without the "\n" (with a "\r", if any)
            self._head_bytes += newline + 1 - pos
            self._line_bytes = 0
            pos = newline + 1
            if line <= 1:  # a blank line: the end of the head (or, before the request line, ignored)
                if self._lines:
                    self._head_ended()
                    return True
                continue
            self._lines += 1
            if (
                line > self.max_header_bytes
                or self._head_bytes > self.max_head_bytes
                or self._lines > self.max_header_count
            ):
                return False
        return True

    def _head_ended(self) -> None:
        self._in_head = False
        self._head_bytes = self._line_bytes = self._lines = 0
        self._set_timer(self.body_timeout, BODY_TIMEOUT)

    def _set_timer(self, seconds: float, refusal: bytes | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if refusal is not None and seconds > 0:
            self._timer = self.loop.call_later(seconds, self._refuse, refusal)

    def _refuse(self, refusal: bytes) -> None:
        """Answer ``refusal`` when the connection is free to (nothing sent yet for the request it is about) and hang
        up."""
        self._timer = None
        if self._refused or self.transport is None or self.transport.is_closing():
            return
        self._refused = True
        cycle = self.cycle
        if refusal is BODY_TIMEOUT:  # about the current request: unless its answer has started
            free = cycle is not None and not cycle.response_started
        else:  # about a request not parsed yet: unless the previous answer is still going out
            free = cycle is None or cycle.response_complete
        if free:
            self.transport.write(refusal)
        self.transport.close()

    # -- uvicorn's protocol ---------------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._set_timer(self.head_timeout, HEAD_TIMEOUT)  # a connection that never sends a byte is closed too

    def send_400_response(self, msg: str) -> None:
        """What the parser refuses answers JSON too (uvicorn's own answer is plain text)."""
        self.logger.debug("refused: %s", msg)
        self._refuse(NOT_HTTP)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            if self._timer is None:
                self._set_timer(self.head_timeout, HEAD_TIMEOUT)
            if not self._scan(data):
                self._refuse(HEADERS_TOO_LARGE)
                return
        super().data_received(data)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._set_timer(0, None)  # the whole request is in
        self._in_head = True

    def connection_lost(self, exc: Exception | None) -> None:
        self._set_timer(0, None)
        super().connection_lost(exc)


def guarded_protocol(
    max_header_bytes: int, max_head_bytes: int, max_header_count: int, head_timeout: float, body_timeout: float
) -> type[GuardedHttpToolsProtocol]:
    """The protocol class with these limits (uvicorn makes one instance per connection)."""
    limits = {
        "max_header_bytes": max_header_bytes,
        "max_head_bytes": max_head_bytes,
        "max_header_count": max_header_count,
        "head_timeout": head_timeout,
        "body_timeout": body_timeout,
    }
    return type("GuardedHttpTools", (GuardedHttpToolsProtocol,), limits)


def __getattr__(name: str) -> Any:
    """``server.http_guard:FromSettings``, the protocol with the limits of ``GRADTRACE_*`` (``get_settings``): an
    import string, which uvicorn's processes (``--processes``) import each for itself (a class made here can't be
    handed to a process spawned by uvicorn)."""
    if name != "FromSettings":
        raise AttributeError(name)
    from server.settings import get_settings  # only here: the guard itself takes its limits as arguments

    settings = get_settings()
    return guarded_protocol(
        settings.max_header_bytes,
        settings.max_head_bytes,
        settings.max_header_count,
        settings.head_timeout_seconds,
        settings.body_timeout_seconds,
    )

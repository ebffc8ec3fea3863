"""ASGI middleware that refuses request bodies over the limit before anything parses them (413)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.jsonio import SafeJSONResponse


class BodyTooLarge(Exception):
    """Raised inside ``receive`` when a streamed body passes the limit."""


class BodySizeLimit:
    """Answer 413 to any request whose body is (or turns out to be) larger than ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _refusal(self) -> SafeJSONResponse:
        return SafeJSONResponse({"detail": f"request body over {self.max_bytes} bytes"}, status_code=413)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await self._refusal()(scope, receive, send)
                return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refusal()(scope, receive, send)

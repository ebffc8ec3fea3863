"""Security headers on every answer: a strict Content-Security-Policy for the playground (framing allowed only for
``/embed``), a looser one that keeps the interactive API docs working, and ``X-Content-Type-Options: nosniff``.

Example::

    app.add_middleware(SecurityHeaders, embed_frame_ancestors="https://course.example.edu")
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors {ancestors}"
)
# Swagger UI comes from our own files (server/routes/docs.py); it needs blob: workers and data: images only.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")
EMBED_PATHS = ("/embed", "/embed/", "/embed.html")


def _encode(headers: dict[str, str]) -> list[tuple[str, str]]:
    return list(headers.items())


class SecurityHeaders:
    """Pure ASGI middleware adding the security headers (those a route set itself are kept)."""

    def __init__(self, app: ASGIApp, embed_frame_ancestors: str = "*") -> None:
        self.app = app
        common = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin"}
        self._page = _encode(
            {**common, "Content-Security-Policy": PAGE_POLICY.format(ancestors="'none'"), "X-Frame-Options": "DENY"}
        )
        self._embed = _encode(
            {**common, "Content-Security-Policy": PAGE_POLICY.format(ancestors=embed_frame_ancestors)}
        )
        self._docs = _encode({**common, "Content-Security-Policy": DOCS_POLICY, "X-Frame-Options": "DENY"})

    def headers_for(self, path: str) -> list[tuple[str, str]]:
        """The headers an answer to ``path`` gets."""
        if path in EMBED_PATHS:
            return self._embed
        if path.startswith(DOCS_PATHS):
            return self._docs
        return self._page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.headers_for(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra:
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)

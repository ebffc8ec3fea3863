"""CORS for what a course page's widget needs, on by default: ``/embed.js`` and its content-hashed ``/assets/``
(module scripts are fetched with CORS), the runs, the examples and the health check. Every other path (the
playground's pages, ``/api/grad``, the docs) answers without CORS headers. Course sites are an origin list
(``GRADTRACE_CORS_ORIGINS``, ``*`` by default, empty: off); rate limits apply the same to every origin.

The widget's own files also say how long to keep them: the hashed assets for a year (their name changes with
their content), ``/embed.js`` only after asking again (``no-cache``: a new release reaches pages at once).

Example::

    app.add_middleware(WidgetCORS, origins=["https://course.example.edu"])
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

WIDGET_PATHS = ("/embed.js", "/api/run", "/api/run/stream", "/api/examples", "/healthz")
WIDGET_PREFIXES = ("/assets/", "/course/")
IMMUTABLE = "public, max-age=31536000, immutable"


def is_widget_path(path: str) -> bool:
    """Whether a widget on another origin may fetch ``path``."""
    return path in WIDGET_PATHS or path.startswith(WIDGET_PREFIXES)


def cache_control(path: str) -> str | None:
    """The Cache-Control of the widget's files (None: leave the answer's own)."""
    if path.startswith("/assets/"):
        return IMMUTABLE
    if path == "/embed.js":
        return "no-cache"
    return None


class WidgetCORS:
    """Pure ASGI middleware: Starlette's CORS for the widget's paths only, and the widget files' cache headers."""

    def __init__(self, app: ASGIApp, origins: list[str]) -> None:
        self.app = app
        self.cors: ASGIApp | None = None
        if origins:
            self.cors = CORSMiddleware(
                app, allow_origins=origins, allow_methods=["GET", "POST"], allow_headers=["Content-Type"], max_age=600
            )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        target = self.cors if self.cors is not None and is_widget_path(path) else self.app
        cache = cache_control(path)
        await target(scope, receive, send if cache is None else _with_cache(send, cache))


def _with_cache(send: Send, cache: str) -> Send:
    """``send``, adding ``Cache-Control: cache`` to a 200 answer."""

    async def send_with_cache(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] == 200:
            MutableHeaders(scope=message)["Cache-Control"] = cache
        await send(message)

    return send_with_cache

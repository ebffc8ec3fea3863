"""Per-client rate limiting of ``/api/*`` with the ``limits`` library (moving window, in memory).

A client is its address as uvicorn reports it (behind a proxy, run uvicorn with ``--proxy-headers`` so it is the
real client's). Addresses in ``exempt`` (loopback, by default) are never limited. Past the limit an answer is ``429``
with ``Retry-After``; the rule is a ``limits`` string such as
``"300/minute"`` or ``"300/minute;20/second"`` (``GRADTRACE_RATE_LIMIT``; empty turns limiting off).

Example::

    app.add_middleware(RateLimit, rule="300/minute")
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from server.jsonio import SafeJSONResponse


class RateLimit:
    """Pure ASGI middleware: count each client's requests under ``prefix`` against ``rule``."""

    def __init__(self, app: ASGIApp, rule: str, prefix: str = "/api/", exempt: Iterable[str] = ()) -> None:
        self.app = app
        self.exempt = frozenset(exempt)
        self.prefix = prefix
        self.items = parse_many(rule) if rule.strip() else []
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def _retry_after(self, client: str) -> int | None:
        """None when the request may go on; else the seconds until the client may try again."""
        for item in self.items:
            if not self.limiter.hit(item, client):
                stats = self.limiter.get_window_stats(item, client)
                return max(1, math.ceil(stats.reset_time - time.time()))
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.items or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if address in self.exempt:
            await self.app(scope, receive, send)
            return
        wait = self._retry_after(address)
        if wait is None:
            await self.app(scope, receive, send)
            return
        response = SafeJSONResponse(
            {"detail": f"too many requests from this address; try again in {wait} s"},
            status_code=429,
            headers={"Retry-After": str(wait)},
        )
        await response(scope, receive, send)

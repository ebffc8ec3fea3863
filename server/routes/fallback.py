"""The last API route: ``/api/…`` that no route answers is 404, and a path a route has, asked with another method,
is 405 with ``Allow`` (without it, the playground's files mounted at ``/`` would answer ``GET /api/run`` with 404).
Both in the one error shape, ``{"detail": …}``. Include this router after every other one."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from starlette.routing import Match, Mount

router = APIRouter()
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


@router.api_route("/api/{rest:path}", methods=METHODS, include_in_schema=False)
async def no_such_route(request: Request, rest: str) -> None:
    """404, or 405 naming the methods the path has."""
    allowed: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Mount) or getattr(route, "original_router", None) is router:
            continue  # the playground's files (they answer any path), and this route itself
        for method in ("GET", "POST"):
            if route.matches({**request.scope, "method": method})[0] is Match.FULL:
                allowed.add(method)
    if allowed:
        raise HTTPException(405, "Method Not Allowed", headers={"Allow": ", ".join(sorted(allowed))})
    raise HTTPException(404, "Not Found")

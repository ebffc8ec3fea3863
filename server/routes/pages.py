"""GET /healthz, GET /api/examples."""

from __future__ import annotations

from fastapi import APIRouter

from server.lessons import LESSONS
from server.schemas.api import ErrorBody, Example

router = APIRouter()


@router.get("/healthz", tags=["health"])
async def healthz() -> dict[str, str]:
    """200 while the server can answer."""
    return {"status": "ok"}


@router.get("/api/examples", tags=["examples"], responses={429: {"model": ErrorBody, "description": "Too many requests"}})
async def examples() -> list[Example]:
    """The built-in lessons, in course order."""
    return [Example(id=lesson.id, title=lesson.title, code=lesson.code) for lesson in LESSONS]

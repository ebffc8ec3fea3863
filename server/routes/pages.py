"""GET /healthz, GET /api/examples."""

from __future__ import annotations

from fastapi import APIRouter

from server.lessons import LESSONS
from server.routes.deps import ServiceDep
from server.schemas.api import ErrorBody, Example, Health

router = APIRouter()


@router.get("/healthz", tags=["health"])
async def healthz(service: ServiceDep) -> Health:
    """200 while the server can answer."""
    answers = service.answers
    if answers is None:
        return Health(status="ok", pending_runs=service.pending, kept_answers=0, answers_given_again=0)
    return Health(status="ok", pending_runs=service.pending, kept_answers=len(answers),
                  answers_given_again=answers.hits, **answers.counts)


@router.get("/api/examples", tags=["examples"], responses={429: {"model": ErrorBody, "description": "Too many requests"}})
async def examples() -> list[Example]:
    """The built-in lessons, in course order."""
    return [Example(id=lesson.id, title=lesson.title, code=lesson.code) for lesson in LESSONS]

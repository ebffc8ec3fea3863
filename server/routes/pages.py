"""GET /healthz, GET /api/examples."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from server.jsonio import dumps
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
    return Health(
        status="ok",
        pending_runs=service.pending,
        kept_answers=len(answers),
        answers_given_again=answers.hits,
        **answers.counts,
    )


_EXAMPLES = dumps(
    [Example(id=lesson.id, title=lesson.title, code=lesson.code).model_dump() for lesson in LESSONS]
).encode("ascii")
"""The lessons' JSON, written once (the lessons never change while the server runs)."""


@router.get(
    "/api/examples",
    tags=["examples"],
    response_model=list[Example],
    responses={429: {"model": ErrorBody, "description": "Too many requests"}},
)
async def examples() -> Response:
    """The built-in lessons, in course order."""
    return Response(_EXAMPLES, media_type="application/json")

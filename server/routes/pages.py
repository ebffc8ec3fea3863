"""GET /healthz (alive), GET /readyz (ready for traffic), GET /api/examples."""

from __future__ import annotations

import os

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from server.answer_store import engine_fingerprint
from server.jsonio import dumps
from server.lessons import LESSONS
from server.routes.deps import ServiceDep
from server.schemas.api import ErrorBody, Example, Health

router = APIRouter()


@router.get("/healthz", tags=["health"])
async def healthz(service: ServiceDep) -> Health:
    """200 while the server can answer (the liveness probe): the runs pending, the answers kept and what was decided
    for each run's answer, and the engine's fingerprint (kept answers are shared only between equal ones)."""
    answers = service.answers
    engine = engine_fingerprint()
    if answers is None:
        return Health(
            status="ok",
            pending_runs=service.pending,
            kept_answers=0,
            answers_given_again=0,
            engine=engine,
            process=os.getpid(),
        )
    return Health(
        status="ok",
        pending_runs=service.pending,
        kept_answers=len(answers),
        answers_given_again=answers.hits,
        engine=engine,
        process=os.getpid(),
        **answers.counts,
    )


@router.get("/readyz", tags=["health"], responses={503: {"description": "Not ready: workers or Redis"}})
async def readyz(service: ServiceDep) -> JSONResponse:
    """200 when this process should get traffic (the readiness probe): its workers are warm and, with
    ``GRADTRACE_REDIS_URL``, Redis has answered since the process started. A Redis that goes away later doesn't
    make it unready: every process then answers from its own kept answers, instead of all leaving at once."""
    checks = {"workers": service.warm}
    if service.shared is not None:
        checks["redis"] = service.shared.reached or await service.shared.ping()
    ready = all(checks.values())
    return JSONResponse({"status": "ready" if ready else "not ready", **checks}, status_code=200 if ready else 503)


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

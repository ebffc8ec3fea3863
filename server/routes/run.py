"""POST /api/run (one JSON answer) and POST /api/run/stream (Server-Sent Events as the run goes)."""

from __future__ import annotations

from collections.abc import AsyncIterable
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response
from fastapi.sse import EventSourceResponse, ServerSentEvent

from server.jsonio import dumps, result_body
from server.routes.deps import ServiceDep, SettingsDep, check_code_size
from server.schemas.api import REFUSALS, RunRequest, RunResponse

router = APIRouter(prefix="/api", tags=["run"])
_ERRORS = REFUSALS


async def sized_request(request: RunRequest, settings: SettingsDep) -> RunRequest:
    """The request, once its code is known to be within the size limit (413 otherwise). A dependency, so that the
    streamed route refuses before its response starts."""
    check_code_size(request.code, settings)
    return request


SizedRequest = Annotated[RunRequest, Depends(sized_request)]


async def has_room(request: SizedRequest, service: ServiceDep) -> None:
    """429 before the stream starts when the server is full (a refusal inside a started stream can't be a 429),
    unless the answer is kept from an earlier run and needs no worker."""
    if service.answers is None or request.code not in service.answers:
        service.check_capacity()


@router.post("/run", response_model=RunResponse, responses=_ERRORS)
async def run(request: SizedRequest, service: ServiceDep) -> Response:
    """Run a program; a program that raises still answers 200, with ``error`` set and everything up to it.

    Example: ``curl -s localhost:8000/api/run -H 'content-type: application/json' -d '{"code": "print(1)"}'``
    """
    # The worker encodes the answer (jsonio.dumps: strict, ASCII JSON), so the event loop only passes bytes on. The
    # engine's events are plain dicts already in the contract's shape (tests validate them against RunResponse).
    return Response(await service.run_encoded(request.code), media_type="application/json")


@router.post("/run/stream", response_class=EventSourceResponse, responses=_ERRORS, dependencies=[Depends(has_room)])
async def run_stream(request: SizedRequest, service: ServiceDep) -> AsyncIterable[ServerSentEvent]:
    """The same run as Server-Sent Events: ``event: trace`` messages, each a JSON array of the trace events
    produced since the last one (sent as they happen), then ``event: done`` with ``{stdout, error, seed}``."""
    async for kind, item in service.stream(request.code):
        if kind == "trace":
            yield ServerSentEvent(raw_data=item, event="trace")  # JSON text from the worker
        else:
            yield ServerSentEvent(raw_data=dumps(result_body(item, events=False)), event="done")

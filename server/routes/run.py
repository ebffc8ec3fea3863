"""POST /api/run (one JSON answer) and POST /api/run/stream (Server-Sent Events as the run goes)."""

from __future__ import annotations

from collections.abc import AsyncIterable
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.sse import EventSourceResponse, ServerSentEvent

from server.jsonio import SafeJSONResponse, dumps
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


async def has_room(service: ServiceDep) -> None:
    """429 before the stream starts when the server is full (a refusal inside a started stream can't be a 429)."""
    service.check_capacity()


def _result_body(result: object, *, events: bool) -> dict[str, object]:
    body: dict[str, object] = {
        "stdout": result.stdout,  # type: ignore[attr-defined]
        "error": result.error,  # type: ignore[attr-defined]
        "seed": getattr(result, "seed", None),
    }
    if events:
        body["events"] = result.events  # type: ignore[attr-defined]
    return body


@router.post("/run", response_model=RunResponse, responses=_ERRORS)
async def run(request: SizedRequest, service: ServiceDep) -> SafeJSONResponse:
    """Run a program; a program that raises still answers 200, with ``error`` set and everything up to it.

    Example: ``curl -s localhost:8000/api/run -H 'content-type: application/json' -d '{"code": "print(1)"}'``
    """
    result = await service.run(request.code)
    # The engine's events are plain dicts already in the contract's shape (tests validate them against
    # RunResponse); re-validating thousands of them per request would only cost time.
    return SafeJSONResponse(_result_body(result, events=True))


@router.post("/run/stream", response_class=EventSourceResponse, responses=_ERRORS, dependencies=[Depends(has_room)])
async def run_stream(request: SizedRequest, service: ServiceDep) -> AsyncIterable[ServerSentEvent]:
    """The same run as Server-Sent Events: ``event: trace`` messages, each a JSON array of the trace events
    produced since the last one (sent as they happen), then ``event: done`` with ``{stdout, error, seed}``."""
    async for kind, item in service.stream(request.code):
        if kind == "trace":
            yield ServerSentEvent(raw_data=dumps(item), event="trace")
        else:
            yield ServerSentEvent(raw_data=dumps(_result_body(item, events=False)), event="done")

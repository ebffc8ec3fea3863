"""POST /api/run (one JSON answer) and POST /api/run/stream (Server-Sent Events as the run goes)."""

from __future__ import annotations

import gzip
from functools import partial
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from server.answers import Kept
from server.bodies import StrictJSONRoute
from server.routes.deps import ServiceDep, SettingsDep, check_code_size, client_of
from server.schemas.api import REFUSALS, RunRequest, RunResponse
from server.sse import RunStream

router = APIRouter(prefix="/api", tags=["run"], route_class=StrictJSONRoute)
_ERRORS = REFUSALS


async def sized_request(request: RunRequest, settings: SettingsDep) -> RunRequest:
    """The request, once its code is known to be within the size limit (413 otherwise). A dependency, so that the
    streamed route refuses before its response starts."""
    check_code_size(request.code, settings)
    return request


SizedRequest = Annotated[RunRequest, Depends(sized_request)]


async def has_room(request: SizedRequest, service: ServiceDep, http: Request) -> None:
    """429 before the stream starts when the server (or this client's share of it) is full (a refusal inside a
    started stream can't be a 429), unless the answer is kept from an earlier run and needs no worker."""
    if not service.is_kept(request.code, request.seed):
        service.check_capacity(client_of(http))


_GZIP_FROM = 1024  # as the app's GZipMiddleware (server/app.py)


async def kept_response(kept: Kept, http: Request) -> Response:
    """A kept answer, gzipped (once, in a thread, then kept so) for a client that accepts gzip: a replay costs
    no compression (the app's GZipMiddleware leaves an answer that has its encoding alone)."""
    if len(kept.body) < _GZIP_FROM or "gzip" not in http.headers.get("accept-encoding", ""):
        return Response(kept.body, media_type="application/json")
    if not kept.gzipped:
        zipped = await anyio.to_thread.run_sync(partial(gzip.compress, kept.body, compresslevel=6, mtime=0))
        if not kept.gzipped:
            kept.gzipped.append(zipped)
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return Response(kept.gzipped[0], media_type="application/json", headers=headers)


@router.post("/run", response_model=RunResponse, responses=_ERRORS)
async def run(request: SizedRequest, service: ServiceDep, http: Request) -> Response:
    """Run a program; a program that raises still answers 200, with ``error`` set and everything up to it.

    Example: ``curl -s localhost:8000/api/run -H 'content-type: application/json' -d '{"code": "print(1)"}'``
    """
    # The worker encodes the answer (jsonio.dumps: strict, ASCII JSON), so the event loop only passes bytes on. The
    # engine's events are plain dicts already in the contract's shape (tests validate them against RunResponse).
    answer = await service.run_encoded(request.code, request.seed, client_of(http))
    if isinstance(answer, bytes):
        return Response(answer, media_type="application/json")
    return await kept_response(answer, http)


@router.post(
    "/run/stream",
    response_class=Response,
    responses={**_ERRORS, 200: {"description": "Server-Sent Events", "content": {"text/event-stream": {}}}},
    dependencies=[Depends(has_room)],
)
async def run_stream(request: SizedRequest, service: ServiceDep, settings: SettingsDep, http: Request) -> RunStream:
    """The same run as Server-Sent Events: ``event: trace`` messages, each a JSON array of the trace events
    produced since the last one (sent as they happen), then ``event: done`` with ``{stdout, error, seed}``.
    A client that hangs up stops its run; one that reads far slower than the run writes is dropped."""
    stream = service.stream(request.code, request.seed, client_of(http))
    return RunStream(stream, max_buffered=settings.stream_buffer_bytes)

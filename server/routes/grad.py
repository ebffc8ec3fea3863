"""POST /api/grad: the value of an expression and its gradients, for programs that only want numbers."""

from __future__ import annotations

from functools import partial

import anyio.to_thread
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from server.bodies import StrictJSONRoute
from server.gradient import GradInputError, build_program, failed_answer, grad_answer
from server.routes.deps import ServiceDep, SettingsDep, check_code_size, client_of
from server.schemas.api import REFUSALS, GradRequest, GradResponse

router = APIRouter(prefix="/api", tags=["grad"], route_class=StrictJSONRoute)


@router.post("/grad", response_model=GradResponse, responses=REFUSALS)
async def grad(request: GradRequest, settings: SettingsDep, service: ServiceDep, http: Request) -> Response:
    """Differentiate ``expression`` (a scalar) by the ``wrt`` inputs (default: all).

    Example: ``{"expression": "(x * w).sum() + (x ** 2).mean()", "inputs": {"x": [1, 2, 3], "w": [0.5, -1, 2]}}``
    answers ``{"value": 9.166…, "grads": {"x": [1.16…, 0.33…, 4.0], "w": [1.0, 2.0, 3.0]}, "events": […]}``.
    """
    try:  # in a thread: parsing a 256 KiB expression, or writing big inputs into the program, takes milliseconds
        code, wrt = await anyio.to_thread.run_sync(build_program, request)
    except GradInputError as exc:
        raise HTTPException(422, str(exc)) from None
    check_code_size(code, settings)
    answer = partial(grad_answer, wrt=wrt)
    status, body = await service.run_answer(code, answer, failed=failed_answer, client=client_of(http))
    return Response(body, status_code=status, media_type="application/json")

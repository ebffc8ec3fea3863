"""POST /api/grad: the value of an expression and its gradients, for programs that only want numbers."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from server.gradient import GradInputError, build_program, parse_printed
from server.jsonio import SafeJSONResponse
from server.routes.deps import ServiceDep, SettingsDep, check_code_size
from server.schemas.api import REFUSALS, GradRequest, GradResponse

router = APIRouter(prefix="/api", tags=["grad"])


@router.post("/grad", response_model=GradResponse, responses=REFUSALS)
async def grad(request: GradRequest, settings: SettingsDep, service: ServiceDep) -> SafeJSONResponse:
    """Differentiate ``expression`` (a scalar) by the ``wrt`` inputs (default: all).

    Example: ``{"expression": "(x * w).sum() + (x ** 2).mean()", "inputs": {"x": [1, 2, 3], "w": [0.5, -1, 2]}}``
    answers ``{"value": 9.166…, "grads": {"x": [1.16…, 0.33…, 4.0], "w": [1.0, 2.0, 3.0]}, "events": […]}``.
    """
    try:
        code, first_print, wrt = build_program(request)
    except GradInputError as exc:
        raise HTTPException(422, str(exc)) from None
    check_code_size(code, settings)
    result = await service.run(code)
    if result.error is not None:
        error = dict(result.error)
        error.pop("line", None)  # the line is of our generated program, meaningless to the caller
        raise HTTPException(422, {"error": error})
    # Only our own prints carry the answer (the expression itself could print).
    printed = [e["text"] for e in result.events if e["type"] == "print" and (e["line"] or 0) >= first_print]
    value, *grads = (parse_printed(text) for text in printed)
    events = [e for e in result.events if e["type"] != "print"]
    return SafeJSONResponse({"value": value, "grads": dict(zip(wrt, grads)), "events": events})

"""Request bodies of the API's POST routes: JSON only (415 otherwise), strict JSON only (no ``NaN`` or
``Infinity``, which are not JSON: 400; no number that overflows to infinity and no integer past 64 bits, values out
of range: 422), decoded off the event loop when it is more than a few KiB, and every refusal a small JSON body
(never one that echoes the input back).

FastAPI reads a body param from ``Request.json()``; the route class here fills that in first, from the strict
parse, so the routes keep their pydantic models (and the OpenAPI schema its request bodies).

Example::

    router = APIRouter(prefix="/api", route_class=StrictJSONRoute)
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import anyio.to_thread
from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.responses import Response

from server.jsonio import SafeJSONResponse

OFF_LOOP_BYTES = 4096
"""Bodies larger than this are decoded in a thread."""
MAX_INT_DIGITS = 20  # 2**64 - 1 has 20 digits


class NotStrictJSON(ValueError):
    """Text Python's parser takes and JSON does not (``NaN``, ``Infinity``)."""


class OutOfRange(ValueError):
    """A number no client could mean: one that overflows to infinity, or an integer past 64 bits."""


def _constant(name: str) -> Any:
    raise NotStrictJSON(f"{name} is not JSON")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise OutOfRange(f"the number {text[:40]} is out of range")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > sys.get_int_max_str_digits():
        raise ValueError("an integer too long to read")
    if digits > MAX_INT_DIGITS:
        raise OutOfRange(f"an integer of {digits} digits is out of range (at most {MAX_INT_DIGITS})")
    return int(text)


def strict_loads(raw: bytes) -> Any:
    """``raw`` as JSON data, or an ``HTTPException`` (400 or 422) saying why not. (Digits past Python's limit on
    reading an integer, 4,300, are refused before it reads them.)"""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, "the body is not UTF-8") from None
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as exc:
        detail = [
            {"type": "json_invalid", "loc": ["body", exc.pos], "msg": "JSON decode error", "ctx": {"error": exc.msg}}
        ]
        raise HTTPException(422, detail) from None
    except NotStrictJSON as exc:
        raise HTTPException(400, f"the body is not strict JSON: {exc}") from None
    except OutOfRange as exc:
        raise HTTPException(422, f"the body holds a number out of range: {exc}") from None
    except (ValueError, RecursionError) as exc:  # an integer Python refuses to parse, nesting deeper than it can
        raise HTTPException(400, f"the body is not usable JSON ({type(exc).__name__})") from None


def is_json(content_type: str | None) -> bool:
    """``application/json`` or ``application/<something>+json`` (parameters such as a charset aside)."""
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class StrictJSONRoute(APIRoute):
    """An API route whose POST body must be strict JSON (see the module's docstring)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            if request.method == "POST":
                if not is_json(request.headers.get("content-type")):
                    raise HTTPException(415, "the body must be JSON (content-type: application/json)")
                raw = await request.body()
                if len(raw) > OFF_LOOP_BYTES:
                    request._json = await anyio.to_thread.run_sync(strict_loads, raw)
                else:
                    request._json = strict_loads(raw)
            return await handler(request)

        return strict_handler


def _short(part: Any) -> Any:
    return part if isinstance(part, int) or len(str(part)) <= 64 else str(part)[:64] + "…"


async def validation_failed(request: Request, exc: Exception) -> Response:
    """422 for a body that does not match its model: where and why, never the input itself (which could be big, or
    not encodable)."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "type": error.get("type"),
            "loc": [_short(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", ""))[:300],
        }
        for error in list(exc.errors())[:20]
    ]
    return SafeJSONResponse({"detail": errors}, status_code=422)


async def internal_error(request: Request, exc: Exception) -> Response:
    """The last resort: a JSON 500 (the error is logged), never a plain-text page."""
    return SafeJSONResponse({"detail": "internal error"}, status_code=500)

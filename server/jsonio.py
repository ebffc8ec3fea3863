"""JSON encoding that can't fail on what a run produces: ASCII-only (lone surrogates survive as escapes) and
strictly valid (a NaN or infinity that slipped through becomes the string the trace contract uses)."""

from __future__ import annotations

import json
import math
from typing import Any

from starlette.responses import JSONResponse


def _sanitize(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {str(k): _sanitize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sanitize(v) for v in value]
    return value


def dumps(value: Any) -> str:
    """``json.dumps`` that always yields valid JSON text."""
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except ValueError:
        return json.dumps(_sanitize(value), ensure_ascii=True, allow_nan=False, separators=(",", ":"), default=str)


def result_body(result: Any, *, events: bool = True) -> dict[str, Any]:
    """The JSON answer of a run (``/api/run``; without events, the ``done`` message of ``/api/run/stream``)."""
    body: dict[str, Any] = {"stdout": result.stdout, "error": result.error, "seed": getattr(result, "seed", None)}
    if events:
        body["events"] = result.events
    return body


def run_answer(result: Any) -> bytes:
    """``/api/run``'s answer to ``result``, as bytes (a worker makes it: ``server/worker.py``)."""
    return dumps(result_body(result)).encode("ascii")


def done_answer(result: Any) -> bytes:
    """``/api/run/stream``'s ``done`` message for ``result`` (its events went out as the run went)."""
    return dumps(result_body(result, events=False)).encode("ascii")


class SafeJSONResponse(JSONResponse):
    """A JSONResponse rendered with :func:`dumps`."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("ascii")

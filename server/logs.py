"""Structured logs: one JSON object a line, one line a request with its id, and no user code unless asked for.

Every request gets an id: the ``X-Request-ID`` it came with (nginx sends one; kept if it is 1-64 characters of
letters, digits, ``-``, ``_`` or ``.``) or a new one; the answer carries it back in ``X-Request-ID``. When the
request is answered, ``gradtrace.access`` logs ``{"request_id", "method", "path", "status", "duration_ms",
"client"}`` and, for a run, ``"outcome"`` (ok, error, limit, killed, kept) and the limit that ended it. The query
string and the body are never logged: the code is the body. ``GRADTRACE_LOG_CODE=true`` adds the run's code
(its first 2,000 characters) for an operator who needs it.

Example line::

    {"time": "2026-12-05T23:50:01.123Z", "level": "INFO", "logger": "gradtrace.access", "message": "request",
     "request_id": "5f0c…", "method": "POST", "path": "/api/run", "status": 200, "duration_ms": 4.1,
     "client": "10.0.0.7", "outcome": "ok"}
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ACCESS = logging.getLogger("gradtrace.access")
_REQUEST: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("gradtrace_request", default=None)
_GOOD_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_CODE_CHARS = 2000


def note(**fields: Any) -> None:
    """Add ``fields`` to the current request's log line (the run's outcome, ...); nothing outside a request."""
    current = _REQUEST.get()
    if current is not None:
        current.update(fields)


def request_id() -> str | None:
    """The current request's id."""
    current = _REQUEST.get()
    return current.get("request_id") if current is not None else None


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time, level, logger, message, the request id where there is one, the record's
    ``extra`` fields, and the exception's type and traceback."""

    _PLAIN = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        current = request_id()
        if current is not None:
            line["request_id"] = current
        for key, value in record.__dict__.items():
            if key not in self._PLAIN and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=True)


def log_config(level: str, fmt: str) -> dict[str, Any]:
    """uvicorn's ``log_config``: every logger (uvicorn's and ours) to stderr, as JSON lines or plain text."""
    formatter = {"()": JsonFormatter} if fmt == "json" else {"format": "%(levelname)s %(name)s: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": {"level": level.upper()},
            "uvicorn.access": {"level": "WARNING" if fmt == "json" else level.upper()},  # ours says more
            "gradtrace.access": {"level": level.upper()},
        },
    }


class RequestLog:
    """ASGI middleware: the request id (in and out) and one access line a request."""

    def __init__(self, app: ASGIApp, log_code: bool = False) -> None:
        self.app = app
        self.log_code = log_code

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        rid = given if _GOOD_ID.fullmatch(given) else uuid.uuid4().hex
        client = scope.get("client")
        line: dict[str, Any] = {
            "request_id": rid,
            "method": scope["method"],
            "path": scope["path"],
            "client": client[0] if client else None,
        }
        token = _REQUEST.set(line)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode("ascii"))]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            line["status"] = status
            line["duration_ms"] = round((time.perf_counter() - started) * 1000, 2)
            if not self.log_code:
                line.pop("code", None)
            ACCESS.info("request", extra={k: v for k, v in line.items() if k != "request_id"})
            _REQUEST.reset(token)


def code_for_log(code: str) -> str:
    """What of a run's code a log line may carry when ``GRADTRACE_LOG_CODE`` is on."""
    return code[:_CODE_CHARS]

"""Request and response bodies of the HTTP API (the contract in docs/HTTP.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from server.schemas.events import Event


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunRequest(_Strict):
    """A program to run. Example: ``{"code": "import torch\\nprint(torch.tensor(1.))"}``."""

    code: str = Field(description="PyTorch-style Python source", examples=["import torch\nx = torch.tensor(2.0)"])
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**53,
        description="the run's RNG seed, 0 to 2**53 (an integer every JSON client reads exactly); without one the run "
        "draws its own",
    )

    @field_validator("seed", mode="before")
    @classmethod
    def _integer_only(cls, value: Any) -> Any:
        """A JSON integer (``5`` or ``5.0``), never a string or a boolean pydantic would turn into one."""
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise ValueError("seed must be an integer")


class RunError(BaseModel):
    """Why a program stopped: exception type, message (PyTorch's words where PyTorch raises) and line."""

    type: str
    message: str
    line: int | None


class RunResponse(BaseModel):
    """What one run printed, how it ended, and its trace."""

    stdout: str
    error: RunError | None
    events: list[Event]
    seed: int | None = Field(default=None, description="the RNG seed used, to replay the run")


class DoneMessage(BaseModel):
    """The final message of /api/run/stream (SSE ``event: done``)."""

    stdout: str
    error: RunError | None
    seed: int | None = None


Number = float | int
Nested = Any
"""A number or (nested) list of numbers."""


class GradRequest(_Strict):
    """An expression and its inputs. Example: ``{"expression": "(x * w).sum()", "inputs": {"x": [1, 2], "w": 3}}``."""

    expression: str = Field(examples=["(x * w).sum() + (x ** 2).mean()"])
    inputs: dict[str, Nested] = Field(examples=[{"x": [1.0, 2.0, 3.0], "w": [0.5, -1.0, 2.0]}])
    wrt: list[str] | None = Field(default=None, description="inputs to differentiate by (default: all)")


class GradResponse(BaseModel):
    """The expression's value and the gradient of it with respect to each ``wrt`` input."""

    value: Nested
    grads: dict[str, Nested]
    events: list[Event]


class Example(BaseModel):
    """A built-in lesson."""

    id: str
    title: str
    code: str


class Health(BaseModel):
    """The server is up; how many answers it keeps for code sent again, how often it gave one again, and what it
    decided for each run's answer: kept, or not kept because chance decided it, a limit ended it, or too big."""

    status: str
    pending_runs: int = 0
    kept_answers: int
    answers_given_again: int
    kept: int = 0
    not_kept_nondeterministic: int = 0
    not_kept_limit: int = 0
    not_kept_too_big: int = 0
    engine: str = ""
    """The SHA-256 of the engine's and server's source: replicas share kept answers only with equal ones."""
    process: int = 0
    """The id of the server process that answered (a replica may run several: ``--processes``)."""


class ErrorBody(BaseModel):
    """Body of every 4xx answer."""

    detail: Any


_JSON_ERROR = {"application/json": {"schema": {"type": "object", "properties": {"detail": {}}, "required": ["detail"]}}}
REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {
        "description": "The body is not strict JSON (NaN, Infinity, a number out of range, not UTF-8, too deep)",
        "content": _JSON_ERROR,
    },
    408: {"description": "The body did not arrive in time", "content": _JSON_ERROR},
    413: {"description": "The body (256 KiB) or the code (64 KiB) is over its limit", "content": _JSON_ERROR},
    415: {"description": "The body is not application/json", "content": _JSON_ERROR},
    422: {"description": "The body does not match the schema (unknown fields are refused)", "content": _JSON_ERROR},
    431: {
        "description": "The request's headers are too large (16 KiB a header, 64 KiB in all)",
        "content": _JSON_ERROR,
    },
    429: {
        "description": "Too many runs at once, or too many requests from this client; see Retry-After",
        "content": _JSON_ERROR,
        "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    },
}
"""The refusals every POST route may answer, for the OpenAPI schema."""

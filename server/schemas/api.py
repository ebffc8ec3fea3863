"""Request and response bodies of the HTTP API (the contract in docs/HTTP.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from server.schemas.events import Event


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunRequest(_Strict):
    """A program to run. Example: ``{"code": "import torch\\nprint(torch.tensor(1.))"}``."""

    code: str = Field(description="PyTorch-style Python source", examples=["import torch\nx = torch.tensor(2.0)"])


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
    """The server is up; how many answers it keeps for code sent again, and how often it gave one again."""

    status: str
    kept_answers: int
    answers_given_again: int


class ErrorBody(BaseModel):
    """Body of every 4xx answer."""

    detail: Any


_JSON_ERROR = {"application/json": {"schema": {"type": "object", "properties": {"detail": {}}, "required": ["detail"]}}}
REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "The body is not JSON (or not UTF-8)", "content": _JSON_ERROR},
    413: {"description": "The body (256 KiB) or the code (64 KiB) is over its limit", "content": _JSON_ERROR},
    422: {"description": "The body does not match the schema (unknown fields are refused)", "content": _JSON_ERROR},
    429: {"description": "Too many runs at once, or too many requests from this client; see Retry-After",
          "content": _JSON_ERROR,
          "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}},
}
"""The refusals every POST route may answer, for the OpenAPI schema."""

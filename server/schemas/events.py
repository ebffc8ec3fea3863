"""The trace events of the contract (DESIGN.md), one model per ``type``.

The runner produces plain dicts; these models document them in OpenAPI and the tests validate every event
the engine emits against them, so the contract can't drift. Extra fields are allowed (the contract may grow).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Values = Any
"""A tensor's values as ``tolist()`` writes them (a number for 0-d), or a summary object for large tensors."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="allow")
    seq: int = Field(ge=0, description="0, 1, 2, … in the order the events happened")
    line: int | None = Field(description="1-based source line, or null")


class TensorEvent(_Event):
    """A tensor came to exist."""

    type: Literal["tensor"]
    id: int
    name: str | None = Field(description="the variable it was bound to, if any")
    op: str | None = Field(description="grad_fn name such as PowBackward0; null for leaves")
    inputs: list[int]
    shape: list[int]
    dtype: str
    values: Values
    requires_grad: bool
    is_leaf: bool


class NameEvent(_Event):
    """A tensor was bound to a variable name after its ``tensor`` event went out."""

    type: Literal["name"]
    tensor: int
    name: str


class BackwardEvent(_Event):
    """A backward call began."""

    type: Literal["backward"]
    root: int
    gradient: Values
    retain_graph: bool


class NodeEvent(_Event):
    """One grad_fn node ran during backward."""

    type: Literal["node"]
    tensor: int
    op: str
    grad_output: Values
    grad_inputs: list[Values]
    formulas: list[str | None] = Field(
        default_factory=list,
        description="the local chain-rule step of each grad_input as a template: {grad} (grad_output), {out}, {0} "
        "{1} … (the inputs) and {0.shape}; null where the op has none",
    )


class AccumulateEvent(_Event):
    """A leaf's ``.grad`` changed by backward."""

    type: Literal["accumulate"]
    tensor: int
    before: Values
    delta: Values
    after: Values


class GradResetEvent(_Event):
    """``x.grad = None`` (how="none") or ``x.grad.zero_()`` (how="zero")."""

    type: Literal["grad_reset"]
    tensor: int
    how: Literal["none", "zero"]


class StepEvent(_Event):
    """An optimizer changed a parameter."""

    type: Literal["step"]
    tensor: int
    before: Values
    after: Values


class PrintEvent(_Event):
    """Text the program printed (the texts of all print events concatenate to stdout)."""

    type: Literal["print"]
    text: str


class WarningEvent(_Event):
    """PyTorch would have emitted a UserWarning here."""

    type: Literal["warning"]
    message: str


class ErrorEvent(_Event):
    """The program stopped with an error."""

    type: Literal["error"]
    error_type: str
    message: str


class TruncatedEvent(_Event):
    """The trace reached its event limit: no more events follow (except a final ``error``), while the program
    runs on and its stdout is kept whole."""

    type: Literal["truncated"]
    limit: int = Field(description="the event limit of the run")
    message: str


Event = Annotated[
    Union[
        TensorEvent,
        NameEvent,
        BackwardEvent,
        NodeEvent,
        AccumulateEvent,
        GradResetEvent,
        StepEvent,
        PrintEvent,
        WarningEvent,
        ErrorEvent,
        TruncatedEvent,
    ],
    Field(discriminator="type"),
]

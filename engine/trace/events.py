"""The trace contract: every event type the recorder emits, defined once (docs/TRACE.md tells the story).

Each event is a plain dict (JSON-ready) with ``seq`` (0, 1, 2, … in the order the events happened), ``type`` and
``line`` (1-based source line, or None). These TypedDicts are the single definition: the recorder builds them,
``server/schemas/events.py`` publishes them in OpenAPI (pydantic reads TypedDicts), ``frontend/src/trace-schema.json``
is generated from them (``python -m engine.trace.schema``) and the frontend's tests check that the reducer handles
every type. Fields marked ``NotRequired`` may be absent; consumers ignore fields they do not know (the contract may
grow) and event types they do not know.

``Values`` are a tensor's values as ``tolist()`` writes them (a number for 0-d; ``"nan"``, ``"inf"``, ``"-inf"``
as strings), or for large tensors a summary object (``engine/trace/values.py``).

Example::

    >>> sorted(TensorEvent.__required_keys__)[:4]
    ['dtype', 'id', 'inputs', 'is_leaf']
"""

import typing
from typing import Any, Literal, NotRequired, Union

from typing_extensions import TypedDict

Values = Any


class _Base(TypedDict):
    seq: int
    line: int | None
    folded: NotRequired[bool]  # True on a ledger event of a folded iteration, whose graph events were left out


class TensorEvent(_Base):
    """A tensor came to exist (``module``/``module_type``: made inside that module call, e.g. ``model.0``)."""

    type: Literal["tensor"]
    id: int
    name: str | None
    op: str | None
    inputs: list[int]
    shape: list[int]
    dtype: str
    values: Values
    requires_grad: bool
    is_leaf: bool
    module: NotRequired[str]
    module_type: NotRequired[str]


class NameEvent(_Base):
    """A tensor was bound to a variable name after its ``tensor`` event went out."""

    type: Literal["name"]
    tensor: int
    name: str


class BackwardEvent(_Base):
    """A backward call began (``root.backward(gradient)`` or ``torch.autograd.grad``)."""

    type: Literal["backward"]
    root: int
    gradient: Values
    retain_graph: bool
    values: NotRequired[Values]  # the root's values (the loss), known even when its tensor event was folded


class NodeEvent(_Base):
    """One grad_fn node ran during backward. ``grad_inputs`` and ``formulas`` have one entry per entry of the tensor
    event's ``inputs``; a formula is the local chain-rule step with placeholders: ``{grad}`` (the incoming gradient,
    ``grad_output``), ``{out}`` (the node's output, its tensor's values), ``{0}``, ``{1}`` … (its inputs' values)
    and ``{0.shape}`` …; None where no gradient flows."""

    type: Literal["node"]
    tensor: int
    op: str
    grad_output: Values
    grad_inputs: list[Values]
    formulas: NotRequired[list[str | None]]


class AccumulateEvent(_Base):
    """A leaf's ``.grad`` changed by backward (``name``: the leaf's variable name, when it has one)."""

    type: Literal["accumulate"]
    tensor: int
    name: NotRequired[str | None]
    before: Values
    delta: Values
    after: Values


class GradResetEvent(_Base):
    """``x.grad = None`` (how="none") or ``x.grad.zero_()`` (how="zero")."""

    type: Literal["grad_reset"]
    tensor: int
    name: NotRequired[str | None]
    how: Literal["none", "zero"]


class StepEvent(_Base):
    """An optimizer (or an in-place update under no_grad) changed a parameter."""

    type: Literal["step"]
    tensor: int
    name: NotRequired[str | None]
    before: Values
    after: Values


class PrintEvent(_Base):
    """Text the program printed (the texts of all print events concatenate to stdout)."""

    type: Literal["print"]
    text: str


class WarningEvent(_Base):
    """PyTorch would have emitted a UserWarning here."""

    type: Literal["warning"]
    message: str


class ErrorEvent(_Base):
    """The program stopped with an error."""

    type: Literal["error"]
    error_type: str
    message: str


class IterationEvent(_Base):
    """The loop of line ``loop`` began its iteration ``index`` (0-based)."""

    type: Literal["iteration"]
    loop: int
    index: int


class FoldedEvent(_Base):
    """Iterations ``first``..``last`` of the loop of line ``loop`` were folded: their ``events`` graph events were
    left out (their ledger events went out); the loop's last iteration follows in full."""

    type: Literal["folded"]
    loop: int
    first: int
    last: int
    iterations: int
    events: int


class TruncatedEvent(_Base):
    """An event limit was reached: past the graph's limit no more graph events follow (ledger events still do);
    past the whole trace's limit nothing follows but a final ``error``. The program runs on; its stdout is whole."""

    type: Literal["truncated"]
    limit: int
    message: str


EVENT_TYPES: tuple[type, ...] = (
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
    IterationEvent,
    FoldedEvent,
    TruncatedEvent,
)
Event = Union[  # noqa: UP007 - one event type per line: the union reads as the contract's list
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
    IterationEvent,
    FoldedEvent,
    TruncatedEvent,
]


def type_name(cls: type) -> str:
    """The ``type`` value of an event class: ``type_name(TensorEvent) == "tensor"``."""
    return typing.get_args(typing.get_type_hints(cls)["type"])[0]  # type: ignore[no-any-return]


BY_TYPE: dict[str, type] = {type_name(cls): cls for cls in EVENT_TYPES}

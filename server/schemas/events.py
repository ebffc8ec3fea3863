"""The trace events in OpenAPI: the contract's one definition is ``engine/trace/events.py`` (TypedDicts, which
pydantic validates and documents as they are); this module only tells pydantic to pick the model by ``type``.

The tests validate every event the engine emits against ``Event``, so the contract can't drift; fields a model does
not name are allowed (the contract may grow).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from engine.trace.events import (
    AccumulateEvent,
    BackwardEvent,
    ErrorEvent,
    FoldedEvent,
    GradResetEvent,
    IterationEvent,
    NameEvent,
    NodeEvent,
    PrintEvent,
    StepEvent,
    TensorEvent,
    TruncatedEvent,
    WarningEvent,
)
from engine.trace.events import Event as _Event

Event = Annotated[_Event, Field(discriminator="type")]

__all__ = [
    "Event",
    "AccumulateEvent",
    "BackwardEvent",
    "ErrorEvent",
    "FoldedEvent",
    "GradResetEvent",
    "IterationEvent",
    "NameEvent",
    "NodeEvent",
    "PrintEvent",
    "StepEvent",
    "TensorEvent",
    "TruncatedEvent",
    "WarningEvent",
]

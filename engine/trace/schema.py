"""Writes the trace contract as JSON Schema for the frontend: ``python -m engine.trace.schema`` refreshes
``frontend/src/trace-schema.json`` from ``engine/trace/events.py`` (``tests/trace/test_schema_file.py`` fails when
the file is stale; the frontend's tests check that the reducer handles every event type in it).

pydantic is a server dependency; it is imported here only, when the schema is written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.trace.events import Event

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "frontend" / "src" / "trace-schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema of one trace event (a union of the event types, chosen by ``type``)."""
    from typing import Annotated  # (with pydantic: only when the schema is written)

    from pydantic import Field, TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(Annotated[Event, Field(discriminator="type")])
    document = adapter.json_schema()
    document["title"] = "gradtrace trace event"
    document["description"] = "Generated from engine/trace/events.py by python -m engine.trace.schema; do not edit."
    return document


def text() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    SCHEMA_FILE.write_text(text(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_FILE}\n")

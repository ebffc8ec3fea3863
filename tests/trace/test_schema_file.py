"""The frontend's copy of the trace contract (frontend/src/trace-schema.json) is the one the engine defines."""

from __future__ import annotations

from engine.trace import schema
from engine.trace.events import BY_TYPE


def test_the_frontend_schema_is_generated_from_the_events_module() -> None:
    assert schema.SCHEMA_FILE.read_text(encoding="utf-8") == schema.text(), (
        "frontend/src/trace-schema.json is stale: run python -m engine.trace.schema"
    )


def test_the_schema_names_every_event_type_and_its_required_fields() -> None:
    definitions = schema.schema()["$defs"]
    found = {
        d["properties"]["type"]["const"]: set(d.get("required", []))
        for d in definitions.values()
        if "type" in d.get("properties", {})
    }
    assert found == {kind: set(cls.__required_keys__) for kind, cls in BY_TYPE.items()}

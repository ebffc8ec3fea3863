"""Fuzzing: random programs of the subset and random bytes (hypothesis), and the OpenAPI schema (schemathesis).

Whatever comes in, the server never answers 5xx, answers in bounded time, and ``engine.run`` never raises: a
program ends normally or with an error that has a type, a message and a line inside the program, and its trace
obeys the published event models and encodes as strict JSON.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
import schemathesis

# Loaded now, before any run: CPython 3.11.7's AST converter miscounted its depth when pytest rewrote this lazily
# imported module late in `make test` (SystemError "AST constructor recursion depth mismatch").
import schemathesis.specs.openapi.schemas
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

import engine
from engine.sandbox import Limits
from engine.sandbox.interpreter import RECURSION_HEADROOM
from server.jsonio import dumps
from server.schemas.events import Event
from tests.fuzz_programs import programs

# The interpreter raises the recursion limit on its first run; do it before hypothesis watches the limit.
sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_HEADROOM))
EVENTS = TypeAdapter(list[Event])
FAST = Limits(max_steps=20_000, max_seconds=2.0)
QUICK = settings(deadline=None, suppress_health_check=list(HealthCheck))


def fuzz(examples: int) -> settings:
    """Hypothesis settings of these tests: ``examples`` cases, no per-example deadline (runs are bounded)."""
    return settings(QUICK, max_examples=examples)


# /api/grad refuses schema-valid bodies whose expression is not valid Python or whose inputs do not fit it: 422.
SCHEMATHESIS_CONFIG = """
[[operations]]
include-path = "/api/grad"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422"]
"""


def _check_result(code: str, result: engine.RunResult) -> None:
    EVENTS.validate_python(result.events)
    assert [e["seq"] for e in result.events] == list(range(len(result.events)))
    body = {"stdout": result.stdout, "error": result.error, "events": result.events}
    json.loads(dumps(body), parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    if result.error is None:
        assert not result.events or result.events[-1]["type"] != "error"
        return
    error = result.error
    assert isinstance(error["type"], str) and error["type"] and isinstance(error["message"], str)
    assert error["line"] is None or 1 <= error["line"] <= code.count("\n") + 1, (code, error)
    assert result.events[-1]["type"] == "error" and result.events[-1]["error_type"] == error["type"]


@fuzz(150)
@given(programs())
def test_random_programs_never_crash_the_interpreter(code: str) -> None:
    start = time.monotonic()
    result = engine.run(code, limits=FAST, seed=0)  # never raises
    assert time.monotonic() - start < 5
    _check_result(code, result)


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


def _post(http: httpx.Client, path: str, content: bytes) -> httpx.Response:
    start = time.monotonic()
    response = http.post(path, content=content, headers={"content-type": "application/json"})
    assert time.monotonic() - start < 10
    assert response.status_code < 500, (path, content[:200], response.text[:500])
    return response


@fuzz(25)
@given(programs())
def test_random_programs_through_the_server(http: httpx.Client, code: str) -> None:
    response = _post(http, "/api/run", json.dumps({"code": code}).encode())
    assert response.status_code == 200
    body = response.json()
    _check_result(code, engine.RunResult(body["stdout"], body["error"], body["events"]))


@fuzz(60)
@given(st.binary(max_size=300), st.sampled_from(["/api/run", "/api/run/stream", "/api/grad"]))
def test_random_bytes_never_get_a_5xx(http: httpx.Client, body: bytes, path: str) -> None:
    response = _post(http, path, body)
    assert response.status_code in (200, 400, 413, 422), response.text


@fuzz(60)
@given(st.text(max_size=200), st.sampled_from(["/api/run", "/api/run/stream"]))
def test_random_text_as_code_never_gets_a_5xx(http: httpx.Client, code: str, path: str) -> None:
    response = _post(http, path, json.dumps({"code": code}).encode())  # lone surrogates and NULs included
    assert response.status_code == 200
    if path == "/api/run":
        assert response.json()["error"] is None or response.json()["error"]["type"]
    else:
        assert "event: done" in response.text


@fuzz(40)
@given(
    st.text(max_size=60),
    st.dictionaries(
        st.text(max_size=8),
        st.recursive(st.floats(allow_nan=False, allow_infinity=False) | st.integers(), st.lists, max_leaves=6),
        max_size=3,
    ),
)
def test_random_grad_requests_never_get_a_5xx(http: httpx.Client, expression: str, inputs: dict) -> None:
    body = json.dumps({"expression": expression, "inputs": inputs})
    response = _post(http, "/api/grad", body.encode())
    assert response.status_code in (200, 413, 422), response.text


def test_schemathesis_finds_no_failure(live_server: str) -> None:
    config = schemathesis.Config.from_str(SCHEMATHESIS_CONFIG)
    schema = schemathesis.openapi.from_url(f"{live_server}/openapi.json", config=config)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.label for op in operations} >= {"POST /api/run", "POST /api/run/stream", "POST /api/grad"}
    for operation in operations:
        modes = [schemathesis.GenerationMode.POSITIVE]
        if operation.method.upper() == "POST":  # GET routes take no input to get wrong
            modes.append(schemathesis.GenerationMode.NEGATIVE)
        for mode in modes:

            @fuzz(40)
            @given(case=operation.as_strategy(generation_mode=mode))
            def check(case: schemathesis.Case) -> None:
                case.call_and_validate(timeout=30)

            check()

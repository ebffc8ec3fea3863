"""The HTTP contract of docs/HTTP.md against a real uvicorn server (tests/conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
import torch
from pydantic import TypeAdapter

from server.lessons import LESSONS
from server.schemas.events import Event
from tests.conftest import running_server
from tests.oracle import torch_stdout

EVENTS = TypeAdapter(list[Event])
LESSON = {lesson.id: lesson for lesson in LESSONS}


def run(client: httpx.Client, code: str) -> dict:
    response = client.post("/api/run", json={"code": code})
    assert response.status_code == 200, response.text
    body = response.json()
    EVENTS.validate_python(body["events"])  # every event obeys the published models
    return body


def test_healthz(client: httpx.Client) -> None:
    assert client.get("/healthz").status_code == 200


def test_examples_are_the_course_lessons(client: httpx.Client) -> None:
    examples = client.get("/api/examples").json()
    assert [e["id"] for e in examples] == [lesson.id for lesson in LESSONS]
    assert all(e["code"] == LESSON[e["id"]].code and e["title"] for e in examples)


@pytest.mark.parametrize("lesson_id", ["scalar_backward", "accumulation"])
def test_lessons_print_exactly_what_pytorch_prints(client: httpx.Client, lesson_id: str) -> None:
    code = LESSON[lesson_id].code
    body = run(client, code)
    assert body["error"] is None
    assert body["stdout"] == torch_stdout(code)
    assert "".join(e["text"] for e in body["events"] if e["type"] == "print") == body["stdout"]


def test_lesson_three_runs_and_prints_loss_in_pytorch_form(client: httpx.Client) -> None:
    code = LESSON["gradient_accumulation"].code + "print(loss)\n"
    body = run(client, code)
    assert body["error"] is None
    expected_form = re.compile(r"tensor\(-?\d+\.\d+, grad_fn=<DivBackward0>\)\n")
    assert expected_form.fullmatch(torch_stdout(code))  # the oracle agrees on the form …
    assert expected_form.fullmatch(body["stdout"]), body["stdout"]  # … and so do we
    steps = [e for e in body["events"] if e["type"] == "step"]
    assert len(steps) == 2 * 2  # two optimizer.step() calls, weight and bias each


def test_lesson_two_trace_shows_accumulation_and_reset(client: httpx.Client) -> None:
    events = run(client, LESSON["accumulation"].code)["events"]
    assert [e["seq"] for e in events] == list(range(len(events)))
    x_id = next(e["id"] for e in events if e["type"] == "tensor" and e["name"] == "x")
    acc = [e for e in events if e["type"] == "accumulate" and e["tensor"] == x_id]
    assert [e["after"] for e in acc] == [4.0, 16.0, 12.0]
    assert [e["before"] for e in acc] == [None, 4.0, None]
    resets = [e for e in events if e["type"] == "grad_reset" and e["tensor"] == x_id]
    assert [r["how"] for r in resets] == ["none"]
    assert acc[1]["seq"] < resets[0]["seq"] < acc[2]["seq"]
    assert resets[0]["line"] == 12


def test_grad_endpoint_matches_pytorch(client: httpx.Client) -> None:
    x_in, w_in = [1.0, 2.0, 3.0], [0.5, -1.0, 2.0]
    response = client.post(
        "/api/grad",
        json={"expression": "(x * w).sum() + (x ** 2).mean()", "inputs": {"x": x_in, "w": w_in}},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    x = torch.tensor(x_in, requires_grad=True)
    w = torch.tensor(w_in, requires_grad=True)
    value = (x * w).sum() + (x**2).mean()
    value.backward()
    assert body["value"] == pytest.approx(value.item(), abs=1e-5)
    assert body["grads"]["x"] == pytest.approx(x.grad.tolist(), abs=1e-5)
    assert body["grads"]["w"] == pytest.approx(w.grad.tolist(), abs=1e-5)
    assert any(e["type"] == "backward" for e in body["events"])


def test_grad_wrt_subset_and_unused_input(client: httpx.Client) -> None:
    body = client.post(
        "/api/grad", json={"expression": "(a * 3).sum()", "inputs": {"a": [1, 2], "b": 5}, "wrt": ["a"]}
    ).json()
    assert body["value"] == pytest.approx(9.0)
    assert body["grads"] == {"a": [3.0, 3.0]}


@pytest.mark.parametrize(
    "payload, fragment",
    [
        (
            {"expression": "x * 2", "inputs": {"x": [1.0, 2.0]}},
            "grad can be implicitly created only for scalar outputs",
        ),
        ({"expression": "x +", "inputs": {"x": 1.0}}, "not valid Python"),
        ({"expression": "x.sum()", "inputs": {"__x": 1.0}}, "not a usable input name"),
        ({"expression": "x.sum()", "inputs": {"x": "one"}}, "must be a number"),
        ({"expression": "x.sum()", "inputs": {"x": 1.0}, "wrt": ["y"]}, "unknown inputs"),
    ],
)
def test_grad_bad_requests_answer_422(client: httpx.Client, payload: dict, fragment: str) -> None:
    response = client.post("/api/grad", json=payload)
    assert response.status_code == 422
    assert fragment in response.text


@pytest.mark.parametrize(
    "content, headers",
    [
        (b"not json", {"content-type": "application/json"}),
        (b"{}", {"content-type": "application/json"}),
        (b'{"code": 3}', {"content-type": "application/json"}),
        (b'{"code": "print(1)", "extra": 1}', {"content-type": "application/json"}),
        (b"[1, 2]", {"content-type": "application/json"}),
    ],
)
def test_malformed_run_requests_answer_4xx_json(client: httpx.Client, content: bytes, headers: dict) -> None:
    response = client.post("/api/run", content=content, headers=headers)
    assert 400 <= response.status_code < 500
    assert "detail" in response.json()


def test_code_over_the_limit_answers_413(client: httpx.Client) -> None:
    response = client.post("/api/run", json={"code": "x = 1\n" * 20_000})  # 120 KB of code
    assert response.status_code == 413
    assert "limit" in response.json()["detail"]


def test_body_over_the_limit_is_refused_before_parsing(client: httpx.Client) -> None:
    response = client.post("/api/run", content=b"{" * 300_000, headers={"content-type": "application/json"})
    assert response.status_code == 413


@pytest.mark.parametrize(
    "code, fragment",
    [
        ("open('/etc/passwd')", "open"),
        ("__import__('os')", "__import__"),
        ("import torch\nx = torch.tensor(1.0)\nx.__class__", "__class__"),
    ],
)
def test_hostile_code_gets_a_clear_error(client: httpx.Client, code: str, fragment: str) -> None:
    body = run(client, code)
    assert body["error"] is not None
    assert fragment in body["error"]["message"]
    assert body["error"]["line"] == code.count("\n") + 1
    assert run(client, LESSON["scalar_backward"].code)["stdout"] == "tensor([2., 4., 6.])\n"  # still serving


def test_program_that_raises_keeps_output_up_to_the_error(client: httpx.Client) -> None:
    code = "import torch\nprint('before')\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n(x * 2).backward()\n"
    body = run(client, code)
    assert body["stdout"] == "before\n"
    assert body["error"] == {
        "type": "RuntimeError",
        "message": "grad can be implicitly created only for scalar outputs",
        "line": 4,
    }
    assert any(e["type"] == "tensor" for e in body["events"])


def _read_stream(client: httpx.Client, code: str) -> list[tuple[str, str, float]]:
    """The stream's messages as (event, data, arrival time); a first ("start", "", t) marks the request."""
    import time

    messages: list[tuple[str, str, float]] = [("start", "", time.monotonic())]
    with client.stream("POST", "/api/run/stream", json={"code": code}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        kind, data = "message", ""
        for line in response.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data = line.split(":", 1)[1].strip()
            elif line == "" and data:
                messages.append((kind, data, time.monotonic()))
                kind, data = "message", ""
    return messages


def test_stream_sends_the_same_events_then_done(client: httpx.Client) -> None:
    import json

    code = LESSON["accumulation"].code
    messages = _read_stream(client, code)[1:]
    assert [kind for kind, _, _ in messages[:-1]] == ["trace"] * (len(messages) - 1)
    assert messages[-1][0] == "done"
    batches = [json.loads(data) for _, data, _ in messages[:-1]]
    assert all(isinstance(batch, list) and batch for batch in batches)
    streamed = [event for batch in batches for event in batch]
    assert streamed == run(client, code)["events"]
    done = json.loads(messages[-1][1])
    assert done["stdout"] == torch_stdout(code) and done["error"] is None


@pytest.fixture(scope="module")
def patient_server() -> Iterator[str]:
    """A server whose budgets let a program compute silently for seconds (the defaults stop it sooner)."""
    env = {
        "GRADTRACE_MAX_STEPS": "10000000",
        "GRADTRACE_MAX_SECONDS": "120",
        "GRADTRACE_RUN_DEADLINE_SECONDS": "150",
        "GRADTRACE_RUN_CPU_SECONDS": "150",
    }
    with running_server(env) as url:
        yield url


def test_stream_delivers_events_while_a_long_loop_still_runs(patient_server: str) -> None:
    code = "print('started')\ntotal = 0\nfor i in range(1000000):\n    total += i\nprint(total)\n"
    with httpx.Client(base_url=patient_server, timeout=300) as client:
        messages = _read_stream(client, code)
    started = messages[0][2]
    first_print = next(t for kind, data, t in messages if kind == "trace" and "started" in data)
    done_at = messages[-1][2]
    assert messages[-1][0] == "done" and '"error":null' in messages[-1][1].replace(" ", "")
    # The silent loop is nearly all of the run: its first print must arrive in the first half, not with the end.
    assert first_print - started < (done_at - started) / 2


def test_openapi_publishes_the_event_models(client: httpx.Client) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ("TensorEvent", "BackwardEvent", "NodeEvent", "AccumulateEvent", "GradResetEvent", "StepEvent"):
        assert name in schemas

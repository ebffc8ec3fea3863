"""What one client's program can do to the answers others get, against a real server (server/answers.py,
server/gradient.py): only reproducible answers are kept (never one that chance or a limit decided, and /healthz
counts which), a seed makes a random program reproducible and keys its kept answer, kept answers go out as the
same bytes, and /api/grad answers only values it computed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
import torch

from tests.conftest import running_server

RANDOM = "import torch\nprint(torch.rand(3))\n"


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    env = {"GRADTRACE_WORKERS": "2", "GRADTRACE_MAX_STEPS": "200000", "GRADTRACE_MAX_EVENTS": "200"}
    with running_server(env) as url, httpx.Client(base_url=url, timeout=30) as client:
        yield client


def _counts(http: httpx.Client) -> dict[str, int]:
    body: dict[str, int] = http.get("/healthz").json()
    return body


def _stream_bytes(http: httpx.Client, body: dict[str, object]) -> bytes:
    with http.stream("POST", "/api/run/stream", json=body) as response:
        assert response.status_code == 200
        return b"".join(response.iter_bytes())


@pytest.mark.parametrize("stream", [False, True], ids=["run", "stream"])
def test_a_nondeterministic_program_is_never_kept(http: httpx.Client, stream: bool) -> None:
    code = RANDOM + f"# nondeterministic {stream}\n"
    before = _counts(http)
    if stream:
        answers = [_stream_bytes(http, {"code": code}) for _ in range(2)]
    else:
        answers = [http.post("/api/run", json={"code": code}).content for _ in range(2)]
    after = _counts(http)
    assert answers[0] != answers[1]
    assert after["not_kept_nondeterministic"] == before["not_kept_nondeterministic"] + 2
    assert after["kept"] == before["kept"] and after["kept_answers"] == before["kept_answers"]


LIMITED = [
    "while True:\n    pass",
    "n = 0\ntry:\n    while True:\n        n += 1\nfinally:\n    raise ValueError(n)",
    "def f():\n    f()\nf()",
    "n = 0\nwhile True:\n    try:\n        while True:\n            n += 1\n    except Exception:\n        print(n)",
]


@pytest.mark.parametrize("code", LIMITED)
def test_a_program_that_hits_a_limit_is_never_kept(http: httpx.Client, code: str) -> None:
    before = _counts(http)
    first = http.post("/api/run", json={"code": code}).json()
    again = http.post("/api/run", json={"code": code}).json()
    after = _counts(http)
    assert first["error"]["type"] in ("LimitExceeded", "RecursionError") and again["error"] == first["error"]
    assert after["not_kept_limit"] == before["not_kept_limit"] + 2
    assert after["kept"] == before["kept"] and after["answers_given_again"] == before["answers_given_again"]


def test_a_seed_makes_a_random_program_reproducible_and_keys_its_answer(http: httpx.Client) -> None:
    code = RANDOM + "# seeded\n"
    before = _counts(http)
    five = http.post("/api/run", json={"code": code, "seed": 5})
    five_again = http.post("/api/run", json={"code": code, "seed": 5})
    six = http.post("/api/run", json={"code": code, "seed": 6}).json()
    after = _counts(http)
    torch.manual_seed(5)
    assert five.json()["stdout"] == f"{torch.rand(3)}\n" and five.json()["seed"] == 5
    torch.manual_seed(6)
    assert six["stdout"] == f"{torch.rand(3)}\n" and six["seed"] == 6
    assert five_again.content == five.content
    assert after["kept"] == before["kept"] + 2 and after["answers_given_again"] == before["answers_given_again"] + 1
    streamed = _stream_bytes(http, {"code": code, "seed": 5}).decode()
    assert json.loads(streamed.rsplit("event: done\ndata: ", 1)[1]) == {
        "stdout": five.json()["stdout"],
        "error": None,
        "seed": 5,
    }


def test_a_kept_stream_goes_out_as_the_same_bytes(http: httpx.Client) -> None:
    body = {"code": "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\nprint(x.grad)\n"}
    first = _stream_bytes(http, body)
    before = _counts(http)
    again = _stream_bytes(http, body)
    assert again == first and b"event: trace" in first and first.endswith(b"\n\n")
    assert _counts(http)["answers_given_again"] == before["answers_given_again"] + 1
    batch = http.post("/api/run", json=body).json()  # the same kept answer, as /api/run's JSON
    events = [e for block in first.decode().split("event: trace\ndata: ")[1:] for e in json.loads(block.split("\n")[0])]
    assert batch["events"] == events and batch["stdout"] == "tensor([3., 3.])\n"


# -- /api/grad answers only what it computed ------------------------------------------------------------------------
def _grad(http: httpx.Client, expression: str, inputs: dict[str, object]) -> httpx.Response:
    return http.post("/api/grad", json={"expression": expression, "inputs": inputs})


def test_grad_refuses_an_expression_that_rebinds_print_or_its_inputs(http: httpx.Client) -> None:
    for expression in (
        "(print := len) and x.sum()",
        "[x.sum() for _ in [print := 1]][0]",
        "(x := x * 0).sum()",
        "(torch := 1) + x.sum()",
        "(result := x.sum())",
    ):
        response = _grad(http, expression, {"x": [1.0, 2.0]})
        assert response.status_code == 422, (expression, response.text)
        assert "may not assign to" in response.json()["detail"], expression


def test_grad_output_printed_by_the_expression_cannot_fake_the_answer(http: httpx.Client) -> None:
    for trick in ("print('9', end='')", "print('[7.0]\\n[8.0]\\n', end='')", "print('\\x1e[5.0]', end='')"):
        response = _grad(http, f"(x * 2).sum() + (({trick}) or 0)", {"x": [1.0, 2.0]})
        assert response.status_code == 200, (trick, response.text)
        assert response.json()["value"] == 6.0 and response.json()["grads"] == {"x": [2.0, 2.0]}, trick


def test_grad_with_a_trace_over_the_limit_still_answers_its_values(http: httpx.Client) -> None:
    response = _grad(http, "sum((x * 1).sum() for i in range(100))", {"x": [1.0, 2.0]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["value"] == 300.0 and body["grads"] == {"x": [100.0, 100.0]}
    types = [event["type"] for event in body["events"]]
    assert "truncated" in types and types.index("truncated") <= 200  # cut at the limit (a few closing events follow)


def test_grad_errors_are_422_never_500(http: httpx.Client) -> None:
    for expression, inputs in [
        ("x", {"x": [1.0, 2.0]}),
        ("x.sum() / undefined", {"x": [1.0]}),
        ("'text'", {}),
        ("None", {}),
        ("x.sum()", {"x": [[1.0], [2.0, 3.0]]}),
    ]:
        response = _grad(http, expression, inputs)
        assert response.status_code == 422 and "detail" in response.json(), (expression, response.status_code)

"""The escape and resource corpus (tests/hostile.py) and malformed requests against a real server: each answers
within 5 s with a clear error (or a 4xx for a malformed request), never a 5xx, and a normal run right after answers
correctly."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.hostile import CORPUS

LESSON_1 = (
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
)
JSON = {"content-type": "application/json"}


def _normal_run_answers(client: httpx.Client) -> None:
    body = client.post("/api/run", json={"code": LESSON_1}).json()
    assert body["stdout"] == "tensor([2., 4., 6.])\n" and body["error"] is None


@pytest.mark.parametrize(("code", "etype", "fragment"), CORPUS)
def test_hostile_program_gets_a_clear_error_then_a_normal_run_works(
    client: httpx.Client, code: str, etype: str, fragment: str
) -> None:
    start = time.monotonic()
    response = client.post("/api/run", json={"code": code})
    assert time.monotonic() - start < 5
    assert response.status_code == 200, response.text
    error = response.json()["error"]
    assert error["type"] == etype and fragment in error["message"], error
    _normal_run_answers(client)


MALFORMED = [
    ("not json", b"{not json", 422),
    ("deeply nested json", b'{"code": "1", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", 400),
    ("nested json under the parser's limit", b'{"code": ' + b"[" * 900 + b"]" * 900 + b"}", 422),
    ("invalid utf-8", b'{"code": "\xff\xfe"}', 400),
    ("a json array", b"[1, 2]", 422),
    ("null", b"null", 422),
    ("code not a string", b'{"code": 1}', 422),
    ("no code", b"{}", 422),
    ("an unknown field", b'{"code": "1", "x": 1}', 422),
    ("code over 64 KiB", json.dumps({"code": "#" * 70_000}).encode(), 413),
    ("body over 256 KiB", b"x" * 300_000, 413),
    ("a huge number", b'{"code": "1", "n": 1' + b"0" * 200_000 + b"}", 400),
]


@pytest.mark.parametrize(("name", "body", "status"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_requests_answer_4xx_with_a_json_body(
    client: httpx.Client, name: str, body: bytes, status: int
) -> None:
    for path in ("/api/run", "/api/run/stream", "/api/grad"):
        response = client.post(path, content=body, headers=JSON)
        assert 400 <= response.status_code < 500, (path, response.status_code)
        assert "detail" in response.json()
        if path == "/api/run":
            assert response.status_code == status
    _normal_run_answers(client)


GRAD_MALFORMED = [
    {"expression": "x + 1 # \udc00", "inputs": {"x": 1}},
    {"expression": "x\x00", "inputs": {"x": 1}},
    {"expression": "x.sum()", "inputs": {"x": json.loads("[" * 900 + "1" + "]" * 900)}},
    {"expression": "(" * 300 + "x" + ")" * 300, "inputs": {"x": 1}},
    {"expression": "__import__('os').system('id')", "inputs": {}},
    {"expression": "x", "inputs": {"x": "__import__('os')"}},
    {"expression": "x", "inputs": {"__x": 1}},
    {"expression": "x.sum()\nimport os", "inputs": {"x": 1}},
    {"expression": "x", "inputs": {"x": 1}, "wrt": ["y"]},
    {"expression": "x * 2", "inputs": {"x": [1.0] * 30_000}},
]


@pytest.mark.parametrize("body", GRAD_MALFORMED)
def test_grad_refuses_hostile_input_with_4xx(client: httpx.Client, body: dict) -> None:
    response = client.post("/api/grad", content=json.dumps(body).encode(), headers=JSON)
    assert 400 <= response.status_code < 500, response.text
    assert "detail" in response.json()


def test_lone_surrogates_and_non_finite_values_keep_the_json_valid(client: httpx.Client) -> None:
    code = (
        "import torch\nprint(chr(55296) + 'a')\nx = torch.tensor([float('nan'), float('inf'), -float('inf')])\nprint(x)"
    )
    response = client.post("/api/run", json={"code": code})
    body = json.loads(response.text)  # strict JSON: no NaN/Infinity literals
    assert response.status_code == 200 and body["error"] is None
    assert body["stdout"] == "\ud800a\ntensor([nan, inf, -inf])\n"
    assert [e["values"] for e in body["events"] if e["type"] == "tensor"] == [["nan", "inf", "-inf"]]
    in_code = client.post("/api/run", content=b'{"code": "x = 1\\ny = \'\\ud800\'"}', headers=JSON).json()
    assert in_code["error"]["type"] == "SyntaxError" and in_code["error"]["line"] == 2
    assert "lone surrogate" in in_code["error"]["message"]
    with client.stream("POST", "/api/run/stream", json={"code": "print(chr(56000))"}) as stream:
        text = "".join(stream.iter_text())
    assert "\\udac0" in text and "event: done" in text


def test_a_long_program_is_traced_up_to_the_event_limit_and_runs_on(client: httpx.Client) -> None:
    code = "import torch\nx = torch.ones(2, requires_grad=True)\nys = [x * 2 for i in range(12000)]\nprint(len(ys))"
    body = client.post("/api/run", json={"code": code}).json()
    assert body["error"] is None and body["stdout"] == "12000\n"
    assert len(body["events"]) == 10_002 and body["events"][-2]["type"] == "truncated"
    assert body["events"][-1]["type"] == "print"  # past the graph's limit, prints are still traced


def test_a_long_loop_is_folded_not_truncated(client: httpx.Client) -> None:
    code = "import torch\nx = torch.ones(2, requires_grad=True)\nfor i in range(20000):\n    y = x * 2\nprint(i)"
    body = client.post("/api/run", json={"code": code}).json()
    assert body["error"] is None and body["stdout"] == "19999\n"
    folded = [e for e in body["events"] if e["type"] == "folded"]
    assert [(e["first"], e["last"], e["iterations"]) for e in folded] == [(3, 19998, 19996)]
    assert len(body["events"]) < 30

"""Every malformed request body gets a 4xx with a small JSON body, on every POST route (server/bodies.py), against a
real server: NaN, Infinity and numbers out of range anywhere in the body, deep nesting, bodies that are not JSON,
and content types that are not JSON (415)."""

from __future__ import annotations

import json

import httpx
import pytest

POST_ROUTES = ("/api/run", "/api/run/stream", "/api/grad")
JSON = {"content-type": "application/json"}
VALID = {
    "/api/run": b'{"code": "print(1)"}',
    "/api/run/stream": b'{"code": "print(1)"}',
    "/api/grad": b'{"expression": "(x * 2).sum()", "inputs": {"x": [1, 2]}}',
}

NOT_STRICT = [
    ("NaN as the code", b'{"code": NaN}'),
    ("Infinity as the code", b'{"code": Infinity}'),
    ("-Infinity in an extra field", b'{"code": "1", "x": [1, {"y": -Infinity}]}'),
    ("a 5000-digit integer", b'{"code": "1", "n": 1' + b"0" * 5000 + b"}"),
    ("NaN in grad inputs", b'{"expression": "x", "inputs": {"x": [1, NaN]}}'),
    ("NaN deep in a big body", b'{"code": "' + b"#" * 10_000 + b'", "x": [' + b"1," * 2000 + b"NaN]}"),
]
OUT_OF_RANGE = [
    ("1e999999", b'{"code": 1e999999}'),
    ("-1e999999 nested", b'{"code": "1", "x": {"a": [[-1e999999]]}}'),
    ("a 25-digit integer", b'{"code": "1", "seed": 1234567890123456789012345}'),
    ("1e999 in grad inputs", b'{"expression": "x", "inputs": {"x": [1e999]}}'),
    ("1e999 deep in a big body", b'{"code": "' + b"#" * 10_000 + b'", "x": [' + b"1," * 2000 + b"1e999]}"),
]


@pytest.mark.parametrize(("name", "body"), NOT_STRICT, ids=[n for n, _ in NOT_STRICT])
def test_what_is_not_json_answers_400_on_every_route(client: httpx.Client, name: str, body: bytes) -> None:
    for path in POST_ROUTES:
        response = client.post(path, content=body, headers=JSON)
        assert response.status_code == 400, (path, response.status_code, response.text[:200])
        assert response.headers["content-type"] == "application/json"
        assert "not strict JSON" in response.json()["detail"] or "not usable JSON" in response.json()["detail"]


@pytest.mark.parametrize(("name", "body"), OUT_OF_RANGE, ids=[n for n, _ in OUT_OF_RANGE])
def test_numbers_out_of_range_answer_422_on_every_route(client: httpx.Client, name: str, body: bytes) -> None:
    for path in POST_ROUTES:
        response = client.post(path, content=body, headers=JSON)
        assert response.status_code == 422, (path, response.status_code, response.text[:200])
        assert "a number out of range" in response.json()["detail"]


WRONG_TYPES = [
    None,
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/xml",
    "text/json",
]


@pytest.mark.parametrize("content_type", WRONG_TYPES, ids=[str(t) for t in WRONG_TYPES])
def test_bodies_that_are_not_json_by_type_answer_415_on_every_route(
    client: httpx.Client, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    for path in POST_ROUTES:
        response = client.post(path, content=VALID[path], headers=headers)
        assert response.status_code == 415, (path, response.status_code)
        assert response.json() == {"detail": "the body must be JSON (content-type: application/json)"}


def test_json_types_with_parameters_or_a_suffix_are_accepted(client: httpx.Client) -> None:
    for content_type in ("application/json; charset=utf-8", "Application/JSON", "application/vnd.course+json"):
        response = client.post("/api/run", content=VALID["/api/run"], headers={"content-type": content_type})
        assert response.status_code == 200 and response.json()["stdout"] == "1\n"


NESTED = [
    ("100,000 deep in an extra field", b'{"code": "1", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    ("100,000 deep objects", b'{"code": "1", "x": ' + b'{"a":' * 40_000 + b"1" + b"}" * 40_000 + b"}"),
    ("100,000 deep grad inputs", b'{"expression": "x", "inputs": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"),
]


@pytest.mark.parametrize(("name", "body"), NESTED, ids=[n for n, _ in NESTED])
def test_deep_nesting_answers_4xx_with_json_on_every_route(client: httpx.Client, name: str, body: bytes) -> None:
    for path in POST_ROUTES:
        response = client.post(path, content=body, headers=JSON)
        assert 400 <= response.status_code < 500 and "detail" in response.json(), (path, response.status_code)


def test_a_refusal_never_echoes_the_input(client: httpx.Client) -> None:
    name = "k" * 100_000
    response = client.post("/api/run", content=json.dumps({"code": "1", name: 1}).encode(), headers=JSON)
    assert response.status_code == 422 and len(response.content) < 1000
    assert response.json()["detail"][0]["type"] == "extra_forbidden"


def test_seeds_outside_what_json_clients_read_exactly_are_refused(client: httpx.Client) -> None:
    for seed in (-1, 2**53 + 1, 2**64, "7", 1.5, True):
        response = client.post("/api/run", json={"code": "print(1)", "seed": seed})
        assert response.status_code == 422, seed
    assert client.post("/api/run", json={"code": "print(1)", "seed": 2**53}).status_code == 200
    assert client.post("/api/run", json={"code": "print(1)", "seed": 7.0}).json()["seed"] == 7  # JSON's integer


def test_after_all_that_a_normal_run_answers(client: httpx.Client) -> None:
    body = client.post("/api/run", json={"code": "import torch\nprint(torch.tensor([1.0, 2.0]) * 2)"}).json()
    assert body["stdout"] == "tensor([2., 4.])\n" and body["error"] is None

"""The three course lessons run verbatim through ``engine.run``: PyTorch's exact stdout and the expected events."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import engine
from server.lessons import LESSONS
from tests.oracle import torch_stdout

BY_ID = {lesson.id: lesson for lesson in LESSONS}


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


@pytest.mark.parametrize("lesson_id", sorted(BY_ID))
def test_lesson_stdout_matches_pytorch(lesson_id: str) -> None:
    code = BY_ID[lesson_id].code
    result = engine.run(code, seed=1234)
    assert result.error is None
    assert result.stdout == torch_stdout(code, seed=1234)
    assert result.seed == 1234
    assert [e["seq"] for e in result.events] == list(range(len(result.events)))
    assert "".join(e["text"] for e in _of(result.events, "print")) == result.stdout
    json.dumps(result.events, allow_nan=False)  # JSON-ready


def test_scalar_backward_events() -> None:
    result = engine.run(BY_ID["scalar_backward"].code)
    ev = result.events
    tensors = _of(ev, "tensor")
    x, square, y = tensors[0], tensors[1], tensors[2]
    assert (x["name"], x["op"], x["inputs"], x["values"], x["line"]) == ("x", None, [], [1.0, 2.0, 3.0], 3)
    assert x["requires_grad"] and x["is_leaf"] and x["dtype"] == "float32" and x["shape"] == [3]
    assert (square["name"], square["op"], square["inputs"], square["line"]) == (None, "PowBackward0", [x["id"]], 4)
    assert (y["name"], y["op"], y["inputs"], y["values"], y["shape"]) == ("y", "SumBackward0", [square["id"]], 14.0, [])
    (backward,) = _of(ev, "backward")
    assert (backward["root"], backward["gradient"], backward["retain_graph"], backward["line"]) == (
        y["id"],
        1.0,
        False,
        5,
    )
    nodes = _of(ev, "node")
    assert [(n["op"], n["tensor"]) for n in nodes] == [("SumBackward0", y["id"]), ("PowBackward0", square["id"])]
    assert nodes[0]["grad_output"] == 1.0 and nodes[0]["grad_inputs"] == [[1.0, 1.0, 1.0]]
    assert nodes[1]["grad_inputs"] == [[2.0, 4.0, 6.0]]
    (acc,) = _of(ev, "accumulate")
    assert (acc["tensor"], acc["before"], acc["delta"], acc["after"]) == (
        x["id"],
        None,
        [2.0, 4.0, 6.0],
        [2.0, 4.0, 6.0],
    )
    (printed,) = _of(ev, "print")
    assert (printed["text"], printed["line"]) == ("tensor([2., 4., 6.])\n", 6)
    assert backward["seq"] < nodes[0]["seq"] < nodes[1]["seq"] < acc["seq"] < printed["seq"]


def test_accumulation_events() -> None:
    result = engine.run(BY_ID["accumulation"].code)
    ev = result.events
    x = _of(ev, "tensor")[0]
    assert x["name"] == "x"
    accs = [e for e in _of(ev, "accumulate") if e["tensor"] == x["id"]]
    assert [a["after"] for a in accs] == [4.0, 16.0, 12.0]
    assert [a["before"] for a in accs] == [None, 4.0, None]
    assert [a["delta"] for a in accs] == [4.0, 12.0, 12.0]
    assert [a["line"] for a in accs] == [5, 8, 13]
    (reset,) = _of(ev, "grad_reset")
    assert (reset["tensor"], reset["how"], reset["line"]) == (x["id"], "none", 12)
    assert accs[1]["seq"] < reset["seq"] < accs[2]["seq"]
    assert [p["text"] for p in _of(ev, "print")] == ["tensor(4.)\n", "tensor(16.)\n", "tensor(12.)\n"]


def test_gradient_accumulation_prints_the_scaled_loss() -> None:
    code = BY_ID["gradient_accumulation"].code + "\nprint(loss)\n"
    result = engine.run(code, seed=7)
    assert result.error is None
    assert re.fullmatch(r"tensor\(\d+\.\d{4}, grad_fn=<DivBackward0>\)\n", result.stdout)
    assert result.stdout == torch_stdout(code, seed=7)


def test_gradient_accumulation_events() -> None:
    result = engine.run(BY_ID["gradient_accumulation"].code)
    ev = result.events
    named = {e["name"]: e for e in _of(ev, "tensor") if e["name"]}
    assert {"model.weight", "model.bias", "x", "y", "loss"} <= set(named)
    assert named["model.weight"]["shape"] == [2, 10] and named["model.weight"]["line"] == 4
    assert named["loss"]["op"] == "DivBackward0" and named["loss"]["line"] == 13
    assert len(_of(ev, "backward")) == 8
    steps = _of(ev, "step")
    assert {s["line"] for s in steps} == {17}
    assert {s["tensor"] for s in steps} == {named["model.weight"]["id"], named["model.bias"]["id"]}
    assert len(steps) == 4  # two optimizer steps, two parameters each
    assert result.seed >= 0


def test_runs_are_isolated() -> None:
    first = engine.run("import torch\ntorch.manual_seed(3)\ntorch.tensor = None\nprint(torch.randn(2))")
    second = engine.run("import torch\ntorch.manual_seed(3)\nprint(torch.randn(2))")
    assert first.error is not None and first.error["type"] == "NotSupported"
    assert second.error is None and second.stdout == torch_stdout("import torch\nprint(torch.randn(2))", seed=3)


def test_seed_replays_a_run() -> None:
    code = "import torch\nprint(torch.rand(3))"
    first = engine.run(code)
    again = engine.run(code, seed=first.seed)
    assert first.stdout == again.stdout == torch_stdout(code, seed=first.seed)


def test_reported_seed() -> None:
    assert engine.run("import torch\ntorch.manual_seed(42)\nx = torch.rand(2)").seed == 42
    drawn_first = engine.run("import torch\na = torch.rand(2)\ntorch.manual_seed(42)\nprint(a)", seed=7)
    assert drawn_first.seed == 7
    assert engine.run("import torch\na = torch.rand(2)\ntorch.manual_seed(42)\nprint(a)", seed=7).stdout == (
        drawn_first.stdout
    )
    assert engine.run("print(1)", seed=5).seed == 5

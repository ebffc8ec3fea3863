"""Every event the recorder produces carries the contract's fields (DESIGN.md, "Contract: trace events")."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from server.lessons import LESSONS

REQUIRED = {
    "tensor": {"id", "name", "op", "inputs", "shape", "dtype", "values", "requires_grad", "is_leaf"},
    "name": {"tensor", "name"},
    "backward": {"root", "gradient", "retain_graph"},
    "node": {"tensor", "op", "grad_output", "grad_inputs", "formulas"},
    "accumulate": {"tensor", "before", "delta", "after"},
    "grad_reset": {"tensor", "how"},
    "step": {"tensor", "before", "after"},
    "print": {"text"},
    "warning": {"message"},
    "error": {"error_type", "message"},
}

PROGRAMS = [lesson.code for lesson in LESSONS] + [
    "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 3\nz = y.sum()\nz.backward()\n"
    "print(y.grad)\nx.grad.zero_()\nw = x\nq = torch.zeros(2000, requires_grad=True)\n(q * 2).sum().backward()\n"
    "x.foo()",
]


def _check(events: list[dict[str, Any]]) -> None:
    ids: set[int] = set()
    for seq, event in enumerate(events):
        assert event["seq"] == seq
        assert event["line"] is None or (isinstance(event["line"], int) and event["line"] >= 1)
        assert REQUIRED[event["type"]] <= set(event), event
        if event["type"] == "tensor":
            assert event["id"] not in ids and set(event["inputs"]) <= ids  # inputs came first
            ids.add(event["id"])
            assert event["is_leaf"] == (event["op"] is None)
        elif event["type"] in ("node", "accumulate", "grad_reset", "step", "name"):
            assert event["tensor"] in ids
        elif event["type"] == "backward":
            assert event["root"] in ids
        if event["type"] == "node":
            producer = next(e for e in events if e["type"] == "tensor" and e["id"] == event["tensor"])
            assert len(event["grad_inputs"]) == len(producer["inputs"])
            assert len(event["formulas"]) == len(event["grad_inputs"])


@pytest.mark.parametrize("code", PROGRAMS)
def test_events_follow_the_contract(code: str) -> None:
    result = engine.run(code, seed=3)
    _check(result.events)
    kinds = {e["type"] for e in result.events}
    assert "tensor" in kinds


def test_warning_event_for_non_leaf_grad() -> None:
    result = engine.run("import torch\nx = torch.ones(1, requires_grad=True)\ny = x * 2\nprint(y.grad)")
    warnings = [e for e in result.events if e["type"] == "warning"]
    assert len(warnings) == 1 and warnings[0]["line"] == 4 and ".grad attribute of a Tensor that is not a leaf" in (
        warnings[0]["message"]
    )
    assert result.stdout == "None\n"


def test_node_events_carry_the_chain_rule_templates() -> None:
    code = ("import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = (x ** 2).sum()\ny.backward()\n"
            "w = torch.ones(3, 2, requires_grad=True)\n(x.unsqueeze(0).mm(w) * 2).sum().backward()\n")
    nodes = {e["op"]: e["formulas"] for e in engine.run(code).events if e["type"] == "node"}
    assert nodes["PowBackward0"] == ["{grad} · 2·{0}"]
    assert nodes["SumBackward0"] == ["{grad} expanded to {0.shape}"]
    assert nodes["MulBackward0"] == ["{grad} · 2"]  # the number 2 gets no gradient: its edge is not in the event
    assert nodes["MmBackward0"] == ["{grad} @ {1}ᵀ", "{0}ᵀ @ {grad}"]


def test_templates_number_the_inputs_as_the_trace_does() -> None:
    # c is a constant tensor: next_functions has None for it, the trace's inputs only x; {1} becomes {0}
    code = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\nc = torch.tensor([3.0, 4.0])\n"
            "(c * x).sum().backward()\n")
    events = engine.run(code).events
    mul = next(e for e in events if e["type"] == "node" and e["op"] == "MulBackward0")
    assert mul["formulas"] == ["{grad} · (a constant)"]
    made = next(e for e in events if e["type"] == "tensor" and e["op"] == "MulBackward0")
    assert len(made["inputs"]) == 1

"""Every event the recorder produces carries the contract's fields (engine/trace/events.py, docs/TRACE.md)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.trace.events import BY_TYPE
from server.lessons import LESSONS

# The contract's one definition (engine/trace/events.py): the fields each type must carry.
REQUIRED = {kind: set(cls.__required_keys__) - {"seq", "type"} for kind, cls in BY_TYPE.items()}

PROGRAMS = [lesson.code for lesson in LESSONS] + [
    "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 3\nz = y.sum()\nz.backward()\n"
    "print(y.grad)\nx.grad.zero_()\nw = x\nq = torch.zeros(2000, requires_grad=True)\n(q * 2).sum().backward()\n"
    "x.foo()",
]


def _check(events: list[dict[str, Any]]) -> None:
    ids: set[int] = set()
    left_out = False  # after a `folded` or `truncated` event, events may refer to tensors whose events were left out
    for seq, event in enumerate(events):
        assert event["seq"] == seq
        assert event["line"] is None or (isinstance(event["line"], int) and event["line"] >= 1)
        assert REQUIRED[event["type"]] <= set(event), event
        if event["type"] == "tensor":
            assert event["id"] not in ids and set(event["inputs"]) <= ids  # inputs came first
            ids.add(event["id"])
            assert event["is_leaf"] == (event["op"] is None)
        elif event["type"] in ("node", "name"):
            assert event["tensor"] in ids  # graph events only of tensors on the graph
        elif event["type"] in ("accumulate", "grad_reset", "step"):
            assert event["tensor"] in ids or ((left_out or event.get("folded")) and "name" in event)
        elif event["type"] == "backward":
            assert event["root"] in ids or left_out or event.get("folded")
        elif event["type"] in ("folded", "truncated"):
            left_out = True
        if event["type"] == "node":
            producer = next(e for e in events if e["type"] == "tensor" and e["id"] == event["tensor"])
            assert len(event["grad_inputs"]) == len(producer["inputs"]) == len(event["formulas"])


@pytest.mark.parametrize("code", PROGRAMS)
def test_events_follow_the_contract(code: str) -> None:
    result = engine.run(code, seed=3)
    _check(result.events)
    kinds = {e["type"] for e in result.events}
    assert "tensor" in kinds


def test_warning_event_for_non_leaf_grad() -> None:
    result = engine.run("import torch\nx = torch.ones(1, requires_grad=True)\ny = x * 2\nprint(y.grad)")
    warnings = [e for e in result.events if e["type"] == "warning"]
    assert (
        len(warnings) == 1
        and warnings[0]["line"] == 4
        and ".grad attribute of a Tensor that is not a leaf" in (warnings[0]["message"])
    )
    assert result.stdout == "None\n"


def test_tensors_made_inside_a_module_call_name_their_module() -> None:
    code = (
        "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.body = nn.Sequential(nn.Linear(2, 3), nn.ReLU())\n"
        "    def forward(self, x):\n        return self.body(x).sum()\nnet = Net()\nloss = net(torch.ones(4, 2))\n"
        "y = nn.Linear(2, 1)(torch.ones(1, 2))"
    )
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    made = [
        (e["op"], e.get("module"), e.get("module_type")) for e in result.events if e["type"] == "tensor" and e["op"]
    ]
    assert made == [
        ("TBackward0", "net.body.0", "Linear"),
        ("AddmmBackward0", "net.body.0", "Linear"),
        ("ReluBackward0", "net.body.1", "ReLU"),
        ("SumBackward0", "net", "Net"),
        ("TBackward0", "Linear", "Linear"),
        ("AddmmBackward0", "Linear", "Linear"),  # a module with no name
    ]
    leaves = [e for e in result.events if e["type"] == "tensor" and not e["op"]]
    assert all("module" not in e for e in leaves if e["name"] and e["name"].startswith("net."))


def test_node_events_carry_the_chain_rule_templates() -> None:
    code = (
        "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = (x ** 2).sum()\ny.backward()\n"
        "w = torch.ones(3, 2, requires_grad=True)\n(x.unsqueeze(0).mm(w) * 2).sum().backward()\n"
    )
    nodes = {e["op"]: e["formulas"] for e in engine.run(code).events if e["type"] == "node"}
    assert nodes["PowBackward0"] == ["{grad} · 2·{0}"]
    assert nodes["SumBackward0"] == ["{grad} expanded to {0.shape}"]
    assert nodes["MulBackward0"] == ["{grad} · 2"]  # the number 2 gets no gradient: its edge is not in the event
    assert nodes["MmBackward0"] == ["{grad} @ {1}ᵀ", "{0}ᵀ @ {grad}"]


def test_templates_number_the_inputs_as_the_trace_does() -> None:
    # c is a constant tensor: next_functions has None for it, the trace's inputs only x; x's {1}·… becomes {0}
    code = (
        "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\nc = torch.tensor([3.0, 4.0])\n"
        "(c * x).sum().backward()\n(x * c).sum().backward()\nw = torch.ones(2, 2, requires_grad=True)\n"
        "(c.unsqueeze(0) @ w).sum().backward()\n"
    )
    events = engine.run(code).events
    muls = [e["formulas"] for e in events if e["type"] == "node" and e["op"] == "MulBackward0"]
    assert muls == [["{grad} · (a constant)"], ["{grad} · (a constant)"]]
    mm = next(e for e in events if e["type"] == "node" and e["op"] == "MmBackward0")
    assert mm["formulas"] == ["(a constant)ᵀ @ {grad}"]  # grad_w = cᵀ @ grad: c is not among the inputs
    made = next(e for e in events if e["type"] == "tensor" and e["op"] == "MmBackward0")
    assert len(made["inputs"]) == 1

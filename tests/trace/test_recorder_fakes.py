"""The recorder against small fakes of the engine's Tensor and Node (the engine is tested on its own)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.autograd import AccumulateGrad
from engine.trace import Recorder


class Node:
    __module__ = "engine.fake"

    def __init__(self, name: str, next_functions: tuple[tuple[Any, int], ...] = ()) -> None:
        self._name = name
        self.next_functions = next_functions
        self._trace_id = None

    def name(self) -> str:
        return self._name


class Tensor:
    __module__ = "engine.fake"

    def __init__(self, data: Any, grad_fn: Node | None = None, requires_grad: bool = False) -> None:
        self._data = np.asarray(data, dtype=np.float32)
        self._grad_fn = grad_fn
        self._requires_grad = requires_grad
        self._trace_id = None

    @property
    def grad_fn(self) -> Node | None:
        return self._grad_fn


def test_statement_events_are_named_at_statement_end() -> None:
    rec = Recorder()
    rec.line = 3
    x = Tensor([1.0, 2.0], requires_grad=True)
    rec.tensor_created(x)
    rec.bind("x", x)
    rec.flush()
    rec.line = 4
    sq = Tensor([1.0, 4.0], Node("PowBackward0", ((AccumulateGrad(x), 0),)), True)
    rec.tensor_created(sq)
    y = Tensor(5.0, Node("SumBackward0", ((sq.grad_fn, 0),)), True)
    rec.tensor_created(y)
    rec.bind("y", y)
    rec.flush()
    ev = rec.events
    assert [e["seq"] for e in ev] == [0, 1, 2]
    assert ev[0] == {
        "seq": 0,
        "type": "tensor",
        "line": 3,
        "id": 0,
        "name": "x",
        "op": None,
        "inputs": [],
        "shape": [2],
        "dtype": "float32",
        "values": [1.0, 2.0],
        "requires_grad": True,
        "is_leaf": True,
    }
    assert (ev[1]["name"], ev[1]["op"], ev[1]["inputs"], ev[1]["line"]) == (None, "PowBackward0", [0], 4)
    assert (ev[2]["name"], ev[2]["op"], ev[2]["inputs"], ev[2]["values"]) == ("y", "SumBackward0", [1], 5.0)


def test_other_events_flush_pending_tensors_first_and_late_names() -> None:
    got: list[dict[str, Any]] = []
    rec = Recorder(on_event=got.append)
    x = Tensor(2.0, requires_grad=True)
    rec.tensor_created(x)
    rec.print("hi\n")
    rec.bind("z", x)
    rec.bind("w", x)  # already named: no second name event
    assert [e["type"] for e in got] == ["tensor", "print", "name"]
    assert got[2] == {"seq": 2, "type": "name", "line": None, "tensor": 0, "name": "z"}
    assert got == rec.events


def test_backward_events() -> None:
    rec = Recorder()
    x = Tensor(2.0, requires_grad=True)
    rec.tensor_created(x)
    node = Node("PowBackward0", ((AccumulateGrad(x), 0),))
    y = Tensor(4.0, node, True)
    rec.tensor_created(y)
    rec.backward_started(y, np.array(1.0, dtype=np.float32), None)
    rec.node_ran(node, (np.array(1.0),), (np.array(4.0),))
    rec.grad_accumulated(x, None, np.array(4.0), np.array(4.0))
    rec.grad_reset(x, "none")
    rec.param_stepped(x, np.array(2.0), np.array(1.5))
    rec.warning("careful")
    rec.error("RuntimeError", "boom", 7)
    kinds = {e["type"]: e for e in rec.events}
    assert kinds["backward"] == {
        "seq": 2,
        "type": "backward",
        "line": None,
        "root": 1,
        "gradient": 1.0,
        "retain_graph": False,
        "values": 4.0,
    }  # values: the root's own (the loss)
    assert (
        kinds["node"]["tensor"] == 1 and kinds["node"]["grad_output"] == 1.0 and kinds["node"]["grad_inputs"] == [4.0]
    )
    assert kinds["accumulate"]["before"] is None and kinds["accumulate"]["after"] == 4.0
    assert kinds["grad_reset"]["how"] == "none"
    assert kinds["step"]["before"] == 2.0 and kinds["step"]["after"] == 1.5
    assert kinds["warning"]["message"] == "careful"
    assert kinds["error"] == {"seq": 8, "type": "error", "line": 7, "error_type": "RuntimeError", "message": "boom"}


def test_grad_inputs_align_with_inputs() -> None:
    rec = Recorder()
    w = Tensor([1.0], requires_grad=True)
    rec.tensor_created(w)
    node = Node("AddmmBackward0", ((AccumulateGrad(w), 0), (None, 0)))
    out = Tensor([2.0], node, True)
    rec.tensor_created(out)
    rec.node_ran(node, (np.array([1.0]),), (np.array([3.0]), None))
    tensor_event = rec.events[1]
    node_event = rec.events[2]
    assert tensor_event["inputs"] == [0]
    assert node_event["grad_inputs"] == [[3.0]]


def test_lines_of_loop_headers() -> None:
    import engine

    code = "import torch\nrows = torch.ones(2, 3)\nfor r in rows:\n    y = r * 2\n"
    events = [e for e in engine.run(code).events if e["type"] == "tensor"][1:]
    assert {e["line"] for e in events if e["op"] is None and e["shape"] == [3] and e["name"] != "y"} == {3}
    assert [e["line"] for e in events if e["name"] == "y"] == [4, 4]


def test_in_place_result_keeps_the_variable_name() -> None:
    import engine

    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.add_(1)\n"
    tensors = [e for e in engine.run(code).events if e["type"] == "tensor"]
    assert [(e["id"], e["name"], e["op"], e["inputs"]) for e in tensors] == [
        (0, "x", None, []),
        (1, "y", "MulBackward0", [0]),
        (2, "y", "AddBackward0", [1]),
    ]


def test_values_budget_switches_to_summaries() -> None:
    rec = Recorder(max_values=500)
    for _ in range(3):
        rec.tensor_created(Tensor(np.zeros(300)))
    rec.flush()
    kinds = [isinstance(e["values"], dict) for e in rec.events]
    assert kinds == [False, False, True]

"""``engine.run`` end to end on torch code: refusals, limits and errors keep stdout, events and the line."""

from __future__ import annotations

import time

import pytest

import engine
from engine.sandbox import Limits
from tests.oracle import torch_stdout


def test_huge_tensor_is_refused_before_allocation() -> None:
    result = engine.run("import torch\nprint('a')\nx = torch.zeros(10**6, 10**6)")
    assert result.stdout == "a\n"
    assert result.error is not None
    assert result.error["type"] == "LimitExceeded" and result.error["line"] == 3
    assert "4,194,304 elements per tensor" in result.error["message"]
    last = result.events[-1]
    assert last["type"] == "error" and last["error_type"] == "LimitExceeded" and last["line"] == 3


def test_engine_errors_keep_pytorch_type_and_message() -> None:
    code = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n\ny.backward()"
    result = engine.run(code)
    assert result.error == {
        "type": "RuntimeError",
        "message": "grad can be implicitly created only for scalar outputs",
        "line": 5,
    }


def test_underscore_attributes_are_refused_before_the_run() -> None:
    result = engine.run("import torch\nx = torch.ones(2)\nprint(x.shape)\ny = x.__class__")
    assert result.stdout == ""  # checked when the code is parsed, like a SyntaxError
    assert result.error == {"type": "NotSupported", "message": "attribute '__class__' is not accessible", "line": 4}


def test_engine_objects_expose_public_attributes_only() -> None:
    result = engine.run("import torch\nx = torch.ones(2)\nprint(x.shape, x.dtype, x.shape[0])\nf = x.sum\nf.name")
    assert result.stdout == "torch.Size([2]) torch.float32 2\n"
    assert result.error == {
        "type": "NotSupported",
        "message": "attribute 'name' of a method value is not accessible",
        "line": 5,
    }


def test_namespace_attributes_cannot_be_assigned() -> None:
    result = engine.run("import torch\ntorch.tensor = print")
    assert result.error is not None and result.error["type"] == "NotSupported" and result.error["line"] == 2


def test_infinite_loop_via_run() -> None:
    start = time.monotonic()
    result = engine.run("import torch\nx = torch.ones(1)\nwhile True:\n    pass")
    assert time.monotonic() - start < 3
    assert result.error is not None and result.error["type"] == "LimitExceeded" and result.error["line"] in (3, 4)


def test_on_event_streams_every_event_in_order() -> None:
    seen: list[dict] = []
    result = engine.run(
        "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()", on_event=seen.append
    )
    assert seen == result.events and len(seen) >= 5


def test_time_limit_is_configurable() -> None:
    result = engine.run("while True:\n    pass", limits=Limits(max_steps=10**9, max_seconds=0.1))
    assert result.error is not None and "time limit" in result.error["message"]


SNIPPETS = [
    "import torch\nx = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\ny = (x @ x).mean()\ny.backward()\n"
    "print(y)\nprint(x.grad)",
    "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x ** 2 + 2 * x + 1\ny.backward()\n"
    "print(y, x.grad, y.grad_fn.name(), x.is_leaf, y.is_leaf, y.requires_grad)",
    "import torch\nx = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    z = x * 2\n"
    "print(z.requires_grad, z)\nprint(torch.is_grad_enabled())",
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = x * 2\n"
    "y.backward(torch.tensor([1.0, 0.1, 0.01]))\nprint(x.grad)",
    "import torch\nimport math\nx = torch.linspace(0, math.pi, 5, requires_grad=True)\ny = torch.sin(x).sum()\n"
    "y.backward()\nprint(x.grad)\nprint(f'{y.item():.4f}')",
    "import torch\na = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0, requires_grad=True)\n"
    "c = a * b\nd = c + a\nd.backward()\nprint(a.grad, b.grad)\nfor name, g in [('a', a.grad), ('b', b.grad)]:\n"
    "    print(name, g.item())",
    "import torch\nx = torch.tensor(1.0, requires_grad=True)\nfor i in range(3):\n    y = x * (i + 1)\n"
    "    y.backward()\n    print(i, x.grad)\nx.grad.zero_()\nprint(x.grad)",
    "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x.sum()\ny.backward(retain_graph=True)\n"
    "y.backward()\nprint(x.grad)",
    "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x ** 3\n(g,) = torch.autograd.grad(y, x)\nprint(g)",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_snippets_print_like_pytorch(code: str) -> None:
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=0)


def test_event_limit_truncates_the_graph_and_the_run_goes_on() -> None:
    # A comprehension is one statement, not a loop the trace folds: 100 tensors, past the graph's 50 events.
    code = "import torch\nx = torch.ones(2, requires_grad=True)\nys = [x * 2 for i in range(100)]\nprint(ys[-1])"
    result = engine.run(code, limits=Limits(max_events=50))
    assert result.error is None
    assert result.stdout == "tensor([2., 2.], grad_fn=<MulBackward0>)\n"  # the output is complete
    assert [e["seq"] for e in result.events] == list(range(len(result.events)))
    cut = next(i for i, e in enumerate(result.events) if e["type"] == "truncated")
    assert cut == 50 and result.events[cut]["limit"] == 50 and result.events[cut]["line"] == 3
    assert "event limit" in result.events[cut]["message"]
    assert [e["type"] for e in result.events[cut + 1 :]] == ["print"]  # ledger events still go out


def test_past_the_graph_limit_the_ledger_is_still_traced() -> None:
    code = (
        "import torch\nw = torch.ones(2, requires_grad=True)\nys = [w * 2 for i in range(100)]\n"
        "for i in range(3):\n    (w * 3).sum().backward()\nprint(w.grad)\nw.grad = None"
    )
    result = engine.run(code, limits=Limits(max_events=50))
    after = [e for e in result.events if e["seq"] > next(e["seq"] for e in result.events if e["type"] == "truncated")]
    kinds = [e["type"] for e in after]
    assert kinds == ["backward", "accumulate"] * 3 + ["print", "grad_reset"], kinds
    assert [e["after"] for e in after if e["type"] == "accumulate"] == [[3.0, 3.0], [6.0, 6.0], [9.0, 9.0]]
    assert all(e["name"] == "w" for e in after if e["type"] in ("accumulate", "grad_reset"))


def test_an_error_after_truncation_still_ends_the_trace() -> None:
    code = "import torch\nx = torch.ones(2)\nys = [x * 2 for i in range(100)]\nz = 1 / 0"
    result = engine.run(code, limits=Limits(max_events=50))
    assert result.error == {"type": "ZeroDivisionError", "message": "division by zero", "line": 4}
    assert [e["type"] for e in result.events[-2:]] == ["truncated", "error"]
    assert result.events[-1]["seq"] == 51


def test_a_long_loop_is_folded_and_the_backward_after_it_is_traced() -> None:
    code = (
        "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x\nfor i in range(5000):\n"
        "    y = y * 1.0001\ny.sum().backward()\nprint(x.grad)"
    )
    result = engine.run(code)
    assert result.error is None and result.stdout.startswith("tensor([1.6488, 1.6488, 1.6488])")
    kinds = [e["type"] for e in result.events]
    assert "truncated" not in kinds and len(kinds) < 100
    folded = next(e for e in result.events if e["type"] == "folded")
    assert (folded["loop"], folded["first"], folded["last"], folded["iterations"]) == (4, 3, 4998, 4996)
    assert folded["events"] == 4996  # each folded iteration: its tensor (named y in its own event)
    iterations = [e["index"] for e in result.events if e["type"] == "iteration"]
    assert iterations == [0, 1, 2, 4999]  # the first three and the last, in full
    tensors = {e["id"] for e in result.events if e["type"] == "tensor"}
    nodes = [e for e in result.events if e["type"] == "node"]
    assert nodes and all(e["tensor"] in tensors for e in nodes)  # the backward pass over the graph shown
    assert [e["op"] for e in nodes] == ["SumBackward0", "MulBackward0", "MulBackward0", "MulBackward0", "MulBackward0"]
    accumulate = next(e for e in result.events if e["type"] == "accumulate")
    assert accumulate["name"] == "x" and accumulate["tensor"] == 0


def test_ledger_events_of_folded_iterations_go_out_marked() -> None:
    code = (
        "import torch\nw = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "for i in range(10):\n    opt.zero_grad()\n    (w * w).sum().backward()\n    opt.step()\n"
        "    print(i)\nprint(w)"
    )
    result = engine.run(code)
    assert result.error is None
    steps = [e for e in result.events if e["type"] == "step"]
    assert len(steps) == 10 and [bool(e.get("folded")) for e in steps] == [False] * 3 + [True] * 6 + [False]
    assert "".join(e["text"] for e in result.events if e["type"] == "print") == result.stdout
    folded = [e for e in result.events if e["type"] == "folded"]
    assert len(folded) == 1 and (folded[0]["first"], folded[0]["last"]) == (3, 8)


def test_polynomial_fit_runs_within_the_budgets() -> None:
    code = """\
import torch
import math
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'{b.item():.2f}')
"""
    result = engine.run(code, seed=0, limits=Limits(max_seconds=30))  # generous: CI machines are shared
    assert result.error is None
    assert result.stdout == "0.84\n"
    # Iterations 3..1998 are folded: their graphs are left out, their .grad changes and steps kept.
    folded = [e for e in result.events if e["type"] == "folded"]
    assert [(e["first"], e["last"]) for e in folded] == [(3, 1998)]
    assert sum(e["type"] == "accumulate" for e in result.events) == 4 * 2000
    assert "truncated" not in {e["type"] for e in result.events}


def test_state_dict_is_an_ordered_dict_with_dict_methods() -> None:
    code = "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nm = nn.Linear(2, 1)\nfor k, v in m.state_dict().items():\n    print(k, v.shape)"
    result = engine.run(code)
    assert result.error is None
    assert result.stdout == torch_stdout(code)


def test_saved_tensors() -> None:
    code = (
        "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * x\n"
        "print(y.grad_fn._saved_self, y.grad_fn._saved_other)\nz = x.exp()\nprint(z.grad_fn._saved_result)\n"
        "y.sum().backward()\nprint(x.grad)"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code)


def test_memory_alive_is_bounded_but_freed_tensors_do_not_count() -> None:
    hoard = "import torch\nkeep = []\nfor i in range(100):\n    keep.append(torch.ones(1000, 1000) * 2)"
    result = engine.run(hoard)
    assert result.error is not None and result.error["type"] == "LimitExceeded"
    assert "memory limit" in result.error["message"] and result.error["line"] == 4
    churn = "import torch\nfor i in range(100):\n    x = torch.ones(1000, 1000) * 2\nprint(x.shape)"
    result = engine.run(churn)
    assert result.error is None and result.stdout == "torch.Size([1000, 1000])\n"


@pytest.mark.parametrize(
    ("code", "etype", "line"),
    [
        ("import torch\nopen('/etc/passwd')", "NotSupported", 2),
        ("import torch\n__import__('os')", "NotSupported", 2),
        ("import torch\nx = torch.ones(1)\nx.__class__", "NotSupported", 3),
        ("().__class__.__bases__", "NotSupported", 1),
        ("import torch\ngetattr(torch, 'ones')", "NotSupported", 2),
        ("import torch\nimport os", "NotSupported", 2),
        ("import torch\nwhile True:\n    pass", "LimitExceeded", 2),
        ("import torch\nx = torch.zeros(10**6, 10**6)", "LimitExceeded", 2),
        ("x = 2 ** 10 ** 10", "LimitExceeded", 1),
        ("x = 'a' * 10**10", "LimitExceeded", 1),
        ("import torch\nx = torch.ones(10**6).expand(1000, 10**6)", "LimitExceeded", 2),
        ("import torch\ndef f(x):\n    return f(x)\nf(torch.ones(1))", "RecursionError", 3),
    ],
)
def test_hostile_code_through_run(code: str, etype: str, line: int) -> None:
    result = engine.run(code)
    assert result.error is not None
    assert (result.error["type"], result.error["line"]) == (etype, line)
    assert result.events[-1]["type"] == "error" and result.events[-1]["error_type"] == etype


def test_no_grad_decorator() -> None:
    code = (
        "import torch\nx = torch.ones(2, requires_grad=True)\n@torch.no_grad()\ndef evaluate(t):\n    return t * 2\n"
        "y = evaluate(x)\nprint(y.requires_grad, torch.is_grad_enabled(), (x * 2).requires_grad)"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code)


def test_engine_errors_can_be_caught() -> None:
    code = (
        "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ntry:\n    (x * 2).backward()\n"
        "except RuntimeError as e:\n    print('caught:', e)"
    )
    result = engine.run(code)
    assert result.error is None
    assert result.stdout == torch_stdout(code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (
            "x = torch.ones(2)\nx.foo = (1, 2)",
            "attribute 'foo' of a tensor cannot be assigned (only grad, requires_grad, data)",
        ),
        (
            "p = torch.nn.Parameter(torch.ones(2))\np.foo = 1",
            "attribute 'foo' of a tensor cannot be assigned (only grad, requires_grad, data)",
        ),
        ("torch.nn.Linear = 1", "attribute 'Linear' of a module cannot be assigned"),
        ("s = torch.ones(2).shape\ns.x = 1", "attribute 'x' of a Size value cannot be assigned"),
    ],
)
def test_attribute_assignment_policy(code: str, message: str) -> None:
    result = engine.run("import torch\n" + code)
    assert result.error == {"type": "NotSupported", "message": message, "line": 3 if "\n" in code else 2}


@pytest.mark.parametrize("name", ["shape", "dtype", "device", "grad_fn", "is_leaf", "ndim"])
def test_read_only_tensor_attributes_raise_pytorchs_error(name: str) -> None:
    code = f"import torch\nx = torch.ones(2)\ntry:\n    x.{name} = 1\nexcept AttributeError as e:\n    print(e)"
    result = engine.run(code)
    assert result.error is None
    assert result.stdout == torch_stdout(code)


def test_module_and_optimizer_attributes_can_be_assigned() -> None:
    code = (
        "import torch\nimport torch.nn as nn\nm = nn.Linear(2, 1)\nm.scale = 3\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "opt.param_groups[0]['lr'] = 0.5\nprint(m.scale, opt.param_groups[0]['lr'])"
    )
    result = engine.run(code)
    assert result.error is None and result.stdout == "3 0.5\n"


def test_tolist_of_big_tensors_counts_against_the_budget() -> None:
    result = engine.run("import torch\nt = torch.ones(1000, 1000)\nkeep = [t.tolist() for _ in range(100)]")
    assert result.error is not None and result.error["type"] == "LimitExceeded" and result.error["line"] == 3
    assert engine.run("import torch\nprint(len(torch.ones(1000, 1000).tolist()))").stdout == "1000\n"


def test_the_depth_limit_names_the_line_of_the_nesting() -> None:
    result = engine.run("x = 1\ny = " + " + ".join(["1"] * 150) + "\nprint(x)")
    assert result.error == {
        "type": "LimitExceeded",
        "message": "the code is nested more than 100 levels deep (depth limit)",
        "line": 2,
    }


@pytest.mark.parametrize(
    "code",
    [
        "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n",
        "import torch\nimport random, itertools, functools\nfor i in range(3):\n    print(torch.randn(2), i)\n",
        "import torch\nraise ValueError(torch.ones(2))\n",
    ],
)
def test_a_run_goes_with_its_answer(code: str) -> None:
    """What a run made (its interpreter, recorder, meter, budget, run state, facades, the standard modules it
    imported, an error's traceback) is freed by reference counting when the run ends, not left in reference cycles
    for a later garbage collection to walk; only the learner's leaf tensors and their AccumulateGrad nodes (and the
    classes a module like collections builds per run) may wait for one."""
    import gc

    engine.run(code, seed=1)  # first-use caches out of the way
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = engine.run(code, seed=1)
        del result
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    engine_objects = {"Interpreter", "Recorder", "Meter", "Budget", "RunState", "Folder", "RunStdlib", "Namespace"}
    assert not left & engine_objects, left & engine_objects
    assert len(left) < 12, left

"""A breach ends the run: once a time, memory, step or size limit is hit, no more user code runs, not a ``finally``,
an ``except``, a ``with`` block's exit or a hook (issue 9, item 2). Each limit meets each way of running code after
it; the program's output shows whether any did."""

from __future__ import annotations

import pytest

import engine
from engine.sandbox import Budget, Interpreter, LimitExceeded, Limits, parse

T = "import torch\n"

# (limit, the body of boom() that hits it, the limits of the run)
BREACHES: list[tuple[str, str, Limits]] = [
    ("steps", "while True:\n        pass", Limits(max_steps=20_000)),
    ("time", "while True:\n        x = [1] * 10", Limits(max_seconds=0.3)),
    ("tensor size", "torch.zeros(10**7)", Limits()),
    ("memory alive", "keep = [torch.ones(1000) for i in range(1000)]", Limits(max_alive_elements=100_000)),
    (
        "graph nodes",
        "torch.set_grad_enabled(True)\n    y = torch.ones(1, requires_grad=True)\n"
        "    for i in range(1000):\n        y = y * 1.0",
        Limits(max_graph_nodes=200),
    ),
    ("output", "while True:\n        print('x' * 50)", Limits(max_output_bytes=1000)),
    ("string length", "s = 'a' * 10**8", Limits()),
    ("int bits", "n = 2 ** 10**7", Limits()),
    ("list length", "l = [0] * 10**8", Limits()),
    ("built items", "keep = [str(i) * 50_000 for i in range(100)]", Limits(max_built_items=1_000_000)),
]

# Ways of running code after boom() raises; every one of them prints 'after' if it runs.
AFTER: list[tuple[str, str]] = [
    ("finally", "try:\n    boom()\nfinally:\n    print('after')"),
    ("bare except", "try:\n    boom()\nexcept:\n    print('after')"),
    ("except Exception, else", "try:\n    boom()\nexcept Exception:\n    print('after')\nelse:\n    print('after')"),
    (
        "nested finally in a function",
        "def f():\n    try:\n        boom()\n    finally:\n        print('after')\n"
        "try:\n    f()\nfinally:\n    print('after')",
    ),
    (
        "finally inside a with block",
        "with torch.no_grad():\n    try:\n        boom()\n    finally:\n        print('after')",
    ),
    (
        "finally that raises over the breach",
        "try:\n    boom()\nfinally:\n    print('after')\n    raise ValueError('hidden')",
    ),
    (
        "finally that returns over the breach",
        "def f():\n    try:\n        boom()\n    finally:\n        print('after')\n        return 1\nf()",
    ),
    (
        "a later tensor hook in the same backward",
        "x = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: [print('after'), None][1])\ny = x * 2\n"
        "y.register_hook(lambda g: [boom(), None][1])\ny.sum().backward()",
    ),
    (
        "a module hook after a breaching forward",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        boom()\n        return x\nm = M()\n"
        "m.register_forward_hook(lambda *a: [print('after'), None][1])\nm(torch.ones(1))",
    ),
    (
        "a sort key after a breaching key",
        "keys = [1, 3, 2]\nsorted(keys, key=lambda k: boom() if k == 1 else print('after'))",
    ),
]


@pytest.mark.parametrize(("limit", "body", "limits"), BREACHES, ids=[b[0] for b in BREACHES])
@pytest.mark.parametrize(("way", "after"), AFTER, ids=[a[0] for a in AFTER])
def test_no_user_code_runs_after_a_breach(limit: str, body: str, limits: Limits, way: str, after: str) -> None:
    code = T + "def boom():\n    " + body + "\nprint('before')\n" + after
    result = engine.run(code, seed=0, limits=limits)
    assert result.error is not None and result.error["type"] == "LimitExceeded", result.error
    assert "after" not in result.stdout, (limit, way, result.stdout[-200:])
    assert result.stdout.startswith("before\n") or limit == "output"
    assert result.reproducible is False
    assert result.events[-1]["type"] == "error" and result.events[-1]["error_type"] == "LimitExceeded"


def test_user_code_cannot_define_what_would_run_at_teardown() -> None:
    code = "class M:\n    def __del__(self, *a):\n        print('after')\n"
    result = engine.run(code)
    assert result.error is not None and result.error["type"] == "NotSupported", result.error
    result = engine.run("class M:\n    pass\nwith M():\n    print('in')")
    assert result.error == {
        "type": "TypeError",
        "message": "'M' object does not support the context manager protocol",
        "line": 3,
    }


def test_no_exit_of_the_learners_context_manager_runs_after_a_breach() -> None:
    code = (
        "class M:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        print('exit')\n"
        "        return True\nwith M():\n    while True:\n        pass\nprint('after')"
    )
    result = engine.run(code, limits=Limits(max_steps=10_000))
    assert result.stdout == "" and result.error is not None and result.error["type"] == "LimitExceeded"
    assert result.error["line"] == 8


def test_a_breach_stays_a_breach_for_an_interpreter_run_alone() -> None:
    budget = Budget(Limits(max_steps=5_000))
    interp = Interpreter({}, budget)
    with pytest.raises(LimitExceeded):
        interp.interpret(parse("try:\n    while True:\n        pass\nfinally:\n    print('after')"))
    assert interp.stdout == [] and budget.breached is not None
    with pytest.raises(LimitExceeded):  # the same budget refuses any further step of user code
        interp.interpret(parse("print('later')"))
    assert interp.stdout == []


def test_a_time_limit_hidden_by_a_finally_raise_is_still_the_limit_and_not_kept() -> None:
    code = "n = 0\ntry:\n    while True:\n        n += 1\nfinally:\n    raise ValueError(n)"
    result = engine.run(code, seed=0, limits=Limits(max_seconds=0.2))
    assert result.error is not None and result.error["type"] == "LimitExceeded"
    assert "time limit" in result.error["message"] and result.reproducible is False

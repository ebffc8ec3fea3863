"""The escape and resource corpus (tests/hostile.py) through ``engine.run``: each case ends with its clear error,
quickly, and nothing a program does is seen by the next run in the same process."""

from __future__ import annotations

import gc
import time

import pytest

import engine
from engine.sandbox import Limits
from tests.hostile import CORPUS

LESSON_1 = (
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
)


@pytest.mark.parametrize(("code", "etype", "fragment"), CORPUS)
def test_each_hostile_program_ends_with_a_clear_error(code: str, etype: str, fragment: str) -> None:
    start = time.monotonic()
    result = engine.run(code)
    assert time.monotonic() - start < 5
    assert result.error is not None, result.stdout
    assert result.error["type"] == etype and fragment in result.error["message"], result.error
    assert len(result.error["message"]) <= 10_003  # messages are bounded, whatever the program put in them
    assert result.error["line"] is not None or "nested" in result.error["message"]
    assert result.events[-1]["type"] == "error" and result.events[-1]["error_type"] == etype
    assert "caught" not in result.stdout  # budgets are never caught by user code


def test_the_graph_budget_bounds_nodes_alive_not_made() -> None:
    chain = "import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(3000):\n    y = y * 1.0\n"
    result = engine.run(chain, limits=Limits(max_graph_nodes=1000))
    assert result.error is not None and result.error["type"] == "LimitExceeded"
    assert result.error["message"] == "the program holds more than 1,000 autograd graph nodes at once (graph limit)"
    assert result.error["line"] == 5
    freed = "import torch\nx = torch.tensor(1.0, requires_grad=True)\nfor i in range(3000):\n    y = (x * 2.0) + 1\n"
    assert engine.run(freed + "y.backward()\nprint(x.grad)", limits=Limits(max_graph_nodes=1000)).stdout == (
        "tensor(2.)\n"
    )


def test_backward_through_a_long_chain_is_iterative() -> None:
    code = "import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(20000):\n    y = y * 1.0\n"
    result = engine.run(code + "y.backward()\nprint(x.grad)")
    assert result.error is None and result.stdout == "tensor(1.)\n"


def test_the_trace_and_stdout_are_kept_up_to_a_breach() -> None:
    code = "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * 2).sum()\nprint(y)\nz = torch.zeros(10**7)"
    result = engine.run(code)
    assert result.stdout == "tensor(6., grad_fn=<SumBackward0>)\n"
    assert result.error is not None and result.error["line"] == 5
    types = [e["type"] for e in result.events]
    assert types.count("tensor") >= 3 and types[-2:] == ["print", "error"]


def test_the_wall_clock_limit_stops_heavy_numpy_work() -> None:
    code = "import torch\nx = torch.ones(500, 500)\nwhile True:\n    y = x @ x"
    start = time.monotonic()
    result = engine.run(code, limits=Limits(max_seconds=0.5))
    assert time.monotonic() - start < 2
    assert result.error is not None and "(time limit)" in result.error["message"] and result.error["line"] == 4


MUTATIONS = [
    "import torch\ntorch.set_grad_enabled(False)",
    "import torch\ntorch.manual_seed(0)\nx = torch.rand(3)",
    "import torch\nm = torch.nn.Linear(3, 1)\nm.forward = print\nm(torch.ones(3))",
    "import torch\nopt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\nopt.defaults['lr'] = 100.0\n"
    "opt.param_groups[0]['lr'] = 100.0",
    "import torch\nsd = torch.nn.Linear(1, 1).state_dict()\nsd['weight'][0] = 5.0",
    "print = 1\nlen = 2\nrange = None",
    "import torch\nx = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    while True:\n        pass",
    "import torch\ntorch.tensor = print",
    "import math\nmath.pi = 3",
]
CHECK = (
    "import torch, math\ntorch.manual_seed(1)\nm = torch.nn.Linear(3, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.5)\n"
    "loss = m(torch.ones(3)).sum()\nloss.backward()\nopt.step()\nprint(m.weight, torch.is_grad_enabled(), len('ab'))\n"
    "print(opt.param_groups[0]['lr'], math.pi, torch.tensor([1.0]), list(range(2)))\n"
)


def test_nothing_a_program_changes_is_seen_by_the_next_run() -> None:
    before = engine.run(CHECK, seed=3)
    assert before.error is None
    for code in MUTATIONS:
        engine.run(code)
        after = engine.run(CHECK, seed=3)
        assert (after.stdout, after.error) == (before.stdout, None), code
    assert engine.run(LESSON_1).stdout == "tensor([2., 4., 6.])\n"


def test_a_run_leaves_nothing_alive_behind() -> None:
    """A run's classes were kept in a process-wide cache, and through their methods everything the run held: each
    such run left its tensors in the worker (40 MB a run here), until runs failed with MemoryError."""
    code = (
        "import torch\nclass LeakProbe:\n    def f(self):\n        return keep\nkeep = torch.ones(10**6)\n"
        "print(len(LeakProbe().f()))"
    )
    for _ in range(3):
        assert engine.run(code).stdout == "1000000\n"
    gc.collect()
    assert not [o for o in gc.get_objects() if type(o) is type and o.__name__ == "LeakProbe"]


def test_the_cache_of_checked_programs_is_bounded_by_their_size() -> None:
    """256 cached trees of 64 KB programs kept 3 GB in a worker from run to run; lessons are still cached."""
    import sys

    parse_module = sys.modules["engine.sandbox.parse"]
    big = "x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]\n" * 1000
    for i in range(40):
        assert engine.run(big + f"# {i}").error is None
    assert parse_module._cached_chars <= parse_module._CACHE_CHARS
    assert sum(len(code) for code, _ in parse_module._CACHE) == parse_module._cached_chars
    assert parse_module.parse(LESSON_1) is parse_module.parse(LESSON_1)

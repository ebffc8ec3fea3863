"""Allocations whose size comes from user input ask the run's budget first."""

from __future__ import annotations

import pytest

from engine.facade import make_modules
from engine.run_state import RunState, use_state


class TinyBudget:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.asked: list[int] = []

    def check_alloc(self, numel: int) -> None:
        self.asked.append(numel)
        if numel > self.limit:
            raise MemoryError(f"tensor of {numel} elements exceeds the budget")


@pytest.mark.parametrize(
    "expr",
    [
        "torch.zeros(10**6, 10**6)",
        "torch.ones(5000, 5000)",
        "torch.randn(2000, 2000)",
        "torch.rand(10**7)",
        "torch.full((3000, 3000), 1.0)",
        "torch.arange(10**8)",
        "torch.linspace(0, 1, 10**8)",
        "torch.eye(10**5)",
        "torch.empty(10**9)",
        "torch.randint(0, 5, (10**8,))",
        "torch.ones(3000, 1) + torch.ones(1, 3000)",
        "torch.ones(3000, 1) @ torch.ones(1, 3000)",
        "torch.ones(1).expand(10**9)",
        "torch.ones(10).repeat(10**8)",
        "torch.nn.Linear(10**4, 10**4)",
        "torch.Tensor(10**5, 10**5)",
    ],
)
def test_big_allocations_hit_the_budget(expr: str) -> None:
    budget = TinyBudget(10**6)
    with use_state(RunState(budget=budget)), pytest.raises(MemoryError):
        eval(expr, {"torch": make_modules()["torch"]})


def test_small_work_fits() -> None:
    budget = TinyBudget(10**6)
    with use_state(RunState(budget=budget)):
        torch = make_modules()["torch"]
        x = torch.randn(100, 10, requires_grad=True)
        ((x @ torch.ones(10, 3)) ** 2).mean().backward()
    assert budget.asked and max(budget.asked) <= 10**6

"""What a learner's ``Dataset.__getitem__`` costs the step budget when a ``DataLoader`` calls it: exactly what the
same code costs when the learner calls it (its statements and expressions, one step each; the call, as every call
of the learner's functions; each tensor it makes, as every tensor), and nothing for the loader's own work beyond
the tensors its collate makes (two stacked tensors a batch here). Measured for the UvA XOR notebook: 34 steps a
``__getitem__`` (14 of its statements and expressions, 4 for the call, 8 for each of its two tensors)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import runner
from engine.sandbox.budget import CALL_STEPS, Budget, Limits
from engine.sandbox.meter import TENSOR_STEPS

DATASET = """
import torch
import torch.utils.data as data
class D(data.Dataset):
    def __init__(self, n):
        super().__init__()
        self.x = torch.rand(n, 2)
        self.y = torch.rand(n)
    def __len__(self):
        return self.x.shape[0]
    def __getitem__(self, idx):
        a = self.x[idx]
        b = self.y[idx]
        return a, b
ds = D(N)
"""
USER_NODES = 3 + 11  # its 3 statements; 11 expressions: self.x[idx] (4 nodes), self.y[idx] (4), the tuple (3)
ITEM = USER_NODES + CALL_STEPS + 2 * TENSOR_STEPS  # 34


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Any:
    budgets: list[Budget] = []

    class Counted(Budget):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            budgets.append(self)

    monkeypatch.setattr(runner, "Budget", Counted)

    def count(n: int, loop: str) -> int:
        result = engine.run(DATASET.replace("N", str(n)) + loop, seed=0, limits=Limits(max_seconds=60))
        assert result.error is None, result.error
        return budgets[-1].steps

    return count


def _loader(batch_size: int) -> str:
    return f"for a, b in data.DataLoader(ds, batch_size={batch_size}, shuffle=True):\n    pass\n"


def test_getitem_through_a_dataloader_costs_its_code_its_call_and_its_tensors(steps: Any) -> None:
    # one batch each way: 500 items more cost 500 __getitem__ calls, not a step more
    assert steps(1000, _loader(1000)) - steps(500, _loader(500)) == 500 * ITEM


def test_a_call_by_hand_costs_the_same_plus_the_loop(steps: Any) -> None:
    by_hand = "for i in range(len(ds)):\n    ds[i]\n"  # each turn: `ds[i]` (its statement, 3 nodes) on top
    assert steps(1000, by_hand) - steps(500, by_hand) == 500 * (ITEM + 4)


def test_the_loader_costs_per_batch_only_its_collated_tensors(steps: Any) -> None:
    more = steps(1000, _loader(100)) - steps(1000, _loader(1000))  # 9 batches more
    assert 9 * 2 * TENSOR_STEPS <= more <= 9 * (2 * TENSOR_STEPS + 4), more

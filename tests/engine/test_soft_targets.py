"""engine/ops/soft_targets.py against PyTorch: cross-entropy with probabilities and label smoothing, one_hot."""

from __future__ import annotations

import pytest

from tests.engine.test_ops import test_op_matches_torch as check_op

PROBS = "torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.0, 1.0]])"
CASES = [
    f"F.cross_entropy(m, {PROBS})",
    f"F.cross_entropy(m, {PROBS}, reduction='sum')",
    f"F.cross_entropy(m, {PROBS}, reduction='none')",
    f"F.cross_entropy(m, {PROBS}, label_smoothing=0.2)",
    "F.cross_entropy(m, torch.tensor([0, 2]), label_smoothing=0.1)",
    "F.cross_entropy(m, torch.tensor([0, 2]), label_smoothing=0.1, reduction='none')",
    "F.cross_entropy(m, torch.tensor([0, -100]), label_smoothing=0.3)",
    "F.one_hot(torch.tensor([0, 2, 1]))",
    "F.one_hot(torch.tensor([[1], [0]]), 3)",
]


@pytest.mark.parametrize("expr", CASES)
def test_soft_target_matches_torch(expr: str) -> None:
    check_op(expr)

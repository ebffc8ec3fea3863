"""engine/ops/ordering.py against PyTorch: sort/topk/cumsum/flip/triu/tril/diag/outer and index queries."""

from __future__ import annotations

import pytest

from tests.engine.test_ops import test_op_matches_torch as check_op

CASES = [
    "x.sort()[0]",
    "m.sort(dim=0, descending=True).values",
    "m.argsort(dim=1)",
    "m.topk(2)[0]",
    "x.topk(1, largest=False).values",
    "m.cumsum(1)",
    "torch.cumsum(x, 0)",
    "m.flip(0)",
    "torch.flip(t3, [0, 2])",
    "torch.triu(m)",
    "m.tril(1)",
    "torch.diag(x)",
    "torch.diag(m @ m.t())",
    "torch.outer(x, p)",
    "m.nonzero()",
    "torch.count_nonzero(m > 0)",
    "torch.unique(torch.tensor([3, 1, 3]))",
]


@pytest.mark.parametrize("expr", CASES)
def test_ordering_matches_torch(expr: str) -> None:
    check_op(expr)

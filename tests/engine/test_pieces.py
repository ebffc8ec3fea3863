"""engine/ops/pieces.py against PyTorch: split/chunk/unbind/gather/amax/amin (values, printing, grad_fn, grads)."""

from __future__ import annotations

import pytest

from tests.engine.test_ops import test_op_matches_torch as check_op

CASES = [
    "x.split(2)[1]",
    "m.split([1, 2], dim=1)[1]",
    "m.chunk(2, dim=1)[0]",
    "t3.chunk(3, 2)[1]",
    "x.unbind()[2]",
    "m.unbind(1)[0]",
    "m.gather(1, torch.tensor([[2, 0], [1, 1]]))",
    "torch.gather(x, 0, torch.tensor([2, 2, 0]))",
    "m.amax(1)",
    "m.amin(0, keepdim=True)",
    "t3.amax((0, 2))",
    "torch.amax(torch.tensor([1.0, 3.0, 3.0], requires_grad=True) * x, 0)",
]


@pytest.mark.parametrize("expr", CASES)
def test_piece_matches_torch(expr: str) -> None:
    check_op(expr)

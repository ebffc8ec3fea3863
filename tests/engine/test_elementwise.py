"""engine/ops/elementwise.py against PyTorch: log1p, rsqrt, tan, softplus, log2, log10, exp2, elu, silu, erf, and the
two-tensor ops atan2 and hypot (values, printing, grad_fn names, gradients, in place, second derivatives)."""

from __future__ import annotations

import pytest

from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives
from tests.engine.test_ops import test_op_matches_torch as check_op

CASES = [
    "x % p",  # remainder with a tensor divisor (RemainderBackward0), then with a number (RemainderBackward1)
    "torch.remainder(m, 1.5)",
    "p.log1p()",
    "p.rsqrt()",
    "torch.rsqrt(p)",
    "x.tan()",
    "F.softplus(m)",
    "F.softplus(x, beta=2.0, threshold=1.0)",
    "p.log2()",
    "x.exp2()",
    "p.log10()",
    "torch.log10(p * 7.3)",
    "F.elu(m)",
    "F.elu(x, alpha=0.5)",
    "F.silu(m)",
    "torch.log1p(p)",
    "x.erf()",
    "torch.erf(m)",
    "torch.atan2(x, p)",
    "x.atan2(c)",
    "torch.atan2(m, x)",
    "torch.arctan2(p, m)",
    "(x * 2).atan2_(p)",
    "torch.hypot(x, p)",
    "m.hypot(c)",
    "torch.hypot(s, m)",
    "(x * 2).hypot_(p)",
]


@pytest.mark.parametrize("expr", CASES)
def test_elementwise_matches_torch(expr: str) -> None:
    check_op(expr)


@pytest.mark.parametrize(
    "expr",
    [
        "torch.atan2(x, x ** 2 + 1).sum()",
        "(torch.atan2(x ** 2, x) * x).sum()",
        "torch.hypot(x, x ** 2).sum()",
        "torch.hypot(x * 3, torch.ones(3)).pow(2).sum()",
    ],
)
def test_two_tensor_ops_have_second_derivatives_like_torch(expr: str) -> None:
    check_second_derivatives(expr)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_tanh_backward_is_one_fused_multiply_add_as_in_torch(dtype: str) -> None:
    """PyTorch's CPU tanh backward is ``g * (1 - y * y)`` with ``1 - y * y`` one FMA (rounded once): bit for bit."""
    import numpy as np
    import torch

    from engine.ops.kits import ARRAYS

    gen = torch.Generator().manual_seed(0)
    x = torch.randn(100_000, generator=gen, dtype=getattr(torch, dtype)) * 2
    g = torch.randn(100_000, generator=gen, dtype=x.dtype)
    y = torch.tanh(x)
    expected = torch.ops.aten.tanh_backward(g, y).numpy()
    got = g.numpy() * ARRAYS.one_minus_square(y.numpy())
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)

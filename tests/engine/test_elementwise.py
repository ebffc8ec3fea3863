"""engine/ops/elementwise.py against PyTorch: log1p, rsqrt, tan, softplus, log2, exp2, elu, silu, erf."""

from __future__ import annotations

import pytest

from tests.engine.test_ops import test_op_matches_torch as check_op

CASES = ["p.log1p()", "p.rsqrt()", "torch.rsqrt(p)", "x.tan()", "F.softplus(m)",
         "F.softplus(x, beta=2.0, threshold=1.0)", "p.log2()", "x.exp2()", "F.elu(m)", "F.elu(x, alpha=0.5)",
         "F.silu(m)", "torch.log1p(p)", "x.erf()", "torch.erf(m)"]


@pytest.mark.parametrize("expr", CASES)
def test_elementwise_matches_torch(expr: str) -> None:
    check_op(expr)

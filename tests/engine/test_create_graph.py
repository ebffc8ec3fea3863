"""create_graph=True against PyTorch: second derivatives through every kind of op, the one backward of each run on
tensors (engine/ops/kits.py's TENSORS): piecewise-linear nodes (cat, indexing, clamp, abs, max, losses) and smooth
ones (var, std, mv, bmm, log1p, rsqrt, tan, softplus, elu, silu)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.facade import make_modules
from engine.run_state import RunState, use_state

EXPRS = [
    "torch.cat([x ** 2, x ** 3]).sum()",
    "(x[[0, 0, 2]] ** 3).sum()",
    "(x.clamp(-0.5, 0.5) * x ** 2).sum()",
    "(x.abs() * x).sum()",
    "torch.stack([x, x ** 2]).max(dim=0)[0].pow(2).sum()",
    "(x ** 2).amax() * x.sum()",
    "F.cross_entropy(torch.stack([x, x ** 2]), torch.tensor([0, 2]))",
    "x.var() * x.sum()",
    "x.std() ** 3",
    "(torch.mv(torch.stack([x, x * 2]), x) ** 2).sum()",
    "torch.bmm(x.view(1, 1, 3) ** 2, x.view(1, 3, 1)).sum()",
    "(x * 0.5 + 1.5).log1p().sum() * x.sum()",
    "(x * x + 1).rsqrt().sum()",
    "x.tan().sum() * x.sum()",
    "F.softplus(x * 3).sum() * x.sum()",
    "F.elu(x).pow(2).sum()",
    "F.logsigmoid(x * 2).pow(2).sum()",
    "F.hardtanh(x * 3, -1.5, 2.0).pow(2).sum()",
    "F.silu(x).pow(2).sum()",
    "torch.where(x > 0, x ** 2, x ** 3).sum()",
    "(x.masked_fill(x > 0.5, 0.0) ** 2).sum()",
    "(x.sort()[0] * torch.tensor([1.0, 2.0, 3.0])).pow(2).sum()",
    "x.cumsum(0).pow(2).sum()",
    "F.cross_entropy(torch.stack([x, -x]), torch.tensor([[0.3, 0.3, 0.4], [1.0, 0.0, 0.0]]), label_smoothing=0.1)",
]


@pytest.mark.parametrize("expr", EXPRS)
def test_second_derivatives_match_torch(expr: str) -> None:
    import torch.nn.functional as F

    values = [0.3, -0.7, 1.1]
    x = torch.tensor(values, requires_grad=True)
    (g,) = torch.autograd.grad(eval(expr, {"torch": torch, "F": F, "x": x}), x, create_graph=True)
    (h,) = torch.autograd.grad((g**2).sum(), x)
    with use_state(RunState()):
        mods = make_modules()
        T, TF = mods["torch"], mods["torch.nn.functional"]
        ox = T.tensor(values, requires_grad=True)
        (og,) = T.autograd.grad(eval(expr, {"torch": T, "F": TF, "x": ox}), ox, create_graph=True)
        (oh,) = T.autograd.grad((og**2).sum(), ox)
    np.testing.assert_allclose(og.tolist(), g.tolist(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(oh.tolist(), h.tolist(), rtol=1e-4, atol=1e-5)

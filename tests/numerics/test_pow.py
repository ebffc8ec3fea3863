"""``x ** e`` for a float32 tensor and a scalar exponent other than ATen's special cases (2, 3, -2, 0.5, -0.5,
-1): SLEEF's powf over whole pairs of vectors, std::pow for the tail (docs/NUMERICS.md), bit for bit against live
torch where ATen has a vectorised kernel (the "avx512" and "avx2" capabilities), within 1 ulp on "default"."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine import numerics
from engine.numerics import cpu

F32 = np.float32
VECTORISED = cpu.capability() in ("avx512", "avx2")


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    ia, ib = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)
    ia, ib = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia), np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return int(np.abs(ia - ib).max()) if a.size else 0


@pytest.mark.parametrize("e", [4, 5, 6, 7, -3, 1.5, 2.5, 0.3, -2.5, 1.7, 10])
@pytest.mark.parametrize("n", [2000, 31, 100_001])
def test_pow_scalar(e: float, n: int) -> None:
    rng = np.random.default_rng(n + int(e * 10))
    x = (rng.standard_normal(n) * 3).astype(F32)
    if e != int(e):
        x = np.abs(x)  # a negative base with a fractional exponent is nan on both sides
    x[: min(n, 3)] = [0.0, 1.0, -0.0][: min(n, 3)] if e == int(e) else [0.0, 1.0, 0.0][: min(n, 3)]
    theirs = torch.from_numpy(x).pow(e).numpy()
    ours = numerics.pow_scalar(x, e)
    if VECTORISED:
        assert ours is not None and np.array_equal(ours.view(np.int32), theirs.view(np.int32))
    else:
        assert ours is None


def test_the_tutorials_powers() -> None:
    """x ** 4 and x ** 5 over linspace(-π, π, 2000), as in the dynamic polynomial net (its losses sum them)."""
    x = torch.linspace(-np.pi, np.pi, 2000)
    for e in (4, 5):
        theirs = (x**e).numpy()
        ours = numerics.pow_scalar(x.numpy(), e)
        if VECTORISED:
            assert ours is not None and np.array_equal(ours.view(np.int32), theirs.view(np.int32))
            plain = np.power(x.numpy().astype(np.float64), e).astype(F32)  # what the engine did before
            assert not np.array_equal(plain, theirs)
        else:
            assert _ulps(np.power(x.numpy().astype(np.float64), e).astype(F32), theirs) <= 1


DYNAMIC_NET = """
import random
import math
import torch
random.seed(3)
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
a, b, c, d, e = (torch.randn((), requires_grad=True) for _ in range(5))
params = [a, b, c, d, e]
opt = torch.optim.SGD(params, lr=1e-8, momentum=0.9)
for t in range(400):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    for exp in range(4, random.randint(4, 6)):
        y_pred = y_pred + e * x ** exp
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, loss.item())
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_dynamic_polynomial_net_losses() -> None:
    import engine
    from tests.fidelity.harness import run_torch

    theirs = run_torch(DYNAMIC_NET).stdout
    ours = engine.run(DYNAMIC_NET, seed=0).stdout
    if VECTORISED:
        assert ours == theirs
    else:
        a, b = [float(v) for v in ours.split()], [float(v) for v in theirs.split()]
        assert len(a) == len(b) and np.allclose(a, b, rtol=1e-5, atol=0)


def test_pow_minus_half_is_ATen_rsqrt() -> None:
    """x ** -0.5 goes to ATen's rsqrt kernel, 1 / sqrt(x) rounded twice (the correctly rounded power differs on a
    quarter of the inputs)."""
    import engine

    code = "import torch\ntorch.manual_seed(0)\nx = torch.rand(1000) * 5 + 0.01\nprint((x ** -0.5).sum().item(), (x ** -0.5)[:5].tolist())\n"
    from tests.fidelity.harness import run_torch

    assert engine.run(code, seed=0).stdout == run_torch(code).stdout

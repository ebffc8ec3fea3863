"""MKL's own VML (``engine/numerics/mkl_vml.py``, Intel's ``mkl`` wheel loaded with ctypes) against live torch:
bit for bit for every function ATen sends to VML, float32 and float64, contiguous or not, when the library is
installed; without it (or with ``GRADTRACE_MKL=0``) the engine's own kernels, within one ulp of torch."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import engine
from engine.numerics import mkl_vml
from engine.ops import elementwise
from engine.sandbox.budget import Limits
from tests.fidelity.harness import run_torch

MKL = mkl_vml.available()
# the engine's functions that ATen computes with VML; the arguments brought into each one's domain
OPS = {
    "exp": lambda x: x,
    "log": lambda x: np.abs(x) + 1e-3,
    "tanh": lambda x: x,
    "sin": lambda x: x,
    "cos": lambda x: x,
    "tan": lambda x: x,
    "sqrt": np.abs,
    "erf": lambda x: x,
    "log2": lambda x: np.abs(x) + 1e-3,
    "log10": lambda x: np.abs(x) + 1e-3,
    "asin": lambda x: np.clip(x, -1, 1),
    "acos": lambda x: np.clip(x, -1, 1),
    "atan": lambda x: x,
}


def _inputs(dtype: type) -> np.ndarray:
    rng = np.random.default_rng(7)
    parts = [rng.standard_normal(20_000) * s for s in (0.01, 0.3, 1, 3, 10)]
    parts.append(np.array([0.0, -0.0, 1.0, -1.0, 0.5, 20.0, 88.0, -87.0, 1e-30]))
    return np.concatenate(parts).astype(dtype)


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in units in the last place (nan against nan counts 0)."""
    both_nan = np.isnan(a) & np.isnan(b)
    wide = np.int32 if a.dtype == np.float32 else np.int64
    ia, ib = a.view(wide).astype(np.int64), b.view(wide).astype(np.int64)
    sign = np.int64(np.iinfo(wide).max)
    ia, ib = np.where(ia < 0, -(ia & sign), ia), np.where(ib < 0, -(ib & sign), ib)
    return int(np.where(both_nan, 0, np.abs(ia - ib)).max())


FORWARD = {row.api.name: row._fn for row in elementwise.TABLE if row.api is not None}


def _engine_op(op: str, x: np.ndarray) -> np.ndarray:
    """The engine's forward of ``torch.<op>`` on an array (what ``engine.run`` computes for a tensor)."""
    return FORWARD[op](x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(OPS))
def test_each_function_is_torchs(op: str, dtype: type) -> None:
    x = OPS[op](_inputs(dtype)).astype(dtype)
    theirs = getattr(torch, op)(torch.from_numpy(x)).numpy()
    ours = _engine_op(op, x)
    assert ours.dtype == theirs.dtype
    if MKL:
        assert _ulps(ours, theirs) == 0
    else:
        assert _ulps(ours, theirs) <= 1


def test_strided_and_offset_views_give_the_same_bits() -> None:
    """torch copies a strided input into a buffer before VML; VML's result depends on the value only."""
    base = (np.random.default_rng(3).standard_normal(4099) * 4).astype(np.float32)
    for view in (base[1:], base[3:2003], base[::2], base[::-3]):
        theirs = torch.tanh(torch.from_numpy(view.copy())).numpy()
        ours = _engine_op("tanh", view)
        assert _ulps(ours, theirs) <= (0 if MKL else 1)


def test_the_vml_entry_points_are_the_functions_vml_h_lists() -> None:
    """ATen/cpu/vml.h (IMPLEMENT_VML_MKL) names 16 functions; expm1, log1p, sinh, cosh are commented out there
    (not VML in torch), so they are not offered."""
    assert set(mkl_vml.NAMES) == {
        "acos", "asin", "atan", "cos", "erf", "erfc", "erfinv", "exp", "log", "log10", "log2", "sin", "sqrt",
        "tan", "tanh", "trunc",
    }  # fmt: skip
    assert mkl_vml.call("exp", np.arange(3, dtype=np.int64)) is None  # integer arrays: never VML
    if MKL:
        assert "2024.2" in (mkl_vml.version() or "")  # the build torch 2.13 links (torch.__config__.show())
        assert "2024.2" in torch.__config__.show()


def test_switched_off_runs_the_engines_own_kernels() -> None:
    x = np.linspace(-3, 3, 10_001, dtype=np.float32)
    with mkl_vml.switched_off():
        assert not mkl_vml.available() and mkl_vml.call("tanh", x) is None
        own = _engine_op("tanh", x)
    assert np.array_equal(own, np.tanh(x.astype(np.float64)).astype(np.float32))
    code = "from engine.numerics import mkl_vml; print(mkl_vml.available())"
    env = dict(os.environ, GRADTRACE_MKL="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# A character-level MLP as in karpathy's makemore lectures (embedding, tanh hidden layer, cross-entropy, SGD): its
# printed losses go through torch's tanh (VML), and its hand-written softmax through exp and log (VML).
MAKEMORE_LIKE = """
import torch
import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
X = torch.randint(0, 27, (400, 3), generator=g)
Y = torch.randint(0, 27, (400,), generator=g)
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.2
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, 27), generator=g) * 0.01
b2 = torch.randn(27, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
for i in range(30):
    ix = torch.randint(0, X.shape[0], (32,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    if i % 10 == 9:
        print(i, loss.item())
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
print(-probs[torch.arange(32), Y[ix]].log().mean().item())
print(h.sum().item(), counts.sum().item())
"""


def test_a_makemore_like_loop_prints_torchs_losses() -> None:
    theirs = run_torch(MAKEMORE_LIKE).stdout
    result = engine.run(MAKEMORE_LIKE, seed=0, limits=Limits(max_seconds=60.0))  # a loaded shared machine
    assert result.error is None, result.error
    ours = result.stdout
    if MKL:
        assert ours == theirs
    else:
        a, b = [float(v) for v in ours.split()], [float(v) for v in theirs.split()]
        assert len(a) == len(b) and np.allclose(a, b, rtol=1e-4, atol=0)


# Formulas that call torch's exp and log as tensor ops (VML), not inside a fused kernel: erf's backward
# (2/√π · exp(-x²) · grad) and logsumexp (log(sum(exp(x - max))) + max, its backward grad · exp(x - result)).
TENSOR_EXP = """
import torch
torch.manual_seed(0)
x = (torch.randn(5000) * 2).requires_grad_()
torch.erf(x).sum().backward()
print(x.grad.sum().item(), x.grad[:4].tolist())
y = torch.randn(50, 40, requires_grad=True)
l = torch.logsumexp(y, 1)
print(l.sum().item(), l[:3].tolist())
l.sum().backward()
print(y.grad.sum().item(), y.grad[0, :3].tolist())
"""


def test_erf_backward_and_logsumexp_use_torchs_exp() -> None:
    theirs = run_torch(TENSOR_EXP).stdout
    result = engine.run(TENSOR_EXP, seed=0, limits=Limits(max_seconds=60.0))
    assert result.error is None, result.error
    if MKL:
        assert result.stdout == theirs
    else:
        a, b = (
            [float(v) for v in result.stdout.replace("[", " ").replace("]", " ").replace(",", " ").split()],
            [float(v) for v in theirs.replace("[", " ").replace("]", " ").replace(",", " ").split()],
        )
        assert len(a) == len(b) and np.allclose(a, b, rtol=1e-5, atol=0)

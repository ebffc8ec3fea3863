"""The compiled FMA chains (engine/numerics/fma_chain.c) against the numpy path they replace: the same bits on
random shapes and layouts, on sums that land on float32 midpoints (where rounding the float64 sum twice would be
wrong), on subnormal results, signed zeros, infinities and NaN. The numpy path itself is checked against torch in
test_large_k.py and test_kernels.py (which run whichever path is in use)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engine
from engine import random as engine_random
from engine.numerics import chains, fma, native, summation
from tests.conftest import IN_CI

F32 = np.float32
ROOT = Path(__file__).resolve().parents[2]
COMPILER = shutil.which("cc") or shutil.which("gcc")
# CI (.ci/run exports CI=true) must build and test the compiled path: there a missing compiler or library fails


def test_built_wherever_a_compiler_is() -> None:
    """Without the library the engine gives the same numbers, only 10-40 times slower on large products (the
    real-course corpus's two-layer nets would meet its time limit): a checkout with a C compiler must have it."""
    if COMPILER is None and not IN_CI:
        pytest.skip("no C compiler here: the numpy path runs")
    assert COMPILER is not None, "CI needs a C compiler (cc or gcc) to build engine/numerics/fma_chain.c"
    assert native._LIB is not None, "engine/numerics/fma_chain.c is not built: run `make setup` (pip install -e .)"


needs_library = pytest.mark.skipif(
    native._LIB is None and not IN_CI, reason="fma_chain.c was not built: the numpy path runs"
)


def both(a: np.ndarray, b: np.ndarray, blocks: list[int], start: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    compiled = native.fma_blocks(a, b, blocks, start)
    assert compiled is not None
    with native.switched_off():
        plain = chains.fma_blocks(a, b, blocks, start)
    return compiled, plain


def same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    return x.dtype == y.dtype == F32 and x.shape == y.shape and np.array_equal(x.view(np.uint32), y.view(np.uint32))


@needs_library
def test_switched_off() -> None:
    with native.switched_off():
        assert not native.available()
        assert native.fma_blocks(np.ones((2, 2), F32), np.ones((2, 2), F32), [2], None) is None
    assert native.available()


@needs_library
def test_the_environment_switches_it_off_for_a_process() -> None:
    code = "from engine.numerics import native; print(native.available())"
    env = {**os.environ, native.ENV: "0"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=ROOT)
    assert done.stdout == "False\n"


@needs_library
@pytest.mark.parametrize("seed", range(60))
def test_random_shapes_layouts_and_bias(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k, m = int(rng.integers(1, 70)), int(rng.integers(1, 1300)), int(rng.integers(1, 130))
    a = rng.standard_normal((n, k)).astype(F32)
    b = rng.standard_normal((k, m)).astype(F32) * F32(10.0 ** rng.integers(-3, 4))
    if seed % 3 == 0:
        a[a < 0] = 0  # ReLU's zeros: -0 products
    if seed % 4 == 1:
        a = np.asfortranarray(a)  # a transposed view, as x.t() gives
    if seed % 4 == 2:
        b = np.asfortranarray(b)
    start = rng.standard_normal(m).astype(F32) if seed % 2 else None
    compiled, plain = both(a, b, chains.mkl_k_blocks(k), start)
    assert same_bits(compiled, plain)


@needs_library
def test_midpoints_of_the_float64_sum_round_once() -> None:
    """acc = 1 + 2^-23, then a product 2^-24 (1 + 2^-23)(1 - 2^-23) = 2^-24 - 2^-70: the float64 sum is the float32
    midpoint 1 + 2^-23 + 2^-24, which rounds (ties to even) to 1 + 2^-22, while the exact sum rounds to 1 + 2^-23.
    The numpy path's careful FMA settles it; the compiled fmaf must give the same bits."""
    u = 2.0**-23
    rows = [[1 + u, 2.0**-24 * (1 + u)], [1 + u, -(2.0**-24) * (1 + u)], [1.0, 2.0**-24], [-1 - u, 2.0**-24 * (1 + u)]]
    a = np.array(rows * 5, F32)
    b = np.array([[1.0] * 16, [1 - u] * 8 + [1 + u] * 8], F32)
    compiled, plain = both(a, b, [2], None)
    assert same_bits(compiled, plain)
    twice = (a[:, :1].astype(np.float64) * b[:1] + a[:, 1:].astype(np.float64) * b[1:]).astype(F32)  # rounded twice
    assert not same_bits(compiled, twice)  # the case is real: rounding twice differs
    assert compiled[0, 0] == F32(1 + u)


@needs_library
def test_subnormals_signed_zeros_and_specials() -> None:
    rng = np.random.default_rng(2)
    a = (rng.standard_normal((20, 50)) * 2.0**-70).astype(F32)
    b = (rng.standard_normal((50, 30)) * 2.0**-70).astype(F32)  # products near 2^-140: subnormal float32 sums
    assert same_bits(*both(a, b, [50], None))
    z = -np.zeros((9, 5), F32)
    assert same_bits(*both(z, np.ones((5, 17), F32), [5], None))
    assert same_bits(*both(z, np.ones((5, 17), F32), [3, 2], -np.zeros(17, F32)))
    s = rng.standard_normal((9, 6)).astype(F32)
    s[0, 0], s[1, 1] = np.inf, -np.inf
    compiled, plain = both(s, rng.standard_normal((6, 20)).astype(F32), [6], None)
    assert same_bits(compiled[2:], plain[2:]) and np.array_equal(np.isnan(compiled), np.isnan(plain))
    big = np.full((9, 4), 3e38, F32)
    assert same_bits(*both(big, np.ones((4, 20), F32), [2, 2], None))  # overflow to inf


@needs_library
def test_blocks_must_cut_k() -> None:
    with pytest.raises(ValueError, match="do not cut"):
        native.fma_blocks(np.ones((2, 3), F32), np.ones((3, 2), F32), [2], None)


@needs_library
@pytest.mark.parametrize("seed", range(6))
def test_elementwise_fma_as_the_numpy_path(seed: int) -> None:
    """fma.fma32 on float32 operands (addcmul_, lerp_ in the optimizers): compiled and numpy, the same bits, with
    broadcasting, a float32 scalar, midpoints (the case above, elementwise) and subnormal results."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((40, 30)).astype(F32) * F32(2.0 ** rng.integers(-70, 10))
    b = rng.standard_normal(30).astype(F32) * F32(2.0 ** rng.integers(-70, 10))
    c = rng.standard_normal((40, 30)).astype(F32) * F32(2.0 ** rng.integers(-140, 10))
    u = 2.0**-23
    a[0, :4], b[:4], c[0, :4] = 2.0**-24 * (1 + u), [1 - u, 1 + u, -1 + u, 1.0], [1 + u, 1 + u, 1 + u, -(1 + u)]
    cases = [(a, b, c), (F32(0.1), a, c), (a, F32(-3.0), c[0])]
    for x, y, z in cases:
        compiled = native.fma32(x, y, z)
        assert compiled is not None
        with native.switched_off():
            plain = fma.fma32(x, y, z)
        assert same_bits(compiled, np.asarray(plain))
    assert native.fma32(a, b, 1.0) is None and native.fma32(a[:1, :1], b[:1], c[:1, :1]) is None


@needs_library
def test_axpy_as_the_optimizers_numpy_formula() -> None:
    """The optimizers' ``y + alpha * x`` (float64, rounded to float32), compiled: the same bits as the formula."""
    rng = np.random.default_rng(3)
    for alpha in (0.9, -1e-6, 1 - 0.999, 5e-4, -(2.0**-20)):
        y = rng.standard_normal((30, 70)).astype(F32) * F32(2.0 ** rng.integers(-30, 30))
        x = rng.standard_normal((30, 70)).astype(F32) * F32(2.0 ** rng.integers(-30, 30))
        a = float(F32(alpha))
        compiled = native.axpy_f64(y, a, x.T.copy().T)  # any layout
        assert compiled is not None
        assert same_bits(compiled, (y.astype(np.float64) + a * x.astype(np.float64)).astype(F32))
    assert native.axpy_f64(y, 0.5, x[:, :1]) is None and native.axpy_f64(y.astype(np.float64), 0.5, x) is None


ADAM = """
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(7, 40), torch.nn.ReLU(), torch.nn.Linear(40, 3))
opt = torch.optim.{opt}(net.parameters(), lr=0.01{extra})
x, y = torch.randn(30, 7), torch.randn(30, 3)
for t in range(15):
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(loss.item(), [p.sum().item() for p in net.parameters()], net[0].weight[3, :4].tolist())
"""


@needs_library
@pytest.mark.parametrize(
    ("opt", "extra"),
    [("Adam", ""), ("Adam", ", weight_decay=0.1"), ("AdamW", ""), ("Adam", ", maximize=True, betas=(0.5, 0.6)")],
)
def test_adam_step_as_the_numpy_path(opt: str, extra: str) -> None:
    """Adam's update compiled in one pass (engine/optim/adaptive.py): every printed value, at full precision, the
    same as with the numpy path, step after step."""
    code = ADAM.format(opt=opt, extra=extra)
    compiled = engine.run(code)
    with native.switched_off():
        plain = engine.run(code)
    assert compiled.error is None and plain.error is None
    assert compiled.stdout == plain.stdout and compiled.stdout.count("\n") == 15


@needs_library
def test_box_muller_as_the_numpy_path() -> None:
    """torch.randn's float32 Box-Muller (engine/random.py), compiled: the same bits on 400,000 uniforms drawn as
    PyTorch draws them (24-bit), their extremes (0 and 1 - 2^-24) included, for several means and stds."""
    rng = np.random.default_rng(4)
    u = (rng.integers(0, 2**24, (25_000, 16)) * 2.0**-24).astype(F32)
    u[0, :] = 0.0
    u[1, :] = F32(1 - 2.0**-24)
    for std, mean in ((1.0, 0.0), (0.3, 2.5), (1e-3, -7.0)):
        compiled = engine_random._box_muller16(u, mean, std)
        assert same_bits(compiled, native.box_muller16_f32(u, float(F32(std)), float(F32(mean))))  # (the compiled one)
        with native.switched_off():
            plain = engine_random._box_muller16(u, mean, std)
        assert same_bits(compiled, plain)


def _sums_of(a: np.ndarray) -> list[np.ndarray]:
    """``torch_sum`` of ``a`` over every axis, every pair of axes and all of it, kept or not."""
    with np.errstate(all="ignore"):  # inf - inf, overflow: silently, as in PyTorch
        out = [summation.torch_sum(a, None, False), summation.torch_sum(a, None, True)]
        for axes in [(d,) for d in range(a.ndim)] + [(d, e) for d in range(a.ndim) for e in range(d + 1, a.ndim)]:
            out += [summation.torch_sum(a, axes, False), summation.torch_sum(a, axes, True)]
    return out


@needs_library
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cascade_sums_as_the_numpy_path(dtype: type) -> None:
    """x.sum(dims) in PyTorch's order (engine/numerics/summation.py), compiled: the same bits as the numpy path on
    random shapes (1 to 70,000 elements, transposed views too) and on values of every size, signed zeros, subnormals,
    infinities and NaN."""
    assert (
        native.cascade_sum("row", np.ones((5, 3), dtype)) is not None
        and native.inner_sums(np.ones((2, 9), dtype)) is not None
    )
    rng = np.random.default_rng(14)
    shapes = [(1,), (3,), (7,), (8,), (9,), (16,), (17,), (100,), (1000,), (4099,), (70_000,), (2, 3), (16, 2)]
    shapes += [(16, 10), (3, 33), (33, 3), (64, 129), (5, 7, 9), (2, 3, 4, 5), (300, 40), (1, 513), (513, 1)]
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38, -3e38, 1e-310], np.float64)
    for shape in shapes:
        for kind in range(3):
            a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-6, 7, shape)).astype(dtype)
            if kind == 1:
                a.reshape(-1)[rng.integers(0, a.size, max(1, a.size // 5))] = -0.0
            elif kind == 2:
                flat = a.reshape(-1)
                flat[rng.integers(0, a.size, 3)] = rng.choice(specials, 3).astype(dtype)
            for view in (a, a.T):
                compiled = _sums_of(view)
                with native.switched_off():
                    plain = _sums_of(view)
                for c, p in zip(compiled, plain):
                    assert c.dtype == p.dtype and c.shape == p.shape
                    assert np.array_equal(c.view(f"u{c.itemsize}"), p.view(f"u{p.itemsize}")), (shape, kind)

"""engine/numerics/layer_norm.py and layer_norm_backward.py against PyTorch 2.13 (one thread): layer norm's forward
and backward bit for bit.

Every normalized size from 1 to 300 (each vector count, chunk count and scalar tail of the Welford cascade), larger
ones that fill several cascade levels, and multi-dimensional normalized shapes; float32 and float64; with both
the weight and the bias, either alone, or neither (``elementwise_affine=False``); the output, the saved mean and
rstd, through ``F.layer_norm`` and ``nn.LayerNorm``; the input's, weight's and bias's gradients.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from engine.facade import make_modules
from engine.numerics.layer_norm import layer_norm_rows
from engine.run_state import RunState, use_state
from engine.tensor import Tensor

SIZES = list(range(1, 301)) + [383, 384, 385, 511, 1000, 1024, 2049, 4099]
AFFINE = list(itertools.product((True, False), repeat=2))
DTYPES = [np.float32, np.float64]


def _inputs(rows: int, size: int, dtype: type, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scale, offset = (3.0, 1.0) if seed % 3 else (0.01, 50.0)  # some rows far from zero: a mean that matters
    x = (rng.standard_normal((rows, size)) * scale + offset).astype(dtype)
    return x, rng.standard_normal(size).astype(dtype), rng.standard_normal(size).astype(dtype)


def _torch_layer_norm(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None) -> tuple[np.ndarray, ...]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        tw = None if w is None else torch.from_numpy(w)
        tb = None if b is None else torch.from_numpy(b)
        y, mean, rstd = torch.ops.aten.native_layer_norm(torch.from_numpy(x), [x.shape[-1]], tw, tb, 1e-5)
    finally:
        torch.set_num_threads(threads)
    return y.numpy(), mean.numpy().reshape(-1), rstd.numpy().reshape(-1)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("affine", AFFINE, ids=lambda a: f"weight{int(a[0])}-bias{int(a[1])}")
def test_layer_norm_forward_is_bit_exact_for_every_size(dtype: type, affine: tuple[bool, bool]) -> None:
    """All of SIZES on 3 rows each: y, mean and rstd equal torch's bit for bit (the shapes that differ are listed)."""
    wrong = []
    for size in SIZES:
        x, w, b = _inputs(3, size, dtype, size)
        w, b = (w if affine[0] else None), (b if affine[1] else None)
        want = _torch_layer_norm(x, w, b)
        mean, rstd, y = layer_norm_rows(x, w, b, 1e-5)
        if not all(np.array_equal(g, t) for g, t in zip((y, mean, rstd), want)):
            wrong.append(size)
    assert wrong == []


SHAPES = [((20, 5, 10), (10,)), ((20, 5, 10, 10), (5, 10, 10)), ((4, 3, 7), (3, 7)), ((2, 33), (33,)), ((9,), (9,))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "normalized"), SHAPES)
def test_f_layer_norm_and_module_are_bit_exact(shape: tuple[int, ...], normalized: tuple[int, ...], dtype: str) -> None:
    """Through the facade: ``F.layer_norm`` with weight and bias, ``nn.LayerNorm`` without affine, and the saved
    statistics (``_saved_result1``/``_saved_result2``) as torch's."""
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    x = rng.standard_normal(shape).astype(dtype) * 2 - 0.5
    w, b = rng.standard_normal(normalized).astype(dtype), rng.standard_normal(normalized).astype(dtype)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        tx = torch.tensor(x, requires_grad=True)
        want = torch.nn.functional.layer_norm(tx, normalized, torch.tensor(w), torch.tensor(b))
        plain = torch.nn.LayerNorm(normalized, elementwise_affine=False, dtype=getattr(torch, dtype))(tx)
    finally:
        torch.set_num_threads(threads)
    mods = make_modules()
    F, nn = mods["torch.nn.functional"], mods["torch.nn"]
    with use_state(RunState()):
        ox = Tensor._make(x).requires_grad_(True)
        got = F.layer_norm(ox, normalized, Tensor._make(w), Tensor._make(b))
        got_plain = nn.LayerNorm(normalized, elementwise_affine=False, dtype=getattr(mods["torch"], dtype))(ox)
        assert np.array_equal(got._data, want.detach().numpy())
        assert np.array_equal(got_plain._data, plain.detach().numpy())
        for field in ("result1", "result2"):
            saved = getattr(got.grad_fn, f"_saved_{field}")._data
            assert np.array_equal(saved, getattr(want.grad_fn, f"_saved_{field}").numpy())
        assert got.grad_fn.name() == want.grad_fn.name() == "NativeLayerNormBackward0"


def _torch_backward(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, dy: np.ndarray) -> list[np.ndarray]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        tx = torch.tensor(x, requires_grad=True)
        tw, tb = (None if a is None else torch.tensor(a, requires_grad=True) for a in (w, b))
        torch.nn.functional.layer_norm(tx, [x.shape[-1]], tw, tb).backward(torch.tensor(dy))
    finally:
        torch.set_num_threads(threads)
    return [t.grad.numpy() for t in (tx, tw, tb) if t is not None]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("affine", AFFINE, ids=lambda a: f"weight{int(a[0])}-bias{int(a[1])}")
def test_layer_norm_backward_is_bit_exact_for_every_size(dtype: type, affine: tuple[bool, bool]) -> None:
    """LayerNormBackward's input, weight and bias gradients over SIZES (3 rows each), through the node's backward."""
    F = make_modules()["torch.nn.functional"]
    wrong = []
    for size in SIZES:
        x, w, b = _inputs(3, size, dtype, size + 1)
        w, b = (w if affine[0] else None), (b if affine[1] else None)
        dy = np.random.default_rng(size).standard_normal((3, size)).astype(dtype)
        want = _torch_backward(x, w, b, dy)
        with use_state(RunState()):
            ox = Tensor._make(x).requires_grad_(True)
            ow, ob = (None if a is None else Tensor._make(a).requires_grad_(True) for a in (w, b))
            F.layer_norm(ox, (size,), ow, ob).backward(Tensor._make(dy))
            got = [t._grad._data for t in (ox, ow, ob) if t is not None]
        if not all(np.array_equal(g, t) for g, t in zip(got, want)):
            wrong.append(size)
    assert wrong == []


def test_the_docs_layer_norm_examples_backward_prints_like_torch() -> None:
    """nn.LayerNorm over (20, 5, 10) and over [C, H, W] as in its docstring, then a backward through each."""
    from tests.engine.helpers import run_ours, run_torch

    code = (
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nembedding = torch.randn(20, 5, 10, requires_grad=True)\n"
        "layer_norm = nn.LayerNorm(10)\nout = layer_norm(embedding)\n(out * torch.randn(20, 5, 10)).sum().backward()\n"
        "print(out[3], embedding.grad[7], layer_norm.weight.grad, layer_norm.bias.grad)\n"
        "x = torch.randn(20, 5, 10, 10, requires_grad=True)\nln = nn.LayerNorm([5, 10, 10])\ny = ln(x)\n"
        "(y ** 2).mean().backward()\nprint(y[1, 2, 3], x.grad[4, 1, 2].sum().item(), ln.weight.grad.sum().item())\n"
    )
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the truth of the corpus is made: the weight's gradient is summed on one thread
    try:
        want = run_torch(code)
    finally:
        torch.set_num_threads(threads)
    assert run_ours(code) == want

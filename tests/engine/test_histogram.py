"""torch.histogram against PyTorch: counts, edges, density, explicit edges, weights, a single value, and its
printing (makemore computes the histograms of its layers' activations)."""

from __future__ import annotations

import contextlib
import io

import pytest
import torch

import engine

SETUP = "import torch\ng = torch.Generator().manual_seed(1)\nt = torch.randn(1000, generator=g) * 2\n"
HIST_CASES = [
    "torch.histogram(t, density=True)",
    "torch.histogram(t)",
    "torch.histogram(torch.tensor([1., 2., 1.]), bins=4, range=(0., 3.))",
    "torch.histogram(t, bins=torch.tensor([-1., 0., 0.5, 2.]))",
    "torch.histogram(torch.tensor([2., 2.]), bins=3)",
    "t.histogram(5, weight=t.abs())",
    "torch.histogram(t, 7, range=(-1.0, 1.0), density=True)",
    "torch.histogram(t.double(), 10)",
    "torch.histogram(torch.arange(10.), 3).hist",
]


def _torch(code: str) -> str:
    """What PyTorch prints with one thread (the engine's model: the kernel's per-thread histograms are added last)."""
    out, threads = io.StringIO(), torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {})  # trusted test code only
    finally:
        torch.set_num_threads(threads)
    return out.getvalue()


@pytest.mark.parametrize("expr", HIST_CASES)
def test_histogram_matches_torch(expr: str) -> None:
    code = SETUP + f"print({expr})\n"
    assert engine.run(code).stdout == _torch(code)


def test_histogram_of_integers_is_refused_as_in_torch() -> None:
    code = "import torch\ntorch.histogram(torch.arange(5), 2)\n"
    with pytest.raises(RuntimeError) as caught:
        _torch(code)
    error = engine.run(code).error
    assert error is not None and (error["type"], error["message"]) == (type(caught.value).__name__, str(caught.value))

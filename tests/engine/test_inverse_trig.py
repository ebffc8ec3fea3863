"""``torch.asin``/``acos``/``atan`` (and ``arcsin``/``arccos``/``arctan``, the methods, the in-place forms): values,
gradients and second derivatives compared with real PyTorch on the same inputs (one row of engine/ops/elementwise.py
TABLE each)."""

from __future__ import annotations

import pytest

import engine
from tests.oracle import torch_stdout

FUNCTIONS = ["asin", "acos", "atan", "arcsin", "arccos", "arctan"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_values_gradients_and_second_derivatives_match_pytorch(name: str) -> None:
    code = (
        "import torch\n"
        "x = (torch.rand(7) * 1.8 - 0.9).requires_grad_()\n"
        f"y = torch.{name}(x)\n"
        "print(y)\n"
        "(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)\n"
        "print(g)\n"
        "print(torch.autograd.grad(g.sum(), x))\n"
        f"print(x.detach().{name}(), torch.{name}(torch.tensor([1.0, -1.0, 0.0], dtype=torch.float64)))\n"
    )
    result = engine.run(code, seed=11)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=11)


@pytest.mark.parametrize("name", ["asin_", "acos_", "atan_"])
def test_in_place_forms_match_pytorch(name: str) -> None:
    code = f"import torch\nx = torch.tensor([0.25, -0.5, 0.75])\nx.{name}()\nprint(x)\n"
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code)

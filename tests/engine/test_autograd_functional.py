"""engine/autograd_functional.py against PyTorch: jacobian, hessian and vjp."""

from __future__ import annotations

import pytest

from tests.engine.helpers import run_ours, run_torch

PROGRAMS = [
    "print(AF.jacobian(lambda x: x ** 2 * x.sum(), torch.tensor([1.0, 2.0, 3.0])))",
    "print(AF.jacobian(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))",
    "print(AF.jacobian(lambda x: (x.exp(), x.sin()), torch.tensor([0.5, 1.0])))",
    "print(AF.hessian(lambda x: (x ** 3).sum() + x[0] * x[1], torch.tensor([1.0, 2.0])))",
    "print(AF.hessian(lambda x: torch.tanh(x).prod(), torch.tensor([0.3, -0.2, 0.1])))",
    "print(AF.vjp(lambda x: x.exp(), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])))",
    "print(AF.jacobian(lambda x: x @ torch.ones(2, 3), torch.ones(2, 2)).shape)",
]


@pytest.mark.parametrize("body", PROGRAMS)
def test_functional_matches_torch(body: str) -> None:
    code = "import torch\nimport torch.autograd.functional as AF\n" + body + "\n"
    assert run_ours(code) == run_torch(code)

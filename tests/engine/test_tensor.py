"""Tensor basics and factories against PyTorch: creation, dtypes, shapes, conversions, comparisons."""

from __future__ import annotations

import pytest

from tests.engine.helpers import run_ours, run_torch

EXPRS = [
    "torch.tensor(2.0)",
    "torch.tensor(3)",
    "torch.tensor(True)",
    "torch.tensor([1, 2.5])",
    "torch.tensor([[1, 2], [3, 4]])",
    "torch.tensor([True, False])",
    "torch.tensor([])",
    "torch.tensor([[1., 2.]], dtype=torch.float64)",
    "torch.tensor([1, 2], dtype=torch.float32)",
    "torch.tensor([torch.tensor(1.), torch.tensor(2.)])",
    "torch.tensor(range(100))",  # MIT 6.S191 lab 1: count_to_100 = torch.tensor(range(100))
    "torch.tensor([range(3), range(3, 6)], dtype=torch.float32)",
    "torch.tensor([range(2), [1.5, 2]])",
    "torch.tensor(range(0))",
    "torch.subtract(torch.tensor([1., 2.]), 1, alpha=2)",  # MIT 6.S191 lab 1: d = torch.subtract(b, 1)
    "torch.tensor([3., 4.]).subtract_(torch.tensor(1.))",
    "torch.divide(torch.tensor([1., 2.]), 4)",
    "torch.true_divide(torch.tensor([1, 2]), 4)",
    "torch.tensor([1., 2.]).divide_(2)",
    "torch.tensor([1., 2.]).multiply_(3)",
    "torch.zeros(2, 3)",
    "torch.ones((2, 2), dtype=torch.int64)",
    "torch.full((2,), 7)",
    "torch.full((2, 2), 1.5)",
    "torch.arange(5)",
    "torch.arange(1, 4)",
    "torch.arange(0, 1, 0.25)",
    "torch.arange(5.)",
    "torch.linspace(0, 1, 5)",
    "torch.linspace(-3, 3, 7)",
    "torch.eye(3)",
    "torch.eye(2, 3)",
    "torch.zeros_like(torch.ones(2, 2))",
    "torch.ones_like(torch.tensor([1, 2]))",
    "torch.full_like(torch.ones(2), 3.)",
    "torch.empty(2, 0)",
    "torch.tensor([1, 2]) * 2.5",
    "torch.tensor([1, 2]) / 2",
    "torch.tensor([1, 2]) // 2",
    "torch.tensor([3, 4]) % 3",
    "torch.tensor([1, 2]) + torch.tensor([0.5, 0.5])",
    "torch.tensor([1., 2.]) + torch.tensor(1, dtype=torch.int64)",
    "torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(1)",
    "torch.tensor([True]) + 1",
    "torch.tensor([1., 2.], dtype=torch.float64) * 2",
    "torch.tensor(3) ** 2",
    "torch.tensor(3) ** -1.0",
    "torch.tensor([1., 2.]) > 1.5",
    "torch.tensor([1., 2.]) == torch.tensor([1., 3.])",
    "torch.tensor([1, 2]).float()",
    "torch.tensor([1.7, -2.2]).long()",
    "torch.tensor([1., 0.]).bool()",
    "torch.tensor([1., 2.]).double()",
    "torch.tensor([[1., 2.], [3., 4.]]).shape",
    "torch.tensor([[1., 2.], [3., 4.]]).size(1)",
    "torch.tensor([[1., 2.], [3., 4.]]).dim()",
    "torch.ones(2, 3, 4).numel()",
    "torch.tensor([1., 2.]).dtype",
    "torch.tensor([[1., 2.], [3., 4.]]).tolist()",
    "torch.tensor(2.5).item()",
    "torch.tensor([7]).item()",
    "len(torch.ones(4, 2))",
    "[t for t in torch.tensor([[1., 2.], [3., 4.]])]",
    "float(torch.tensor(2.5))",
    "int(torch.tensor(3))",
    "bool(torch.tensor(1.))",
    "torch.tensor([1., 2.]).sum().item()",
    "torch.tensor([1., 2., 3.]).argmax()",
    "torch.tensor([[1., 5.], [3., 4.]]).argmax(dim=1)",
    "torch.tensor([1., 2.]).requires_grad",
    "torch.tensor([1., 2.]).is_leaf",
    "torch.tensor([1, 2]).sum()",
    "torch.tensor([True, True]).sum()",
    "torch.tensor([[1, 2], [3, 4]]).max()",
    "torch.tensor([1., 2.]).device",
    "torch.tensor([[1., 5.], [3., 4.]]).max(dim=1)",
    "torch.tensor([2.0]).type()",
    "torch.Size([2, 3])",
    "torch.tensor([1., 2.]).is_floating_point()",
    "torch.tensor([1, 2]).dtype",
    "f'{torch.tensor(2.0):.3f}'",
    "torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.000001]))",
    "torch.where(torch.tensor([1., -1.]) > 0, 1., 0.)",
]


@pytest.mark.parametrize("expr", EXPRS)
def test_expr_prints_like_torch(expr: str) -> None:
    code = f"import torch\nprint(repr({expr}))\nprint(str({expr}))"
    assert run_ours(code) == run_torch(code)


ERRORS = [
    "torch.tensor([[1, 2], [3]])",
    "torch.tensor(['a'])",
    "torch.tensor([1., 2.]).item()",
    "bool(torch.tensor([1., 2.]))",
    "torch.zeros(2, 3).view(4)",
    "torch.ones(2).t().view(-1, -1)",
    "torch.tensor([1, 2]) ** -1",
    "torch.zeros(-1)",
    "torch.ones(3)[3]",
    "torch.tensor([range(2), range(3)])",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_like_torch(expr: str) -> None:
    code = f"import torch\n{expr}"
    with pytest.raises(Exception) as want:
        run_torch(code)
    with pytest.raises(Exception) as got:
        run_ours(code)
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


PROGRAM_ERRORS = [
    "nn.Linear(2, 4)(torch.ones(1, 3))",
    "nn.Linear(2, 4)(torch.ones(3))",
    "nn.Linear(2, 4)(torch.ones(5, 2, 3))",
    "torch.ones(2, 3) @ torch.ones(2)",
    "torch.ones(3) @ torch.ones(2, 3)",
    "torch.ones(3) @ torch.ones(2)",
    "torch.ones(2, 2, 3) @ torch.ones(2, 2, 3)",
    "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5]))",
    "F.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0]))",
    "torch.ones(2, 3).sum(dim=3)",
    "torch.ones(2, 3).transpose(0, 2)",
    "torch.ones(2, 3)[2]",
    "torch.ones(2, 3)[:, 5]",
    "torch.ones(3).unsqueeze(3)",
    "torch.tensor([1., 2.]).backward()",
    "torch.ones(2, requires_grad=True).numpy()",
    "x = torch.ones(2, requires_grad=True)\ny = x.exp()\ny.backward(torch.ones(2, 2))",
    "torch.ones(2, 3).expand(4, 3)",
    "torch.ones(2, 3).view(3, -1, 4)",
    "torch.cat([torch.ones(2, 3), torch.ones(2, 4)])",
    "torch.ones(2, 3).max(dim=2)",
    "torch.zeros(2).item()",
    "torch.optim.SGD([], lr=0.1)",
    "torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1)",
    "torch.randn(2, 3).mean(dim=-3)",
]


@pytest.mark.parametrize("code", PROGRAM_ERRORS)
def test_program_errors_like_torch(code: str) -> None:
    code = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + code
    with pytest.raises(Exception) as want:
        run_torch(code)
    with pytest.raises(Exception) as got:
        run_ours(code)
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)

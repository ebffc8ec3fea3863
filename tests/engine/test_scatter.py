"""engine/ops/scatter.py and engine/ops/robust_losses.py against PyTorch 2.13: scatter / scatter_add / index_add
(out of place, in place, as torch functions), smooth L1 and Huber losses (F. forms and modules): values, printing,
grad_fn names, gradients (to float32 rounding: rtol 1e-5), second derivatives, and PyTorch's errors. Scatter and
index_add values are asserted bit for bit (copies, and additions in index order)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from tests.engine.helpers import namespaces, run_ours, run_torch
from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives
from tests.engine.test_ops import test_op_matches_torch as check_op

# on test_ops's inputs: m is (2, 3), n is (3, 4), x, p, c are (3,), k = [0, 2, 1]
CASES = [
    "m.scatter(1, torch.tensor([[2, 0], [1, 1]]), m[:, :2] * 3)",
    "torch.scatter(n, 0, torch.tensor([[2, 0, 1, 0]]), b.view(1, 4))",
    "m.scatter(0, torch.tensor([[1, 0, 1]]), 2.5)",
    "x.scatter(0, k, p)",
    "(m * 1).scatter_(1, torch.tensor([[0], [2]]), x.view(3, 1)[:2])",
    "m.scatter_add(1, torch.tensor([[2, 2], [0, 0]]), m[:, 1:] * 2)",
    "torch.scatter_add(x, 0, torch.tensor([0, 0, 1]), c)",
    "(x * 2).scatter_add_(0, torch.tensor([2, 2]), p[:2])",
    "torch.zeros(3).scatter_add(0, k, x)",
    "n.index_add(0, torch.tensor([2, 0]), m.t()[:2].repeat(1, 2)[:, :4] * 1)",
    "x.index_add(0, torch.tensor([1, 1, 0]), p, alpha=2)",
    "torch.index_add(m, 1, torch.tensor([0, 2]), m[:, :2])",
    "(m * 1).index_add_(1, torch.tensor([2]), x[:2].view(2, 1))",
    "F.smooth_l1_loss(x, c)",
    "F.smooth_l1_loss(m * 2, m.detach(), reduction='sum', beta=0.5)",
    "F.smooth_l1_loss(x, p, reduction='none')",
    "F.smooth_l1_loss(x, c, beta=0.0)",
    "F.huber_loss(x * 3, c)",
    "F.huber_loss(m, x, reduction='none', delta=0.3)",
    "F.huber_loss(x, p, reduction='sum', delta=2.0)",
]


@pytest.mark.parametrize("expr", CASES)
def test_scatter_and_robust_losses_match_torch(expr: str) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's broadcasting note of huber_loss(m, x)
        check_op(expr)


@pytest.mark.parametrize(
    "expr",
    [
        "x.scatter(0, torch.tensor([2, 0, 1]), x * 3.7)",
        "x.scatter_add(0, torch.tensor([1, 1, 1]), x / 3)",
        "torch.zeros(5).index_add(0, torch.tensor([4, 4, 0]), x * 1.1, alpha=0.7)",
    ],
)
def test_scatter_values_are_bit_exact(expr: str) -> None:
    tns, ons = namespaces()
    values = np.array([0.3, -0.7, 1.1], dtype=np.float32)
    want = eval(expr, {**tns, "x": torch.tensor(values)})
    with use_state(RunState()):
        got = eval(expr, {**ons, "x": ons["torch"].tensor(values.tolist())})
    assert np.array_equal(got._data, want.numpy())


HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

PROGRAMS = [
    "src = torch.arange(1, 11).reshape((2, 5))\nindex = torch.tensor([[0, 1, 2, 0]])\n"
    "print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, index, src))\n"
    "index = torch.tensor([[0, 1, 2], [0, 1, 4]])\nprint(torch.zeros(3, 5, dtype=src.dtype).scatter_(1, index, src))\n"
    "print(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23))",
    "src = torch.ones((2, 5))\nindex = torch.tensor([[0, 1, 2, 0, 0]])\n"
    "print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))\n"
    "index = torch.tensor([[0, 1, 2, 0, 0], [0, 1, 2, 2, 2]])\n"
    "print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))",
    "x = torch.ones(5, 3)\nt = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)\n"
    "index = torch.tensor([0, 4, 2])\nprint(x.index_add_(0, index, t))\nprint(x.index_add_(0, index, t, alpha=-1))",
    "labels = torch.tensor([2, 0, 1])\nprint(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), 1.0))\n"
    "w = torch.tensor([1., 2., 3.], requires_grad=True)\n"
    "y = torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), w.view(1, 3))\n"
    "print(y)\n(y * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward()\nprint(w.grad)",
    "print(nn.SmoothL1Loss(), nn.HuberLoss(), nn.HuberLoss(delta=2.0), nn.SmoothL1Loss(beta=0.5))\n"
    "a = torch.tensor([0.5, -2., 3., 0.1], requires_grad=True)\nb = torch.tensor([0., 0., 1., 0.3])\n"
    "l1 = nn.SmoothL1Loss()(a, b)\nl2 = nn.HuberLoss(delta=0.5, reduction='sum')(a, b)\nprint(l1, l2)\n"
    "(l1 + l2).backward()\nprint(a.grad)\nprint(nn.SmoothL1Loss(reduction='none', beta=2.)(a, b))",
    "torch.manual_seed(0)\nm = nn.Linear(3, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\nx = torch.randn(16, 3)\n"
    "y = x.sum(1, keepdim=True) * 2 + 0.5\nfor i in range(5):\n    opt.zero_grad()\n"
    "    loss = F.smooth_l1_loss(m(x), y)\n"
    "    loss.backward()\n    opt.step()\n    print(loss.item())",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_scatter_and_loss_programs_print_like_torch(code: str) -> None:
    assert run_ours(HEADER + code) == run_torch(HEADER + code)


ERRORS = [
    "torch.zeros(3).scatter_(0, torch.tensor([3]), 1.0)",
    "torch.zeros(3).scatter_(0, torch.tensor([1.]), 1.0)",
    "torch.zeros(3, 2).scatter_(0, torch.tensor([1]), 1.0)",
    "torch.zeros(3).index_add_(0, torch.tensor([3]), torch.ones(1))",
    "torch.zeros(3).index_add_(0, torch.tensor([1, 2]), torch.ones(1))",
    "torch.zeros(3).scatter_add(0, torch.tensor([1]), torch.ones(1, dtype=torch.long))",
    "torch.zeros(3).index_add(0, torch.tensor([1]), torch.ones(1, dtype=torch.long))",
    "F.smooth_l1_loss(torch.zeros(3), torch.zeros(3), beta=-1.)",
    "F.huber_loss(torch.zeros(3), torch.zeros(3), delta=0.)",
    "torch.zeros(3).scatter(0, [0], 1.)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_match_torch(expr: str) -> None:
    tns, ons = namespaces()
    with pytest.raises(Exception) as want:
        eval(expr, tns)
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, ons)
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


@pytest.mark.parametrize(
    "expr",
    [
        "torch.zeros(2).scatter_add(0, torch.tensor([0, 1, 0]), x ** 3).pow(2).sum()",
        "(x ** 2).scatter(0, torch.tensor([2, 0]), x[:2] ** 3).pow(2).sum()",
        "torch.ones(2).index_add(0, torch.tensor([1, 1, 0]), x ** 2, alpha=3).pow(3).sum()",
        "F.smooth_l1_loss(x ** 2, torch.zeros(3), beta=0.5)",
        "F.huber_loss(x * x * 2, -x, delta=0.4)",
    ],
)
def test_second_derivatives_like_torch(expr: str) -> None:
    check_second_derivatives(expr)

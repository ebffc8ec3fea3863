"""engine/ops/spatial_nll.py against PyTorch 2.13 (one thread): ``F.nll_loss``/``nn.NLLLoss`` on inputs of 3, 4 and
5 dimensions (N, C, d1, …, dk), with ``weight=``, ``ignore_index=`` and the three reductions: the loss and the
input's gradient bit for bit, the graph's node names (``NllLoss2DBackward0``, the ``ViewBackward0`` nodes around it
for 3-D and 5-D inputs), the node's saved values, and PyTorch's errors in PyTorch's order.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from engine.facade import make_modules
from engine.run_state import RunState, use_state
from engine.tensor import Tensor
from tests.engine.helpers import namespaces
from tests.engine.test_ops import test_op_matches_torch as check_op

# on test_ops's inputs (t3 is (2, 3, 4)): through test_ops's checks, and test_formulas's every-op-runs test
CASES = [
    "F.nll_loss(F.log_softmax(t3, dim=1), torch.tensor([[0, 1, 2, 1], [2, 2, 0, -100]]))",
    "F.nll_loss(t3.view(1, 2, 3, 4), torch.tensor([[[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]]]), reduction='none')",
    "F.cross_entropy(t3.view(2, 3, 2, 2), torch.tensor([[[0, 1], [2, 1]], [[2, 2], [0, 1]]]), torch.tensor([1., 2., .5]))",
]


@pytest.mark.parametrize("expr", CASES)
def test_nll_on_maps_through_the_op_checks(expr: str) -> None:
    check_op(expr)


SHAPES = [(5, 4, 8, 8), (2, 3, 4, 5), (3, 6, 7), (2, 3, 2, 3, 2), (1, 2, 1, 1), (4, 5, 33, 17)]
OPTIONS = list(itertools.product(("mean", "sum", "none"), (False, True), (-100, 1)))


def _chain(t: object) -> list[str]:
    names, fn = [], t.grad_fn  # type: ignore[attr-defined]
    while fn is not None:
        names.append(fn.name())
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _case(shape: tuple[int, ...], seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2).astype(np.float32)
    target = rng.integers(0, shape[1], (shape[0], *shape[2:]))
    weight = (rng.random(shape[1]) * 2).astype(np.float32)
    upstream = rng.standard_normal((shape[0], *shape[2:])).astype(np.float32)
    return x, target, weight, upstream


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_nll_loss_on_maps_is_bit_exact(shape: tuple[int, ...]) -> None:
    """Every reduction, with and without weight and an ignored class: loss, gradient, graph and saved values."""
    F = make_modules()["torch.nn.functional"]
    for i, (reduction, weighted, ignore) in enumerate(OPTIONS):
        x, target, weight, upstream = _case(shape, i + sum(shape))
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            tx = torch.tensor(x, requires_grad=True)
            tw = torch.tensor(weight) if weighted else None
            want = torch.nn.functional.nll_loss(tx, torch.tensor(target), tw, ignore_index=ignore, reduction=reduction)
            tnode = want.grad_fn if reduction != "none" or len(shape) == 4 else want.grad_fn.next_functions[0][0]
            saved = (tnode._saved_reduction, tnode._saved_ignore_index, tnode._saved_total_weight.numpy())
            (want * torch.tensor(upstream) if reduction == "none" else want * 1.5).sum().backward()
        finally:
            torch.set_num_threads(threads)
        with use_state(RunState()):
            ox = Tensor._make(x).requires_grad_(True)
            ow = Tensor._make(weight) if weighted else None
            got = F.nll_loss(ox, Tensor._make(target), ow, ignore_index=ignore, reduction=reduction)
            node = got.grad_fn if reduction != "none" or len(shape) == 4 else got.grad_fn.next_functions[0][0]
            assert node.name() == tnode.name() == "NllLoss2DBackward0"
            assert (node._saved_reduction, node._saved_ignore_index) == saved[:2]
            assert np.array_equal(node._saved_total_weight._data, saved[2])
            (got * Tensor._make(upstream) if reduction == "none" else got * 1.5).sum().backward()
            where = (shape, reduction, weighted, ignore)
            assert np.array_equal(got._data, want.detach().numpy(), equal_nan=True), where
            assert np.array_equal(ox._grad._data, tx.grad.numpy(), equal_nan=True), where
            assert np.array_equal(np.signbit(ox._grad._data), np.signbit(tx.grad.numpy())), (
                where
            )  # no -0 where torch has 0
            assert _chain(got) == _chain(want)[:-1] + ["AccumulateGrad"] or _chain(got) == _chain(want), where


def test_the_docs_image_example_and_cross_entropy_on_maps_print_like_torch() -> None:
    from tests.engine.helpers import run_ours, run_torch

    code = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "N, C = 5, 4\nloss_fn = nn.NLLLoss()\ndata = torch.randn(N, 16, 10, 10)\nconv = nn.Conv2d(16, C, (3, 3))\n"
        "m = nn.LogSoftmax(dim=1)\ntarget = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)\n"
        "output = m(conv(data))\nloss = loss_fn(output, target)\nloss.backward()\nprint(loss, conv.weight.grad[0, 0])\n"
        "x = torch.randn(2, 3, 4, requires_grad=True)\nt = torch.tensor([[0, 1, 2, 1], [2, 2, 0, -100]])\n"
        "l = F.cross_entropy(x, t, reduction='none')\nprint(l)\nl.sum().backward()\nprint(x.grad)\n"
        "print(nn.NLLLoss(weight=torch.tensor([1., 2., 3.]), reduction='sum')(x, t))\n"
    )
    assert run_ours(code) == run_torch(code)


ERRORS = [
    "F.nll_loss(x4, t3)",
    "F.nll_loss(x4, t4[:, :3])",
    "F.nll_loss(x4, t4[:1])",
    "F.nll_loss(x3, t3[:, :2])",
    "F.nll_loss(x3, t4)",
    "F.nll_loss(x5, t4)",
    "F.nll_loss(x4, t4, weight=torch.ones(4))",
    "F.nll_loss(x3, t3, weight=torch.ones(2))",
    "F.nll_loss(x4, t4 + 3)",
    "F.nll_loss(x3, t3 + 3)",
    "F.nll_loss(x4, t4 * 0 - 1, reduction='none')",
    "F.nll_loss(x4, t4.float())",
    "F.nll_loss(x3, t3.int())",
    "F.nll_loss(x4, t4[:1].float())",
    "F.nll_loss(x4, t4.float(), weight=torch.ones(4))",
    "F.nll_loss(x4, t4[:, :2], weight=torch.ones(4))",
    "F.nll_loss(x4, t4.to(torch.uint8))",
    "F.nll_loss(x4, t4 + 5, weight=torch.ones(3).double())",
    "F.nll_loss(x4, t4, weight=torch.ones(3, requires_grad=True))",
    "F.nll_loss(x4, t4, reduction='bad')",
    "F.nll_loss(x4, t4, ignore_index=1.5)",
    "F.nll_loss(torch.randn(()), torch.tensor(0))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_match_torch(expr: str) -> None:
    tns, ons = namespaces()
    rng = np.random.default_rng(0)
    arrays = {
        "x4": rng.standard_normal((2, 3, 4, 5)).astype(np.float32),
        "x3": rng.standard_normal((2, 3, 4)).astype(np.float32),
        "x5": rng.standard_normal((2, 3, 2, 2, 2)).astype(np.float32),
        "t4": rng.integers(0, 3, (2, 4, 5)),
        "t3": rng.integers(0, 3, (2, 4)),
    }
    with pytest.raises(Exception) as want:
        eval(expr, {**tns, **{k: tns["torch"].tensor(v) for k, v in arrays.items()}})
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, {**ons, **{k: ons["torch"].tensor(v.tolist()) for k, v in arrays.items()}})
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


@pytest.mark.parametrize(
    "expr",
    [
        "F.nll_loss((x * x).view(1, 3, 1, 1).expand(1, 3, 2, 2) * x.view(1, 3, 1, 1), torch.tensor([[[0, 1], [2, 2]]]))",
        "(F.nll_loss(F.log_softmax((x ** 3).view(1, 3, 1) * x.view(1, 1, 3), 1), torch.tensor([[2, 0, 1]]), "
        "reduction='none') ** 2).sum()",
    ],
)
def test_nll_on_maps_has_second_derivatives_like_torch(expr: str) -> None:
    from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives

    check_second_derivatives(expr)

"""engine/ops/bce_logits.py against PyTorch 2.13 (one thread): ``F.binary_cross_entropy_with_logits`` and
``nn.BCEWithLogitsLoss`` with ``weight=`` and ``pos_weight=`` (broadcast per class), the three reductions: float32
loss and both gradients (input and target) bit for bit, float64 to 1e-12; the node's name and saved values; the
module's buffers; PyTorch's errors. Also SLEEF's log1p and ATen's log-sigmoid kernel (engine/numerics/sleef.py)
over 10^6 inputs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from engine.facade import make_modules
from engine.numerics.sleef import log1pf, log_sigmoid
from engine.run_state import RunState, use_state
from engine.tensor import Tensor
from tests.engine.helpers import namespaces, run_ours, run_torch
from tests.engine.test_ops import test_op_matches_torch as check_op

# on test_ops's inputs (m is (2, 3), x is (3,)): through test_ops's checks (and test_formulas's)
CASES = [
    "F.binary_cross_entropy_with_logits(m, torch.sigmoid(m * 2), pos_weight=torch.tensor([1., 2., .5]))",
    "F.binary_cross_entropy_with_logits(m, torch.ones(2, 3), torch.tensor([2., 1., 1.]), reduction='none')",
    "F.binary_cross_entropy_with_logits(x, x.sigmoid(), pos_weight=torch.tensor(3.), reduction='sum')",
]


@pytest.mark.parametrize("expr", CASES)
def test_bce_with_logits_through_the_op_checks(expr: str) -> None:
    check_op(expr)


SHAPES = [(3,), (10, 64), (7, 13), (4, 3, 5), (1, 37)]
OPTIONS = list(itertools.product(("mean", "sum", "none"), (False, True), (False, True)))


def test_log1p_and_log_sigmoid_are_sleefs_bits() -> None:
    rng = np.random.default_rng(0)
    unit = rng.random(10**6).astype(np.float32)
    wide = np.concatenate(
        [(rng.standard_normal(10**6) * 10).astype(np.float32), np.float32([0, -0.0, 1e-40, 88, -104])]
    )
    assert np.array_equal(log1pf(unit), torch.log1p(torch.from_numpy(unit)).numpy())
    assert np.array_equal(log_sigmoid(wide), torch.nn.functional.logsigmoid(torch.from_numpy(wide)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_bce_with_logits_matches_torch(shape: tuple[int, ...], dtype: str) -> None:
    F = make_modules()["torch.nn.functional"]
    for i, (reduction, weighted, positive) in enumerate(OPTIONS):
        rng = np.random.default_rng(i + sum(shape))
        x = (rng.standard_normal(shape) * 4).astype(dtype)
        t = rng.random(shape).astype(dtype)
        w = (rng.random(shape[-1:]) * 2).astype(dtype) if weighted else None
        pw = (rng.random(shape[-1:]) * 3).astype(dtype) if positive else None
        up = rng.standard_normal(shape).astype(dtype)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            tx, tt = torch.tensor(x, requires_grad=True), torch.tensor(t, requires_grad=True)
            tw, tpw = (None if a is None else torch.tensor(a) for a in (w, pw))
            want = torch.nn.functional.binary_cross_entropy_with_logits(tx, tt, tw, reduction=reduction, pos_weight=tpw)
            saved = (want.grad_fn.name(), want.grad_fn._saved_reduction)
            (want * torch.tensor(up) if reduction == "none" else want * 1.7).sum().backward()
        finally:
            torch.set_num_threads(threads)
        with use_state(RunState()):
            ox, ot = Tensor._make(x).requires_grad_(True), Tensor._make(t).requires_grad_(True)
            ow, opw = (None if a is None else Tensor._make(a) for a in (w, pw))
            got = F.binary_cross_entropy_with_logits(ox, ot, ow, reduction=reduction, pos_weight=opw)
            assert (got.grad_fn.name(), got.grad_fn._saved_reduction) == saved
            (got * Tensor._make(up) if reduction == "none" else got * 1.7).sum().backward()
            where = (reduction, weighted, positive)
            pairs = [(got._data, want), (ox._grad._data, tx.grad), (ot._grad._data, tt.grad)]
            for k, (ours, theirs) in enumerate(pairs):
                if dtype == "float32":
                    assert np.array_equal(ours, theirs.detach().numpy()), (k, where)
                else:
                    np.testing.assert_allclose(
                        ours, theirs.detach().numpy(), rtol=1e-12, atol=1e-14, err_msg=str(where)
                    )


def test_the_docs_example_and_the_module_print_like_torch() -> None:
    code = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "target = torch.ones([10, 64], dtype=torch.float32)\noutput = torch.full([10, 64], 1.5)\n"
        "pos_weight = torch.ones([64])\ncriterion = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)\n"
        "print(criterion(output, target))\nprint(criterion, list(criterion.state_dict().keys()))\n"
        "m = nn.BCEWithLogitsLoss(weight=torch.tensor([1., 2.]), reduction='sum', pos_weight=torch.tensor([3., .5]))\n"
        "x = torch.tensor([[0.3, -2.], [1.5, 4.]], requires_grad=True)\nl = m(x, torch.tensor([[1., 0.], [0.2, 1.]]))\n"
        "print(l, l.item())\nl.backward()\nprint(x.grad)\nprint(list(m.state_dict().keys()), m.pos_weight)\n"
        "print(F.binary_cross_entropy_with_logits(x, torch.ones(2, 2), pos_weight=torch.tensor(2.), reduction='none'))\n"
    )
    assert run_ours(code) == run_torch(code)


ERRORS = [
    "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(5))",
    "F.binary_cross_entropy_with_logits(x, t, weight=torch.ones(5))",
    "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(4, requires_grad=True))",
    "F.binary_cross_entropy_with_logits(x, t, weight=torch.ones(4, requires_grad=True))",
    "F.binary_cross_entropy_with_logits(x, t, pos_weight=[1.])",
    "F.binary_cross_entropy_with_logits(x, t, weight=2.0)",
    "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(3, 1, 1))",
    "F.binary_cross_entropy_with_logits(x, t[:2], pos_weight=torch.ones(4))",
    "nn.BCEWithLogitsLoss(pos_weight=[1.0])",
    "nn.BCEWithLogitsLoss(weight=3)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_match_torch(expr: str) -> None:
    tns, ons = namespaces()
    rng = np.random.default_rng(1)
    x, t = rng.standard_normal((3, 4)).astype(np.float32), rng.random((3, 4)).astype(np.float32)
    with pytest.raises(Exception) as want:
        eval(expr, {**tns, "nn": torch.nn, "x": torch.tensor(x), "t": torch.tensor(t)})
    T = ons["torch"]
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, {**ons, "nn": T.nn, "x": T.tensor(x.tolist()), "t": T.tensor(t.tolist())})
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


@pytest.mark.parametrize(
    "expr",
    [
        "F.binary_cross_entropy_with_logits(x * x, x.sigmoid(), pos_weight=torch.tensor([1., 2., 3.]))",
        "F.binary_cross_entropy_with_logits(x ** 3, torch.ones(3) * .3, torch.tensor([2., 1., .5]), reduction='sum')",
    ],
)
def test_bce_with_logits_has_second_derivatives_like_torch(expr: str) -> None:
    from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives

    check_second_derivatives(expr)

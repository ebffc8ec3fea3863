"""engine/ops/normalization.py (and engine/nn/normalization.py) against PyTorch 2.13: batch norm (training and
eval, running statistics as buffers, state_dict), layer norm, embedding: values, printing, grad_fn names,
gradients, module printing and PyTorch's errors.

What is asserted how: values and gradients ``allclose`` (rtol 1e-5; PyTorch's layer norm takes its moments with a
vectorised Welford, the engine in float64 rounded once), printing equal exactly at the default precision; the
embedding's lookup and its gradient bit for bit (a copy, and sums of the same values in the same order).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from tests.engine.helpers import namespaces, node_names, run_ours, run_torch
from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives
from tests.engine.test_ops import test_op_matches_torch as check_op

# on test_ops's inputs: t3 is (2, 3, 4), m is (2, 3), n is (3, 4), x and p are (3,), b is (4,), k = [0, 2, 1]
CASES = [
    "F.batch_norm(m, None, None, training=True)",
    "F.batch_norm(t3, torch.zeros(3), torch.ones(3), x, p, True)",
    "F.batch_norm(t3, torch.zeros(3) + 0.5, torch.ones(3) * 2, x, p)",
    "F.batch_norm(m, None, None, p, None, True, 0.1, 1e-3)",
    "F.layer_norm(m, (3,))",
    "F.layer_norm(t3, (3, 4), n, b.expand(3, 4) * 1)",
    "F.layer_norm(t3, [4], b, b * 2)",
    "F.layer_norm(m, (3,), None, x, eps=0.1)",
    "F.embedding(k, m.t())",
    "F.embedding(torch.tensor([[0, 2], [2, 2]]), n, padding_idx=2)",
    "F.embedding(torch.tensor([1, 1, 0]), t3[0] * 1)",
]


@pytest.mark.parametrize("expr", CASES)
def test_normalization_ops_match_torch(expr: str) -> None:
    check_op(expr)


def test_batch_and_layer_norm_on_bigger_inputs_are_close_and_embedding_exact() -> None:
    rng = np.random.default_rng(3)
    arrays = {
        "x": rng.standard_normal((8, 5, 3, 3)).astype(np.float32) * 3 + 1,
        "w": rng.standard_normal(5).astype(np.float32),
        "bb": rng.standard_normal(5).astype(np.float32),
        "e": rng.standard_normal((7, 4)).astype(np.float32),
    }
    code = (
        "rm = torch.zeros(5)\nrv = torch.ones(5)\ny = F.batch_norm(x, rm, rv, w, bb, True, 0.3)\n"
        "z = F.layer_norm(x, (3, 3))\nq = F.embedding(torch.tensor([[1, 6, 1], [0, 1, 3]]), e)\n"
        "((y * y).sum() + (z ** 3).sum() + (q * q).sum()).backward()"
    )
    tns, ons = namespaces()
    theirs = {**tns, **{k: torch.tensor(v, requires_grad=True) for k, v in arrays.items()}}
    exec(code, theirs)
    with use_state(RunState()):
        T = ons["torch"]
        ours = {**ons, **{k: T.tensor(v.tolist(), requires_grad=True) for k, v in arrays.items()}}
        exec(code, ours)
    for name in ("y", "z", "rm", "rv"):
        np.testing.assert_allclose(ours[name]._data, theirs[name].detach().numpy(), rtol=1e-5, atol=1e-6)
    for name in ("x", "w", "bb"):
        np.testing.assert_allclose(ours[name]._grad._data, theirs[name].grad.numpy(), rtol=1e-4, atol=1e-5)
    assert np.array_equal(ours["q"]._data, theirs["q"].detach().numpy())
    assert np.array_equal(ours["e"]._grad._data, theirs["e"].grad.numpy())
    assert node_names(ours["y"]) == node_names(theirs["y"]) and node_names(ours["z"]) == node_names(theirs["z"])


HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

PROGRAMS = [
    "print(nn.BatchNorm1d(3), nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False, track_running_stats=False))\n"
    "print(nn.LayerNorm(5), nn.LayerNorm((2, 3), elementwise_affine=False), nn.LayerNorm(4, bias=False))\n"
    "print(nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=0), nn.BatchNorm1d(2, affine=True, bias=False))",
    "torch.manual_seed(0)\nbn = nn.BatchNorm1d(3)\nx = torch.randn(4, 3, requires_grad=True)\ny = bn(x)\nprint(y)\n"
    "print(bn.running_mean, bn.running_var, bn.num_batches_tracked)\nprint(list(bn.state_dict().keys()))\n"
    "(y * torch.arange(12.).view(4, 3)).sum().backward()\nprint(x.grad, bn.weight.grad, bn.bias.grad)\nbn.eval()\n"
    "print(bn(x))\n"
    "print([name for name, _ in bn.named_parameters()], len(list(bn.buffers())))",
    "torch.manual_seed(1)\nbn = nn.BatchNorm2d(2, momentum=None)\nfor i in range(3):\n"
    "    out = bn(torch.randn(3, 2, 2, 2) * (i + 1))\nprint(bn.running_mean, bn.running_var, bn.num_batches_tracked)\n"
    "print(out.grad_fn.name(), out[0])\nbn2 = nn.BatchNorm2d(2)\nbn2.load_state_dict(bn.state_dict())\n"
    "print(bn2.running_var, bn2.num_batches_tracked)",
    "torch.manual_seed(2)\nnet = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))\n"
    "print(net)\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nx = torch.randn(8, 4)\nt = torch.randn(8, 2)\n"
    "for i in range(3):\n    opt.zero_grad()\n    loss = F.mse_loss(net(x), t)\n    loss.backward()\n    opt.step()\n"
    "    print(i, loss)\nnet.eval()\nprint(net(x[:2]))\nprint(list(net.state_dict().keys()))",
    "torch.manual_seed(3)\nln = nn.LayerNorm(4)\nx = torch.randn(2, 3, 4, requires_grad=True)\ny = ln(x)\nprint(y)\n"
    "y[0].sum().backward()\nprint(ln.weight.grad, ln.bias.grad)\n"
    "print(y.grad_fn.name(), len(y.grad_fn.next_functions))",
    "torch.manual_seed(4)\nemb = nn.Embedding(5, 3, padding_idx=1)\nprint(emb.weight)\n"
    "idx = torch.tensor([[0, 1, 4], [4, 4, 2]])\n"
    "out = emb(idx)\nprint(out)\nout.sum().backward()\nprint(emb.weight.grad)\n"
    "pre = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]))\n"
    "print(pre(torch.tensor([1])), pre.weight.requires_grad)",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_normalization_programs_print_like_torch(code: str) -> None:
    assert run_ours(HEADER + code) == run_torch(HEADER + code)


ERRORS = [
    "nn.BatchNorm1d(3)(torch.randn(4, 5))",
    "nn.BatchNorm1d(3)(torch.randn(1, 3))",
    "nn.BatchNorm2d(3)(torch.randn(4, 3))",
    "nn.BatchNorm1d(3)(torch.randn(4, 3, 2, 2))",
    "nn.LayerNorm(5)(torch.randn(2, 3))",
    "nn.Embedding(5, 2)(torch.tensor([5]))",
    "nn.Embedding(5, 2)(torch.tensor([1.]))",
    "nn.Embedding(5, 2, padding_idx=5)",
    "F.layer_norm(torch.randn(2, 3), (3,), torch.ones(2))",
    "F.layer_norm(torch.randn(2, 3), 3)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_match_torch(expr: str) -> None:
    tns, ons = namespaces()
    with pytest.raises(Exception) as want:
        eval(expr, {**tns, "nn": torch.nn})
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, {**ons, "nn": ons["torch"].nn})
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


@pytest.mark.parametrize(
    "expr",
    [
        "F.embedding(torch.tensor([0, 2, 2]), x.view(3, 1) ** 2).pow(2).sum()",
        "(F.embedding(torch.tensor([[1], [1]]), x.view(1, 3).expand(2, 3) * x) ** 3).sum()",
    ],
)
def test_embedding_has_second_derivatives_like_torch(expr: str) -> None:
    check_second_derivatives(expr)


@pytest.mark.parametrize(
    "expr",
    [
        "F.layer_norm(x.view(1, 3) * x, (3,)).pow(3).sum()",
        "(F.layer_norm((x * x).view(3, 1).expand(3, 2) + x.view(3, 1), (3, 2), x.view(3, 1)"
        ".expand(3, 2) * 1, x.view(3, 1).expand(3, 2) * 2) ** 2).sum()",
        "(F.batch_norm(x.view(3, 1) * x, None, None, x * 2, x, True) ** 3).sum()",
        "(F.batch_norm(x.view(1, 3, 1) * x.view(3, 1), torch.zeros(3), torch.ones(3), x, None) ** 2).sum()",
    ],
)
def test_normalization_has_second_derivatives_like_torch(expr: str) -> None:
    """create_graph=True: the statistics are recomputed from the input with the engine's ops, so that the gradient
    of the gradient (a gradient penalty, a Hessian) comes out as PyTorch's."""
    check_second_derivatives(expr)


BIT_EXACT_SHAPES = [(1, 4, 4), (2, 3, 5), (5, 3, 2, 2), (8, 4), (16, 20), (4, 6, 1)]


@pytest.mark.parametrize("shape", BIT_EXACT_SHAPES)
def test_batch_norm_in_training_is_bit_exact(shape: tuple[int, ...]) -> None:
    """Training batch norm's output and running statistics equal torch's bit for bit (one thread, as a run is):
    the statistics taken in the kernel's order (channels apart: double sums; channels side by side: rows added in
    float, squares fused), then ``x·alpha + beta`` with one rounding."""
    from engine.facade import make_modules
    from engine.tensor import Tensor

    rng = np.random.default_rng(sum(shape))
    x = (rng.random(shape) * 20 + 5).astype(np.float32)
    w, b = rng.standard_normal(shape[1]).astype(np.float32), rng.standard_normal(shape[1]).astype(np.float32)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        rm, rv = torch.zeros(shape[1]), torch.ones(shape[1])
        want = torch.nn.functional.batch_norm(torch.tensor(x), rm, rv, torch.tensor(w), torch.tensor(b), True)
        plain = torch.nn.functional.batch_norm(torch.tensor(x), None, None, training=True)
    finally:
        torch.set_num_threads(threads)
    F = make_modules()["torch.nn.functional"]
    with use_state(RunState()):
        orm, orv = Tensor._make(np.zeros(shape[1], np.float32)), Tensor._make(np.ones(shape[1], np.float32))
        got = F.batch_norm(Tensor._make(x), orm, orv, Tensor._make(w), Tensor._make(b), True)
        got_plain = F.batch_norm(Tensor._make(x), None, None, training=True)
        assert np.array_equal(got._data, want.numpy())
        assert np.array_equal(got_plain._data, plain.numpy())
        assert np.array_equal(orm._data, rm.numpy()) and np.array_equal(orv._data, rv.numpy())

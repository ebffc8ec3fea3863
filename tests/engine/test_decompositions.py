"""``torch.det``/``linalg.det``, ``torch.cross``/``linalg.cross``, ``torch.svd``/``linalg.svd``/``svdvals`` and
``torch.std_mean``/``var_mean`` against real PyTorch: values, printing, grad_fn names and gradients (each case
through test_ops' check), PyTorch's errors, and the outputs of one node sharing it (output_nr)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_ops import test_op_matches_torch as check_op
from tests.oracle import torch_stdout

CASES = [
    "torch.det(m @ n @ n.t() @ m.t())",
    "m[:, :2].det()",
    "torch.linalg.det(m[:, 1:] * 3)",
    "torch.det(t3 @ t3.transpose(1, 2))",
    "torch.det(torch.stack([m[:, :2], m[:, :2] * 0 + 1]))",  # the second matrix is singular: finite cofactors
    "torch.cross(x, p, dim=0)",
    "torch.cross(m.t(), n[:, :2], dim=0)",
    "torch.linalg.cross(m, m.flip(0) * 2)",
    "x.cross(c, 0)",
    "torch.std_mean(m)[0]",
    "torch.std_mean(m)[1]",
    "torch.std_mean(m, 1, correction=0)[0]",
    "torch.std_mean(m, 1, False, True)[1]",
    "torch.var_mean(t3, 1)[0]",
    "torch.var_mean(t3, dim=(0, 2), keepdim=True)[1]",
    "torch.var_mean(x)[0] + torch.var_mean(x)[1] * 2",
    "torch.svd(m.t()).S",
    "torch.svd(m.t()).U",
    "torch.svd(m.t()).V",
    "torch.linalg.svd(t3[:, :, :2], full_matrices=False).Vh",
    "torch.linalg.svd(m.t() * 2, full_matrices=False).U",
    "torch.linalg.svdvals(t3)",
    "torch.svd(m.t()[:2]).V",
    "m.t().svd().U",
    "torch.linalg.vector_norm(m)",
    "torch.linalg.vector_norm(t3, 1, dim=1)",
    "torch.linalg.vector_norm(m, float('inf'))",
    "torch.linalg.vector_norm(t3, ord=3, dim=(0, 2), keepdim=True)",
    "torch.linalg.matmul(m, n)",
]


@pytest.mark.parametrize("expr", CASES)
def test_op_matches_torch(expr: str) -> None:
    check_op(expr)


PROGRAMS = [
    # the tutorial's section: a 2 x 2 random matrix, printed whole
    "r = (torch.rand(2, 2) - 0.5) * 2\nprint(torch.det(r))\nprint(torch.svd(r))\nprint(torch.std_mean(r))\n"
    "print(torch.linalg.svd(r))\nprint(torch.var_mean(r, 0))",
    # one node, two outputs: gradient through both, and through one only
    "x = torch.rand(3, 4, requires_grad=True)\ns, m = torch.std_mean(x, 1)\n(s * 2 + m).sum().backward()\n"
    "print(x.grad)\nprint(s.grad_fn is m.grad_fn)\nx.grad = None\ntorch.var_mean(x)[1].backward()\nprint(x.grad)",
    # create_graph through std_mean: its backward is written in engine ops
    "x = torch.rand(5, requires_grad=True)\ns, m = torch.std_mean(x)\n"
    "(g,) = torch.autograd.grad(s + m * m, x, create_graph=True)\nprint(g)\nprint(torch.autograd.grad(g.sum(), x))",
    # sign-free functions of the singular vectors of a square matrix, and det's gradient
    "A = torch.rand(3, 3, requires_grad=True)\nU, S, V = torch.svd(A)\n(U[:, :1] @ V[:, :1].t()).sum().backward()\n"
    "print(A.grad)\nA.grad = None\ntorch.det(A).backward()\nprint(A.grad)\nprint(torch.det(A.detach()).item())",
    "print(torch.bitwise_xor(torch.tensor([1, 5, 11]), torch.tensor([2, 7, 10])))\nb = torch.tensor([1, 5, 11])\n"
    "print(b.bitwise_and(6), torch.bitwise_or(b, b * 2), torch.bitwise_not(b), b & 3, 3 | b, 3 ^ b, ~b)\n"
    "print(torch.bitwise_not(torch.tensor([True, False])), torch.bitwise_xor(torch.tensor([True]), True))\n"
    "b.bitwise_xor_(torch.tensor([3, 3, 3]))\nprint(b)\nb ^= 1\nprint(b)",
    "import torch.functional as F\nprint(F.split(torch.arange(5), 2))\nprint(F.norm(torch.tensor([3., 4.])))",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_program_prints_what_pytorch_prints(code: str) -> None:
    code = "import torch\n" + code
    result = engine.run(code, seed=5)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=5)


ERRORS = [
    "torch.det(torch.ones(2, 3))",
    "torch.det(torch.ones(3))",
    "torch.det(torch.ones(2, 2, dtype=torch.long))",
    "torch.svd(torch.ones(3))",
    "torch.svd(torch.ones(2, 2, dtype=torch.long))",
    "torch.linalg.svd(torch.ones(2))",
    "torch.std_mean(torch.ones(2, dtype=torch.long))",
    "torch.var_mean(torch.ones(2, dtype=torch.int32))",
    "torch.cross(torch.ones(2), torch.ones(2))",
    "torch.cross(torch.ones(3, 2), torch.ones(3, 2), dim=1)",
    "torch.linalg.cross(torch.ones(3, 2), torch.ones(3, 2))",
    "torch.cross(torch.ones(3), torch.ones(2, 3))",
    "torch.bitwise_xor(torch.ones(2), torch.ones(2))",
    "torch.bitwise_not(torch.ones(2))",
    "torch.bitwise_and(torch.tensor([1, 2]), 2.5)",
    "torch.linalg.vector_norm(torch.tensor([1, 2]))",
    "torch.linalg.vector_norm(torch.ones(2), 'fro')",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_are_pytorchs(expr: str) -> None:
    code = f"import torch\n{expr}\n"
    result = engine.run(code)
    assert result.error is not None
    theirs = torch_stdout(
        f"import torch\ntry:\n    {expr}\nexcept Exception as e:\n    print(type(e).__name__, str(e).splitlines()[0])\n"
    )
    assert f"{result.error['type']} {result.error['message'].splitlines()[0]}\n" == theirs


@pytest.mark.parametrize(
    "shape, dim", [((2, 2), None), ((7,), None), ((3, 50), 1), ((40, 30), 0), ((5, 7, 9), (0, 2)), ((1000,), None)]
)
def test_std_mean_and_var_mean_are_bit_exact(shape: tuple[int, ...], dim: object) -> None:
    """PyTorch's kernel takes both with Welford's update in double, element after element (its mean is not
    ``torch.mean``'s): the engine's values equal torch's bit for bit."""
    import numpy as np
    import torch

    from engine.facade import make_modules
    from engine.run_state import RunState, use_state
    from engine.tensor import Tensor

    x = torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))
    ours = make_modules()["torch"]
    with use_state(RunState()):
        for name in ("std_mean", "var_mean"):
            got = getattr(ours, name)(Tensor._make(x.numpy()), dim)
            want = getattr(torch, name)(x, dim)
            for g, w in zip(got, want):
                assert np.array_equal(g._data, w.numpy()), name

"""``torch.linalg.norm`` and ``torch.linalg.matrix_norm`` against real PyTorch: values, printing, the nodes PyTorch
composes them of (a vector norm; a 1-norm then ``amax``/``amin``; singular values then ``amax``/``amin``/``sum``),
gradients (each case through test_ops' check), and PyTorch's errors."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_ops import test_op_matches_torch as check_op
from tests.oracle import torch_stdout

CASES = [
    "torch.linalg.norm(m)",
    "torch.linalg.norm(x)",
    "torch.linalg.norm(x, 1)",
    "torch.linalg.norm(x, float('inf'))",
    "torch.linalg.norm(x, -float('inf'))",
    "torch.linalg.norm(x, 0)",
    "torch.linalg.vector_norm(m, -float('inf'), dim=1)",
    "torch.linalg.norm(t3)",  # no ord: the whole tensor flattened, any number of dimensions
    "torch.linalg.norm(m, ord=2, dim=1)",
    "torch.linalg.norm(m, ord=3, dim=0, keepdim=True)",
    "torch.linalg.norm(m, 'fro')",
    "torch.linalg.norm(m, 1)",
    "torch.linalg.norm(m, -1)",
    "torch.linalg.norm(m, float('inf'))",
    "torch.linalg.norm(m, -float('inf'))",
    "torch.linalg.norm(m, 2)",
    "torch.linalg.norm(m, -2)",
    "torch.linalg.norm(m, 'nuc')",
    "torch.linalg.norm(t3, 1, dim=(0, 2))",
    "torch.linalg.norm(t3, float('inf'), dim=(2, 0), keepdim=True)",
    "torch.linalg.norm(t3, 'nuc', dim=(1, 2), keepdim=True)",
    "torch.linalg.norm(t3, 2, dim=(0, 1))",
    "torch.linalg.norm(t3, dim=(0, 1))",
    "torch.linalg.matrix_norm(t3)",
    "torch.linalg.matrix_norm(m, ord=1)",
    "torch.linalg.matrix_norm(t3, ord=-2, dim=(2, 1))",
]


@pytest.mark.parametrize("expr", CASES)
def test_op_matches_torch(expr: str) -> None:
    check_op(expr)


ERRORS = [
    "torch.linalg.norm(torch.ones(2, 2), 3)",
    "torch.linalg.norm(torch.ones(2, 2), 'fro', dim=0)",
    "torch.linalg.norm(torch.ones(2, 2, 2), ord=1)",
    "torch.linalg.norm(torch.tensor([1, 2]))",
    "torch.linalg.norm(torch.ones(2, 2, 2), dim=(0, 1, 2))",
    "torch.linalg.matrix_norm(torch.ones(3))",
    "torch.linalg.matrix_norm(torch.ones(2, 2), 'abc')",
    "torch.linalg.matrix_norm(torch.ones(2, 2), dim=(1, 1))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_are_pytorchs(expr: str) -> None:
    result = engine.run(f"import torch\n{expr}\n")
    assert result.error is not None
    theirs = torch_stdout(
        f"import torch\ntry:\n    {expr}\nexcept Exception as e:\n    print(type(e).__name__, str(e).splitlines()[0])\n"
    )
    assert f"{result.error['type']} {result.error['message'].splitlines()[0]}\n" == theirs


def test_the_books_row_norms_print_as_pytorchs() -> None:
    """Raschka's chapter 12: the 2-norm of each row of a random matrix, beside numpy's own computation."""
    code = (
        "import torch\nimport numpy as np\ntorch.manual_seed(1)\nt1 = 2 * torch.rand(5, 2) - 1\n"
        "print(torch.linalg.norm(t1, ord=2, dim=1))\nprint(torch.linalg.norm(t1, 2, 1).grad_fn)\n"
    )
    assert engine.run(code).stdout == torch_stdout(code)

"""``torch.sin_(x)`` and the other in-place function forms of PyTorch's namespace (engine/facade.py
INPLACE_FUNCTIONS), compared with real PyTorch: the same values, the same tensor changed, the same refusals."""

from __future__ import annotations

import pytest

import engine
from engine.function_forms import INPLACE_FUNCTIONS
from tests.oracle import torch_stdout

PROGRAMS = [
    # the "Tensors deeper" tutorial's lines
    "import torch\nimport math\na = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])\n"
    "print(torch.sin_(a))\nprint(a)",
    *(
        f"import torch\nx = torch.tensor([0.25, 0.5, 1.5])\ny = torch.{name}(x)\nprint(y is x, x)"
        for name in INPLACE_FUNCTIONS
    ),
    "import torch\ntry:\n    torch.exp_(5)\nexcept TypeError as e:\n    print(e)",
    "import torch\nx = torch.ones(2, requires_grad=True)\ntry:\n    torch.sin_(x)\nexcept RuntimeError as e:\n    print(e)",
    "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ntorch.exp_(y)\ny.sum().backward()\nprint(x.grad)",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_inplace_function_form_as_pytorch(code: str) -> None:
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=0)

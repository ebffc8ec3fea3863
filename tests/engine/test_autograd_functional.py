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
    # jvp, vhp, hvp: PyTorch's double-backward tricks, their grad_fns under create_graph, zeros for unused inputs
    "print(AF.jvp(lambda x: x.exp().sum(dim=1), torch.tensor([[0.1, 0.2], [0.3, 0.4]]), torch.ones(2, 2)))",
    "print(AF.jvp(lambda x: x.exp().sum(dim=1), torch.tensor([[0.1, 0.2]]), torch.ones(1, 2), create_graph=True))",
    "print(AF.jvp(lambda x, y: (2 * x, x * x), (torch.tensor([1.0, 2.0]), torch.ones(2)), (torch.ones(2),) * 2))",
    "print(AF.vhp(lambda x: x.pow(3).sum(), torch.tensor([[0.5, 1.0], [1.5, 2.0]]), torch.ones(2, 2)))",
    "print(AF.vhp(lambda x: x.pow(3).sum(), torch.tensor([0.5, 1.0]), torch.ones(2), create_graph=True))",
    "print(AF.vhp(lambda x, y: (x * x).sum(), (torch.tensor([1.0, 2.0]), torch.ones(2)), (torch.ones(2),) * 2))",
    "print(AF.hvp(lambda x: (x.sin() * x).sum(), torch.tensor([0.5, 1.0, 2.0]), torch.tensor([1.0, -1.0, 0.5])))",
    "print(AF.hvp(lambda x: x.pow(3).sum(), torch.tensor([0.5, 1.0]), torch.ones(2), create_graph=True))",
    "print(AF.hvp(lambda x, y: (2 * x.pow(2) + 3 * y.pow(2)).sum(), (torch.ones(2), torch.ones(2)),"
    " (torch.zeros(2), torch.ones(2))))",
]


@pytest.mark.parametrize("body", PROGRAMS)
def test_functional_matches_torch(body: str) -> None:
    """Each program prints the same under the engine and under PyTorch."""
    code = "import torch\nimport torch.autograd.functional as AF\n" + body + "\n"
    assert run_ours(code) == run_torch(code)


GRADCHECK = """import torch
from torch.autograd import Function, gradcheck
calls = []
class Wrong(Function):
    @staticmethod
    def forward(ctx, a, b):
        calls.append(1)
        ctx.save_for_backward(a, b)
        return a * b, a + b
    @staticmethod
    def backward(ctx, ga, gb):
        a, b = ctx.saved_tensors
        return ga * b + gb, ga * a + 2 * gb
a = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True)
b = torch.tensor([1.5, 0.25, -3.0], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda x, y: torch.sin(x) * y.exp(), (a, b)))
print(gradcheck(Wrong.apply, (a, b), raise_exception=False))
"""


def test_gradcheck_finds_a_wrong_backward_as_pytorch_does() -> None:
    """The first result is right, the second Function's backward is wrong for its second input: False."""
    assert run_ours(GRADCHECK) == run_torch(GRADCHECK) == "True\nFalse\n"


def test_gradcheck_takes_two_forward_calls_per_input_element() -> None:
    """The numerical Jacobian perturbs each input element once each way and reads every output at once, as
    PyTorch's: 1 + 2 * 6 calls (PyTorch adds three checks of its own, 16; one pair per output element per input
    element, as before, made the docs' 20x20 check 1.2M calls)."""
    code = GRADCHECK.split("print(")[0].replace("ga * a + 2 * gb", "ga * a + gb")
    code += "print(gradcheck(Wrong.apply, (a, b)), len(calls))\n"
    assert run_ours(code) == "True 13\n" and run_torch(code) == "True 16\n"


@pytest.mark.parametrize("fn", ["vhp", "hvp"])
def test_vhp_and_hvp_refuse_a_function_of_more_than_one_element_as_pytorch(fn: str) -> None:
    code = (
        f"import torch\nimport torch.autograd.functional as AF\ntry:\n    AF.{fn}(lambda x: x * 2, torch.ones(2), "
        "torch.ones(2))\nexcept RuntimeError as e:\n    print(e)\n"
        f"try:\n    AF.{fn}(lambda x: (x.sum(), x.sum()), torch.ones(2), torch.ones(2))\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert run_ours(code) == run_torch(code)

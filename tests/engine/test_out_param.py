"""``out=`` of the function forms (engine/ops/outparam.py), compared with real PyTorch on the same programs: the
result lands in the caller's tensor (resized when its shape differs), cast where PyTorch casts, refused where it
refuses."""

from __future__ import annotations

import pytest

import engine
from tests.oracle import torch_stdout

PROGRAMS = [
    # the blitz tutorial's own lines
    "import torch\nx = torch.ones(5, 3)\ny = torch.rand(5, 3)\nresult = torch.empty(5, 3)\n"
    "torch.add(x, y, out=result)\nprint(result)",
    # the Learn the Basics matmul forms
    "import torch\nt = torch.arange(6.).reshape(2, 3)\ny3 = torch.rand_like(t @ t.T)\n"
    "print(torch.matmul(t, t.T, out=y3) is y3, y3)",
    "import torch\nx = torch.ones(2)\no = torch.empty(0)\ntorch.mul(x, 3, out=o)\nprint(o, o.shape)",
    "import torch\nx = torch.ones(2)\no = torch.empty(3)\nprint(torch.add(x, x, out=o), o.shape)",
    "import torch\nprint(torch.add(torch.ones(2, dtype=torch.long), 1, out=torch.empty(2)))",
    "import torch\no = torch.empty(4)\ntorch.arange(4, out=o)\nprint(o)",
    "import torch\na = torch.tensor([[1., 2.], [3., 4.]])\no = torch.empty(2)\nprint(torch.sum(a, 0, out=o), o)",
    "import torch\no = torch.empty(2, 2)\ntorch.cat([torch.ones(1, 2), torch.zeros(1, 2)], out=o)\nprint(o)",
    "import torch\no = torch.empty(3)\nprint(torch.exp(torch.tensor([0., 1., 2.]), out=o))",
]

REFUSED = [
    "import torch\ntry:\n    torch.add(torch.ones(2, requires_grad=True), 1, out=torch.empty(2))\n"
    "except RuntimeError as e:\n    print(e)",
    "import torch\ntry:\n    torch.add(torch.ones(2), 1.5, out=torch.empty(2, dtype=torch.long))\n"
    "except RuntimeError as e:\n    print(e)",
]


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")  # PyTorch's, to stderr
@pytest.mark.parametrize("code", PROGRAMS + REFUSED)
def test_out_as_pytorch_does_it(code: str) -> None:
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=0)


def test_a_resized_output_warns_as_pytorch_does() -> None:
    result = engine.run("import torch\no = torch.empty(3)\ntorch.add(torch.ones(2), 1, out=o)")
    (warning,) = [e for e in result.events if e["type"] == "warning"]
    assert warning["message"].startswith("An output with one or more elements was resized since it had shape [3]")


def test_out_must_be_a_tensor() -> None:
    result = engine.run("import torch\ntorch.add(torch.ones(2), 1, out=[0, 0])")
    assert result.error == {
        "type": "TypeError",
        "message": "add(): argument 'out' must be Tensor, not list",
        "line": 2,
    }

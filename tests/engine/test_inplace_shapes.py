"""``x.unsqueeze_(0)``, ``squeeze_``, ``t_``, ``transpose_``: a tensor's shape changed in place (the "Tensors deeper"
tutorial adds a batch dimension this way), compared with real PyTorch, gradients through them included."""

from __future__ import annotations

import pytest

import engine
from tests.oracle import torch_stdout

PROGRAMS = [
    "import torch\nbatch_me = torch.rand(3, 226, 226)\nprint(batch_me.shape)\nbatch_me.unsqueeze_(0)\nprint(batch_me.shape)",
    "import torch\na = torch.rand(3, 4)\nprint(a.unsqueeze_(0).shape, a.squeeze_().shape, a.t_().shape, a.transpose_(0, 1).shape)",
    "import torch\na = torch.arange(6.).reshape(1, 2, 3)\nb = a\na.squeeze_(0)\nprint(b is a, a, a.shape)",
    "import torch\nx = torch.ones(2, requires_grad=True)\ntry:\n    x.unsqueeze_(0)\nexcept RuntimeError as e:\n    print(e)",
    "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = x * x\ny.unsqueeze_(0)\nprint(y.shape)\n"
    "(y * torch.tensor([[3., 4.]])).sum().backward()\nprint(x.grad)",
    # the in-place forms' nodes are named apart from the view ops' (UnsqueezeBackward1, not UnsqueezeBackward0)
    "import torch\ndef f():\n    return torch.ones(2, 1, 3, requires_grad=True) * 2\n"
    "print(f().unsqueeze_(0).grad_fn.name(), f().squeeze_().grad_fn.name(), f().squeeze_(1).grad_fn.name())\n"
    "y = f().transpose_(0, 1)\nz = f()[0].t_()\nprint(y.grad_fn.name(), z, f().squeeze(1).grad_fn.name())\n"
    "(y * 3).sum().backward()",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_in_place_shape_changes_match_pytorch(code: str) -> None:
    result = engine.run(code, seed=2)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code, seed=2)

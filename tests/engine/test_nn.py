"""nn against PyTorch: Linear's init after a seed, forward values, module printing, parameters, zero_grad."""

from __future__ import annotations

import pytest

from tests.engine.helpers import run_ours, run_torch

PROGRAMS = [
    "torch.manual_seed(0)\nmodel = nn.Linear(10, 2)\nprint(model)\nprint(model.weight)\nprint(model.bias)",
    "torch.manual_seed(1)\nm = nn.Linear(3, 1, bias=False)\nprint(m, m.bias)\nprint(m.weight)",
    "torch.manual_seed(2)\nm = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1), nn.Sigmoid())\nprint(m)\n"
    "x = torch.randn(5, 2)\ny = m(x)\nprint(y)\ny.sum().backward()\nprint(m[0].weight.grad)\nprint(m[2].bias.grad)",
    "torch.manual_seed(3)\nm = nn.Linear(4, 3)\nx = torch.randn(4)\nprint(m(x))\nprint(F.relu(m(x)))",
    "torch.manual_seed(4)\nm = nn.Linear(4, 3)\nfor name, p in m.named_parameters():\n    print(name, p.shape)\n"
    "print(len(list(m.parameters())))\nm.zero_grad()\nprint(m.weight.grad)",
    "torch.manual_seed(5)\nm = nn.Linear(2, 2)\nloss = nn.MSELoss()(m(torch.ones(3, 2)), torch.zeros(3, 2))\n"
    "loss.backward()\nprint(loss)\nprint(m.weight.grad)\nm.zero_grad()\nprint(m.weight.grad)",
    "p = nn.Parameter(torch.tensor([1., 2.]))\nprint(p)\nprint(p.requires_grad, p.is_leaf)\nprint(p * 2)",
    "x = torch.tensor([[1., 2.], [0.5, -1.]], requires_grad=True)\nt = torch.tensor([1, 0])\n"
    "l = nn.CrossEntropyLoss()(x, t)\nprint(l)\nl.backward()\nprint(x.grad)",
    "a = torch.tensor([1., 2., 3.], requires_grad=True)\nb = torch.tensor([0., 0., 5.])\n"
    "print(nn.MSELoss(reduction='sum')(a, b), nn.MSELoss(reduction='none')(a, b), nn.L1Loss()(a, b))",
    "torch.manual_seed(6)\nm = nn.Sequential(nn.Linear(3, 3), nn.Tanh())\nm.eval()\nprint(m.training, m[0].training)\n"
    "m.train()\nprint(m.training)\nprint(nn.Softmax(dim=1)(torch.ones(2, 3)))",
    "p = [nn.Parameter(torch.tensor([3., 4.])), nn.Parameter(torch.tensor([[1., -2.]]))]\n"
    "p[0].grad = torch.tensor([3., 4.])\np[1].grad = torch.tensor([[12., 0.]])\n"
    "print(nn.utils.clip_grad_norm_(p, 1.0), p[0].grad, p[1].grad)\nnn.utils.clip_grad_value_(p, 0.1)\n"
    "print(p[0].grad)",
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'\nm = nn.Linear(2, 2).to(device)\n"
    "print(device, torch.device(device), m.double().weight.dtype, torch.ones(2).to(device))",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_nn_programs_print_like_torch(code: str) -> None:
    code = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + code
    assert run_ours(code) == run_torch(code)


def test_user_module_subclass() -> None:
    code = (
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc1 = nn.Linear(3, 4)\n        self.act = nn.ReLU()\n        self.fc2 = nn.Linear(4, 1)\n"
        "    def forward(self, x):\n        return self.fc2(self.act(self.fc1(x)))\n"
        "net = Net()\nprint(net)\nprint(sum(p.numel() for p in net.parameters()))\n"
        "out = net(torch.randn(2, 3))\nprint(out)\nout.sum().backward()\nprint(net.fc1.bias.grad)\n"
    )
    assert run_ours(code) == run_torch(code)


def test_implicit_softmax_dim_like_torch() -> None:
    import warnings

    code = (
        "import torch\nimport torch.nn.functional as F\nx = torch.arange(24.).reshape(2, 3, 4)\n"
        "print(F.softmax(x)[0, 0])\nprint(torch.nn.Softmax()(torch.ones(2, 3)))"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's deprecation note (the engine tells the observer)
        want = run_torch(code)
    assert run_ours(code) == want

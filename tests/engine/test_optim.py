"""Optimizers against PyTorch: the same steps give the same weights (printed), and the observer sees steps."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.helpers import run_ours, run_torch

SETUP = (
    "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nmodel = nn.Linear(3, 2)\n"
    "x = torch.randn(8, 3)\ny = torch.randn(8, 2)\n"
)
LOOP = (
    "for i in range(5):\n    opt.zero_grad()\n    loss = nn.MSELoss()(model(x), y)\n    loss.backward()\n"
    "    opt.step()\n    print(loss)\nprint(model.weight)\nprint(model.bias)\n"
)


@pytest.mark.parametrize(
    "make",
    [
        "torch.optim.SGD(model.parameters(), lr=0.1)",
        "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
        "torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)",
        "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5, dampening=0.1)",
        "torch.optim.Adam(model.parameters(), lr=0.01)",
        "torch.optim.Adam(model.parameters(), lr=0.1, weight_decay=0.1)",
        "torch.optim.AdamW(model.parameters(), lr=0.05)",
        "torch.optim.Adam(model.parameters(), lr=0.05, amsgrad=True)",
    ],
)
def test_optimizer_steps_match_torch(make: str) -> None:
    code = SETUP + f"opt = {make}\n" + LOOP
    assert run_ours(code) == run_torch(code)


def test_manual_update_under_no_grad() -> None:
    code = (
        "import torch\nw = torch.tensor([1., -2.], requires_grad=True)\nfor _ in range(3):\n"
        "    loss = (w ** 2).sum()\n    loss.backward()\n    with torch.no_grad():\n        w -= 0.1 * w.grad\n"
        "    w.grad.zero_()\n    print(w, loss)\n"
    )
    assert run_ours(code) == run_torch(code)


class Rec:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *a: self.calls.append((name, a))


def test_observer_sees_steps_and_resets() -> None:
    rec = Rec()
    run_ours(SETUP + "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n" + LOOP, observer=rec)
    kinds = [c[0] for c in rec.calls]
    assert kinds.count("param_stepped") == 10
    assert kinds.count("grad_reset") == 8  # zero_grad before steps 2..5 sets 2 grads to None
    stepped = [a for k, a in rec.calls if k == "param_stepped"]
    t, before, after = stepped[0]
    assert before.shape == after.shape == (2, 3) and (before != after).any()


@pytest.mark.parametrize(
    "make",
    [
        "torch.optim.SGD(model.parameters(), lr=0.1)",
        "torch.optim.Adam(model.parameters())",
        "torch.optim.AdamW(model.parameters())",
        "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)",
    ],
)
def test_optimizer_prints_like_torch(make: str) -> None:
    code = SETUP + f"opt = {make}\nprint(opt)\nprint(opt.param_groups[0]['lr'])\n"
    assert run_ours(code) == run_torch(code)

"""engine/lr_scheduler.py against PyTorch: the learning rates each scheduler sets, epoch by epoch."""

from __future__ import annotations

import pytest

from tests.engine.helpers import run_ours, run_torch

SCHEDULERS = [
    "StepLR(opt, step_size=3, gamma=0.5)",
    "MultiStepLR(opt, milestones=[2, 5, 5], gamma=0.1)",
    "ExponentialLR(opt, gamma=0.9)",
    "CosineAnnealingLR(opt, T_max=3, eta_min=0.01)",
    "LambdaLR(opt, lr_lambda=lambda e: 1 / (e + 1))",
]


@pytest.mark.parametrize("make", SCHEDULERS)
def test_learning_rates_match_torch(make: str) -> None:
    code = (
        "import torch\nfrom torch.optim.lr_scheduler import *\n"
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
        f"sched = {make}\n"
        "for epoch in range(8):\n    opt.step()\n    sched.step()\n"
        "    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'], sched.last_epoch)\n"
        "print(opt)\n"
    )
    assert run_ours(code) == run_torch(code)

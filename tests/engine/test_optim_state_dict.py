"""``Optimizer.state_dict()``, ``load_state_dict()`` and ``optimizer.state`` (engine/optim/state_dict.py) against
PyTorch 2.13: what they print (keys in PyTorch's order, ``params`` last, ``step`` as a float32 tensor), the memory
they share with the optimizer, and PyTorch's errors."""

from __future__ import annotations

import pytest

import engine
from tests.engine.helpers import run_ours, run_torch
from tests.oracle import torch_stdout

SETUP = (
    "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nmodel = nn.Linear(3, 2)\n"
    "x = torch.randn(8, 3)\ny = torch.randn(8, 2)\n"
    "def train(model, opt, n):\n"
    "    for i in range(n):\n        opt.zero_grad()\n        nn.MSELoss()(model(x), y).backward()\n        opt.step()\n"
)

OPTIMIZERS = [
    "torch.optim.SGD(model.parameters(), lr=0.1)",
    "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)",
    "torch.optim.Adam(model.parameters(), lr=0.01)",
    "torch.optim.Adam(model.parameters(), lr=0.05, amsgrad=True)",
    "torch.optim.AdamW(model.parameters(), lr=0.05)",
    "torch.optim.RMSprop(model.parameters(), lr=0.01, momentum=0.5, centered=True)",
    "torch.optim.Adagrad(model.parameters(), lr=0.1)",
]


@pytest.mark.parametrize("make", OPTIMIZERS)
def test_state_dict_prints_like_torch_before_and_after_steps(make: str) -> None:
    code = (
        SETUP + f"opt = {make}\nprint(opt.state_dict())\ntrain(model, opt, 2)\nsd = opt.state_dict()\nprint(sd)\n"
        "for k in sd:\n    print(k, '\\t', sd[k])\n"
        "print(list(sd['state']), [list(v) for v in sd['state'].values()], sd['param_groups'][0]['params'])\n"
        "print(len(opt.state), [sorted(s) for s in opt.state.values()], opt.state[model.bias])\n"
    )
    assert run_ours(code) == run_torch(code)


def test_groups_are_numbered_across_groups_and_keep_their_own_keys_first() -> None:
    code = (
        SETUP + "opt = torch.optim.SGD([{'params': [model.weight]}, {'params': model.bias, 'lr': 0.5, 'foo': 1}],"
        " lr=0.1, momentum=0.9)\ntrain(model, opt, 1)\nprint(opt.state_dict())\n"
    )
    assert run_ours(code) == run_torch(code)


@pytest.mark.parametrize("make", OPTIMIZERS)
def test_load_state_dict_continues_training_as_torch_does(make: str) -> None:
    # The loaded optimizer takes the saved tensors themselves (PyTorch's .to() copies only to another dtype): a
    # step of the first optimizer changes the second's state too, as in PyTorch.
    code = (
        SETUP + f"opt = {make}\ntrain(model, opt, 2)\n"
        "model2 = nn.Linear(3, 2)\nmodel2.load_state_dict(model.state_dict())\n"
        f"opt2 = {make.replace('model.', 'model2.')}\n"
        "print(opt2.load_state_dict(opt.state_dict()))\nprint(opt2.state_dict())\n"
        "train(model2, opt2, 3)\nprint(model2.weight, model2.bias, opt2.state_dict())\n"
        "train(model, opt, 1)\nprint(opt2.state_dict()['state'], opt.state_dict()['state'])\n"
    )
    assert run_ours(code) == run_torch(code)


def test_loaded_hyper_parameters_replace_the_groups() -> None:
    code = (
        SETUP + "opt = torch.optim.Adam(model.parameters(), lr=0.01)\nsd = opt.state_dict()\n"
        "sd['param_groups'][0]['lr'] = 0.5\nopt.load_state_dict(sd)\nprint(opt, opt.param_groups[0]['lr'])\n"
        "sd['param_groups'][0]['lr'] = 0.25\nprint(opt.param_groups[0]['lr'], sd['param_groups'][0]['params'])\n"
        "train(model, opt, 2)\nprint(model.weight)\n"
    )
    assert run_ours(code) == run_torch(code)


@pytest.mark.parametrize(
    "other",
    [
        "torch.optim.SGD([{'params': [model.weight]}, {'params': [model.bias]}], lr=0.1)",
        "torch.optim.SGD([model.weight], lr=0.1)",
    ],
)
def test_load_state_dict_errors_are_torchs(other: str) -> None:
    code = (
        SETUP
        + f"opt = torch.optim.SGD(model.parameters(), lr=0.1)\nother = {other}\nother.load_state_dict(opt.state_dict())\n"
    )
    with pytest.raises(ValueError) as theirs:
        run_torch(code)
    with pytest.raises(ValueError) as ours:
        run_ours(code)
    assert str(ours.value) == str(theirs.value)


def test_state_dict_and_state_print_the_same_in_a_sandboxed_run() -> None:
    code = (
        SETUP + "opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)\ntrain(model, opt, 1)\n"
        "print(opt.state)\nfor var_name in opt.state_dict():\n    print(var_name, '\\t', opt.state_dict()[var_name])\n"
        "sd = opt.state_dict()\nsd['state'][0]['momentum_buffer'].zero_()\ntrain(model, opt, 1)\nprint(model.weight)\n"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code)

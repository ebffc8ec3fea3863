"""Runs in one process do not leak into each other: what a program changes (default dtype, print options, grad
mode, the random generator, module-level state of the facade) is gone for the next program, as it would be in a
fresh PyTorch process. The real-course corpus runs ~50 course programs in the same process as the other tests, so a
leak would change their results.
"""

from __future__ import annotations

import engine

# What a fresh program prints: dtype, grad mode, printing, a seeded draw, autograd.
PROBE = """import torch
torch.manual_seed(3)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum() / 3
y.backward()
print(y, x.grad, torch.get_default_dtype(), torch.is_grad_enabled())
print(torch.rand(2), torch.tensor([1 / 3, 2e-5, 12345.678]))
print(torch.nn.Linear(2, 1).weight)
"""

# Programs that change every piece of global state a course program reaches for.
CHANGERS = [
    "import torch\ntorch.set_default_dtype(torch.float64)\nprint(torch.ones(1).dtype)\n",
    "import torch\ntorch.set_printoptions(precision=8, sci_mode=False)\nprint(torch.tensor([1 / 3]))\n",
    "import torch\ntorch.set_grad_enabled(False)\nprint(torch.is_grad_enabled())\n",
    "import torch\ntorch.autograd.set_grad_enabled(False)\nx = torch.ones(1, requires_grad=True)\nprint((x * 2).requires_grad)\n",
    "import torch\nwith torch.no_grad():\n    raise ValueError('inside no_grad')\n",
    "import torch\ntorch.manual_seed(0)\nprint(torch.rand(1))\n",
    "import torch\ntorch.set_default_dtype(torch.float64)\ntorch.set_printoptions(precision=2)\nraise RuntimeError('x')\n",
    "import torch\nimport math\nmath.pi = 3\ntorch.pi = 3\ntorch.nn.Linear = None\nprint(math.pi)\n",
]


def _run(code: str) -> tuple[str, object]:
    result = engine.run(code, seed=1)
    return result.stdout, result.error


def test_no_state_leaks_from_one_run_to_the_next() -> None:
    before = _run(PROBE)
    assert before[1] is None and before[0].count("\n") >= 3
    for changer in CHANGERS:
        _run(changer)
        assert _run(PROBE) == before, f"state left behind by:\n{changer}"

"""The small pieces of PyTorch courses reach for, against PyTorch 2.13: ``size=`` of the factories,
``torch.range`` (deprecated: its UserWarning is a trace event, stdout unaffected), ``torch.random``,
``set_default_device``, the accelerator queries on a CPU, ``torch.multiply``, ``Tensor.equal``, ``byte()``/``char()``/
``short()``/``half()`` and ``resize_``."""

from __future__ import annotations

import warnings

import engine
from engine.ops.factories import RANGE_WARNING
from tests.engine.helpers import run_ours, run_torch

PROGRAM = """
import torch
torch.manual_seed(0)
print(torch.rand(size=(2, 3)), torch.randn(size=(2,)), torch.zeros(size=(2,)), torch.ones(size=[1, 2]))
print(torch.full(size=(2,), fill_value=3.), torch.empty(size=(0,)).shape)
a = torch.randn(size=(), requires_grad=True)
print(a)
print(torch.range(1, 4))
print(torch.range(0, 1, 0.1))
print(torch.range(1, 4, dtype=torch.int64), torch.range(0, 1, 0.5, requires_grad=True))
torch.random.manual_seed(3)
print(torch.rand(2))
torch.set_default_device('cpu')
print(torch.get_default_device())
print(torch.accelerator.is_available(), torch.accelerator.current_accelerator())
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
print(torch.backends.mps.is_available(), torch.cuda.is_available(), torch.backends.mps.is_built())
print(torch.multiply(torch.tensor([1., 2.]), 3), torch.tensor([2.]).multiply(torch.tensor([4.])))
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.multiply(x, x)
print(y)
a = torch.tensor([1., 2.])
print(a.equal(torch.tensor([1., 2.])), torch.equal(a, a + 1), a.equal(torch.tensor([1., 2., 3.])))
print(a.byte(), a.char(), a.short(), a.half(), torch.tensor([300., -1.]).byte())
r = torch.arange(6.)
print(r.resize_(2, 3))
print(r.resize_(4))
print(r.resize_((1, 2)), r.shape)
for f in [lambda: torch.range(1, 0), lambda: torch.range(0, 1, 0), lambda: torch.ones(2, requires_grad=True).resize_(3)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_misc_pieces_print_like_torch() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = run_torch(PROGRAM)
    assert run_ours(PROGRAM) == want
    assert RANGE_WARNING in {str(w.message) for w in caught}  # PyTorch's own words


def test_range_warns_in_the_trace_not_on_stdout() -> None:
    result = engine.run("import torch\nprint(torch.range(1, 3))\n", seed=0)
    assert result.error is None and result.stdout == "tensor([1., 2., 3.])\n"
    assert [e["message"] for e in result.events if e["type"] == "warning"] == [RANGE_WARNING]


def test_accelerator_checks_in_the_sandbox() -> None:
    code = (
        "import torch\nimport torch.backends\nprint(torch.backends.mps.is_available(), torch.cuda.is_available())\n"
        "torch.random.manual_seed(0)\nprint(torch.rand(size=(2,)))\ntorch.set_default_device('cpu')\n"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == run_torch(code)

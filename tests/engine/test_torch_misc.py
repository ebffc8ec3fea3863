"""The small pieces of PyTorch courses reach for, against PyTorch 2.13: ``size=`` of the factories,
``torch.range`` (deprecated: its UserWarning is a trace event, stdout unaffected), ``torch.random``,
``set_default_device``, the accelerator queries on a CPU, ``torch.multiply``, ``Tensor.equal``, ``byte()``/``char()``/
``short()``/``half()`` and ``resize_``."""

from __future__ import annotations

import re
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


LINEAR_3D = """
import torch
from torch import nn
torch.manual_seed(0)
l = nn.Linear(3, 2)
y = l(torch.ones(2, 4, 3))
print(y.grad_fn, y.grad_fn.next_functions)
print(y)
y.sum().backward()
print(l.weight.grad, l.bias.grad)
l2 = nn.Linear(3, 2, bias=False)
z = l2(torch.ones(2, 4, 3))
print(z.grad_fn, z.grad_fn.next_functions)
x = torch.ones(2, 4, 3, requires_grad=True)
y = l(x)
print(y.grad_fn.next_functions[0][0].next_functions)
y.pow(2).sum().backward()
print(x.grad, l.weight.grad)
print(l(torch.ones(2, 2, 2, 3)).grad_fn)
print(l(torch.ones(4, 2, 3).transpose(0, 1)).grad_fn)
try:
    l(torch.ones(2, 4, 5))
except RuntimeError as e:
    print(e)
"""


def test_linear_over_a_batch_of_sequences_is_a_view_of_addmm_as_in_torch() -> None:
    address = re.compile(r" at 0x[0-9a-fA-F]+>")
    assert address.sub("", run_ours(LINEAR_3D)) == address.sub("", run_torch(LINEAR_3D))


def test_the_new_names_import_in_the_sandbox() -> None:
    code = (
        "import torch\nfrom torch.nn.parameter import Parameter\nfrom torch.autograd import Variable, Function\n"
        "from torch.autograd.function import once_differentiable\nfrom torch import nn\n"
        "print(Parameter(torch.ones(1)), Variable(torch.ones(1), requires_grad=True))\n"
        "print(nn.ParameterList([nn.Parameter(torch.ones(2))]), nn.ModuleDict({'a': nn.ReLU()}))\n"
        "print(torch.arange(4.).resize_(2, 2).equal(torch.tensor([[0., 1.], [2., 3.]])))\n"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == run_torch(code)


CHECKS_AND_NEW = """
import torch
x = torch.tensor([1., float('nan'), float('inf'), -float('inf'), 0.])
print(x.isnan(), torch.isinf(x), x.isfinite(), torch.isnan(torch.tensor([1, 2])))
print(x[~x.isnan()], torch.isnan(x).any())
a = torch.tensor([1, 2])
print(a.type_as(x), x[:1].type_as(a), a.new_full((2, 2), 7), x.new_full([3], 0.5), x.new_empty(2).shape, a.new_empty((1, 2)).dtype)
w = torch.tensor([1.5, 2.5], requires_grad=True)
y = w.type_as(torch.zeros(1, dtype=torch.float64))
print(y)
y.sum().backward()
print(w.grad)
"""


def test_isnan_isinf_isfinite_type_as_and_new_full_like_torch() -> None:
    assert run_ours(CHECKS_AND_NEW) == run_torch(CHECKS_AND_NEW)

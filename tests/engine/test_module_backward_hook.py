"""The deprecated ``Module.register_backward_hook`` (engine/nn/backward_hooks.py) and ``Node.register_hook``
(engine/graph.py, engine/autograd.py) against PyTorch 2.13: the hook sees the gradients of the node that made the
module's output (for a Linear: bias, input, transposed weight), a tuple it returns replaces them, PyTorch's errors,
and its FutureWarnings (as trace events) for each way the hook misses gradients."""

from __future__ import annotations

import re
import warnings

import pytest

import engine
from tests.engine.helpers import run_ours, run_torch

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")

HOOKS = """
import torch
from torch import nn
torch.manual_seed(0)
def show(mod, gi, go):
    print('hook', type(mod).__name__, [None if g is None else g.shape for g in gi], gi, go)
lin = nn.Linear(2, 3)
h = lin.register_backward_hook(show)
x = torch.tensor([[1., 2.]], requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad, lin.bias.grad)
h.remove()
lin(x).sum().backward()
def double(mod, gi, go):
    return tuple(None if g is None else g * 2 for g in gi)
lin2 = nn.Linear(2, 3)
lin2.register_backward_hook(double)
x.grad = None
lin2(x).sum().backward()
print(x.grad, lin2.weight.grad, lin2.bias.grad)
conv = nn.Conv2d(1, 2, 3)
conv.register_backward_hook(show)
conv(torch.randn(1, 1, 4, 4)).pow(2).sum().backward()
relu = nn.ReLU()
relu.register_backward_hook(show)
relu(x * 1).sum().backward()
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
net.register_backward_hook(show)
net(x).sum().backward()
y = (x * 3).sum()
def node_hook(gi, go):
    print('node', gi, go)
    return (gi[0] + 1,)
y.grad_fn.register_hook(node_hook)
x.grad = None
y.backward()
print(x.grad)
"""


def _compare(code: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run_torch(code)
    assert _ADDRESS.sub(" at 0x?>", run_ours(code)) == _ADDRESS.sub(" at 0x?>", want)


def test_deprecated_backward_hooks_see_and_replace_what_torchs_do() -> None:
    _compare(HOOKS)


@pytest.mark.parametrize(
    "code",
    [
        "m = nn.Linear(2, 1)\nm.register_backward_hook(lambda *a: None)\nm.register_full_backward_hook(lambda *a: None)",
        "m = nn.Linear(2, 1)\nm.register_full_backward_hook(lambda *a: None)\nm.register_backward_hook(lambda *a: None)",
        "m = nn.Linear(2, 1)\ndef short(mod, gi, go):\n    return (gi[0],)\nm.register_backward_hook(short)\n"
        "m(torch.ones(1, 2, requires_grad=True)).sum().backward()",
    ],
)
def test_errors_are_torchs(code: str) -> None:
    code = "import torch\nfrom torch import nn\n" + code + "\n"
    with pytest.raises(RuntimeError) as theirs, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_torch(code)
    with pytest.raises(RuntimeError) as ours:
        run_ours(code)
    assert str(ours.value) == str(theirs.value)


WARNED = """
import torch
from torch import nn
torch.manual_seed(0)
class Pair(nn.Module):
    def forward(self, a, b=None):
        return a * 2, a + 1
class Nested(nn.Module):
    def forward(self, a):
        return [a * 2]
class Exact(nn.Module):
    def forward(self, a):
        return a * 2
x = torch.ones(2, requires_grad=True)
z = x * 1
for m, args in ((nn.Linear(2, 1), (x,)), (Pair(), (x,)), (Pair(), (x, 3)), (Nested(), (x,)), (Exact(), (z,))):
    m.register_backward_hook(lambda mod, gi, go: print(type(mod).__name__, len(gi), len(go)))
    out = m(*args)
    (out[0] if isinstance(out, (tuple, list)) else out).sum().backward(retain_graph=True)
"""


def test_futurewarnings_are_torchs_and_go_to_the_trace() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = run_torch(WARNED)
    result = engine.run(WARNED)
    assert result.error is None, result.error
    assert result.stdout == want
    ours = [e["message"] for e in result.events if e["type"] == "warning"]
    assert ours == [str(w.message) for w in caught if w.category is FutureWarning]

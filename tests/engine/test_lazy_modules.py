"""engine/nn/lazy.py, containers.py and backward_hooks.py against PyTorch 2.13: ``nn.LazyLinear`` (printed
``<UninitializedParameter>`` and ``LazyLinear(in_features=0, …)`` until its first call, then the same draws as
``nn.Linear``), ``nn.ModuleDict``, ``nn.ParameterList``, ``nn.ParameterDict``, ``add_module``/``register_module``,
buffers in ``state_dict()``/``buffers()``/``named_buffers()``, ``register_full_backward_hook``,
``register_full_backward_pre_hook`` (their ``BackwardHookFunctionBackward`` nodes) and
``Tensor.register_post_accumulate_grad_hook``."""

from __future__ import annotations

import re
import warnings

import engine
from engine.nn.backward_hooks import NO_INPUT_WARNING
from tests.engine.helpers import run_ours, run_torch

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")

LAZY_AND_CONTAINERS = """
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
print(net)
print(net[0].weight)
print(net[0].bias)
print(net[0].weight.shape if False else "")
print(net.state_dict())
X = torch.rand(2, 3)
print(net(X))
print(net)
print(net[0].weight.shape, net[2].weight)
torch.manual_seed(0)
l = nn.Linear(3, 4); print(l.weight)
torch.manual_seed(0)
ll = nn.LazyLinear(4); ll(torch.zeros(1, 3)); print(ll.weight, type(ll).__name__)
ll2 = nn.LazyLinear(4, bias=False); print(ll2, ll2.bias)
print([(n, p.shape) for n, p in net.named_parameters()])
md = nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.ReLU()})
md["c"] = nn.Tanh()
print(md, len(md), list(md.keys()), "a" in md)
for k, m in md.items(): print(k, m)
print(md["b"], list(md.values())[0])
md.update({"d": nn.Sigmoid()})
print(md.pop("d"), len(md))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
print(pl, len(pl), pl[0])
pl.append(nn.Parameter(torch.ones(1)))
print(pl)
print([n for n, _ in pl.named_parameters()])
pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(1))})
print(pd, pd["w"], len(pd))
print([n for n, _ in pd.named_parameters()], list(pd.keys()))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"fc": nn.Linear(2, 3)})
        self.ps = nn.ParameterList([nn.Parameter(torch.ones(2))])
        self.register_buffer("running", torch.zeros(2))
        self.add_module("extra", nn.Linear(3, 1))
    def forward(self, x):
        return self.extra(self.layers["fc"](x))
n = Net()
print(n)
print(list(n.state_dict().keys()))
print(list(n.named_buffers()), list(n.buffers()))
print(n.state_dict()["running"])
"""

HOOKS = """
import torch
from torch import nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
def hook(mod, gi, go):
    print("hook", type(mod).__name__, gi, go)
def pre(mod, go):
    print("pre", go)
h = m.register_full_backward_hook(hook)
h2 = m.register_full_backward_pre_hook(pre)
x = torch.ones(1, 2, requires_grad=True)
y = m(x)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].next_functions)
y.sum().backward()
print(x.grad, m.weight.grad)
h.remove(); h2.remove()
y = m(x); print(y)
y.sum().backward()
print(x.grad)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
net[2].register_full_backward_hook(lambda mod, gi, go: print("last", gi, go))
net[0].register_full_backward_hook(lambda mod, gi, go: print("first", gi, go))
out = net(torch.tensor([[1., 2.]]))
out.backward()
print(net[0].weight.grad)
def double(mod, gi, go):
    return tuple(g * 2 for g in gi)
r = nn.ReLU()
r.register_full_backward_hook(double)
r.register_full_backward_pre_hook(lambda mod, go: (go[0] * 10,))
z = torch.tensor([1., -1., 2.], requires_grad=True)
r(z).sum().backward()
print(z.grad)
w = torch.tensor([1., 2.], requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("accumulated", p.grad))
(w * w).sum().backward()
(w * 3).sum().backward()
print(w.grad)
"""

MORE = """
import torch
from torch import nn
torch.manual_seed(1)
net = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(4, 5)
for i in range(3):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    loss.backward()
    opt.step()
    print(i, loss)
print(net[0].weight.shape, [p.shape for p in opt.param_groups[0]['params']])
m = nn.Linear(2, 2)
m.register_module('act', nn.ReLU())
print(m, m.get_submodule('act'), m.get_parameter('bias').shape)
s = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1))
print([n for n, _ in s.named_buffers()], len(list(s.buffers())), len(list(s.buffers(recurse=False))))
print(list(s.state_dict().keys()))
pl = nn.ParameterList([torch.ones(2)])
print(pl[0], pl[-1] is pl[0], len(pl[0:1]))
"""


def _compare(code: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = run_torch(code)
    assert _ADDRESS.sub(" at 0x?>", run_ours(code)) == _ADDRESS.sub(" at 0x?>", want)


def test_lazy_linear_and_containers_print_like_torch() -> None:
    _compare(LAZY_AND_CONTAINERS)


def test_backward_hooks_like_torch() -> None:
    _compare(HOOKS)


def test_lazy_training_buffers_and_lookups_like_torch() -> None:
    _compare(MORE)


def test_in_the_sandbox() -> None:
    code = (
        "import torch\nfrom torch import nn\ntorch.manual_seed(0)\nnet = nn.Sequential(nn.LazyLinear(2))\n"
        "print(net[0].weight)\nprint(net(torch.ones(1, 3)))\nprint(net)\n"
        "md = nn.ModuleDict({'a': nn.Linear(1, 1)})\nprint(md)\n"
        "m = nn.Linear(1, 1)\nh = m.register_full_backward_hook(lambda mod, gi, go: print('hook', go))\n"
        "m(torch.ones(1, 1)).sum().backward()\n"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert result.stdout == run_torch(code)
    assert NO_INPUT_WARNING in [e["message"] for e in result.events if e["type"] == "warning"]


BUILDERS_GUIDE = """
import torch
from torch import nn
from torch.nn import functional as F
torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
X = torch.rand(size=(2, 4))
print(net(X).shape)
print(net[2].state_dict())
print(net[2].bias.data)
print(net[2].weight.grad == None)
print(*[(name, param.shape) for name, param in net.named_parameters()])
def block1():
    return nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(4), nn.ReLU())
def block2():
    net = nn.Sequential()
    for i in range(4):
        net.add_module(f'block {i}', block1())
    return net
rgnet = nn.Sequential(block2(), nn.LazyLinear(1))
print(rgnet(X))
print(rgnet)
print(rgnet[0][1][0].bias.data)
def init_normal(module):
    if type(module) == nn.Linear:
        nn.init.normal_(module.weight, mean=0, std=0.01)
        nn.init.zeros_(module.bias)
net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])
def init_constant(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 1)
        nn.init.zeros_(module.bias)
net.apply(init_constant)
print(net[0].weight.data[0], net[0].bias.data[0])
def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)
def init_42(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 42)
net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)
def my_init(module):
    if type(module) == nn.Linear:
        print("Init", *[(name, param.shape) for name, param in module.named_parameters()][0])
        nn.init.uniform_(module.weight, -10, 10)
        module.weight.data *= module.weight.data.abs() >= 5
net.apply(my_init)
print(net[0].weight[:2])
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])
shared = nn.LazyLinear(8)
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.LazyLinear(1))
net(X)
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self.add_module(str(idx), module)
    def forward(self, X):
        for module in self.children():
            X = module(X)
        return X
net = MySequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
print(net(X).shape)
class FixedHiddenMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rand_weight = torch.rand((20, 20))
        self.linear = nn.LazyLinear(20)
    def forward(self, X):
        X = self.linear(X)
        X = F.relu(X @ self.rand_weight + 1)
        X = self.linear(X)
        while X.abs().sum() > 1:
            X /= 2
        return X.sum()
net = FixedHiddenMLP()
print(net(torch.rand(2, 20)))
class CenteredLayer(nn.Module):
    def forward(self, X):
        return X - X.mean()
net = nn.Sequential(nn.LazyLinear(128), CenteredLayer())
Y = net(torch.rand(4, 8))
print(Y.mean())
class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)
linear = MyLinear(5, 3)
print(linear.weight)
"""


def test_a_builders_guide_in_the_manner_of_d2l_prints_like_torch() -> None:
    """Lazy layers, parameter access, apply(init), shared layers, add_module and custom layers, as d2l.ai's
    builders' guide uses them (written here in its manner)."""
    _compare(BUILDERS_GUIDE)

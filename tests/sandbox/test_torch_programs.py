"""Course-style torch programs through ``engine.run``: stdout (or the error) exactly as real PyTorch gives it."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import engine
from tests.oracle import torch_stdout

PROGRAMS = {
    "module_subclass": """\
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
net = Net()
print(net)
out = net(torch.ones(2, 3))
print(out)
out.sum().backward()
print(net.fc1.weight.grad)
for name, p in net.named_parameters():
    print(name, p.shape)
""",
    "super_two_args": """\
import torch
from torch import nn
class Tiny(nn.Module):
    def __init__(self, k):
        super(Tiny, self).__init__()
        self.k = k
        self.w = nn.Parameter(torch.tensor([1.0, 2.0]))
    def forward(self, x):
        return (self.w * x * self.k).sum()
m = Tiny(3)
y = m(torch.tensor([1.0, 1.0]))
y.backward()
print(y, m.w.grad)
print(list(m.parameters()))
""",
    "sgd_loop": """\
import torch
torch.manual_seed(1)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
target = torch.tensor([1.0, -1.0, 0.5])
for step in range(5):
    opt.zero_grad()
    loss = ((w - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(w)
""",
    "adam_fit": """\
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(1, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
xs = torch.linspace(-1, 1, 20).unsqueeze(1)
ys = 3 * xs + 0.5
for epoch in range(50):
    pred = model(xs)
    loss = nn.functional.mse_loss(pred, ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, round(loss.item(), 4))
print(model.weight, model.bias)
""",
    "errors_no_grad_fn": """\
import torch
x = torch.tensor([1.0, 2.0])
y = (x * 2).sum()
y.backward()
""",
    "second_backward": """\
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward()
y.backward()
""",
    "detach_and_data": """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.detach()
print(z.requires_grad, y.requires_grad, z)
x.data = torch.tensor([5.0, 6.0])
print(x)
w = torch.ones(2, requires_grad=True)
w.requires_grad = False
print(w.requires_grad)
""",
    "retain_grad": """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad, x.grad)
""",
    "printing": """\
import torch
print(torch.tensor([1, 2, 3]))
print(torch.tensor([[1.5, 2.25], [3.0, 4.0]]))
print(torch.zeros(2, 3, dtype=torch.float64))
print(torch.tensor([True, False]))
print(torch.arange(6).reshape(2, 3))
print(torch.tensor(3.14159))
print(torch.tensor([1e-8, 1.0]))
print(torch.tensor([1e10, 1.0]))
x = torch.ones(2, requires_grad=True)
print(x * 2, (x * 2).shape, x.dtype)
print(torch.arange(2000.))
""",
    "indexing": """\
import torch
x = torch.arange(12.).reshape(3, 4)
x.requires_grad_()
y = x[1:, ::2]
print(y)
s = y.sum() + x[0, 0] * 10
s.backward()
print(x.grad)
print(x.shape[0], len(x), x.size(1), x.numel())
""",
    "math_module": """\
import math
import torch
x = torch.tensor(math.pi / 2, requires_grad=True)
y = torch.sin(x) * math.e
y.backward()
print(round(y.item(), 4), x.grad)
print(math.sqrt(16), math.floor(2.7), math.log(math.e))
""",
    "list_of_tensors": """\
import torch
ts = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
total = sum(t * t for t in ts)
total.backward()
print([t.grad for t in ts])
print(total)
a, b, c = ts
print(a, b.item(), c.grad.item())
""",
    "no_grad_inplace_update": """\
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    loss = (w ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
print(w)
""",
    "softmax_ce": """\
import torch
import torch.nn.functional as F
logits = torch.tensor([[2.0, 1.0, 0.1]], requires_grad=True)
target = torch.tensor([0])
loss = F.cross_entropy(logits, target)
loss.backward()
print(loss)
print(logits.grad)
print(F.softmax(logits, dim=1))
""",
    "sequential": """\
import torch
import torch.nn as nn
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(model)
x = torch.randn(4, 2)
print(model(x))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_pytorch(name: str) -> None:
    code = PROGRAMS[name]
    result = engine.run(code, seed=0)
    try:
        expected, expected_error = torch_stdout(code, seed=0), None
    except Exception as exc:
        expected, expected_error = None, (type(exc).__name__, str(exc))
    json.dumps(result.events, allow_nan=False)  # plain JSON types only (no numpy scalars, no NaN)
    if expected_error is None:
        assert result.error is None, result.error
        assert result.stdout == expected
    else:
        assert result.error is not None
        assert (result.error["type"], result.error["message"]) == expected_error


def test_module_parameters_are_named_after_the_variable() -> None:
    result = engine.run(PROGRAMS["module_subclass"], seed=0)
    names = [e["name"] for e in result.events if e["type"] == "tensor"][:4]
    assert names == ["net.fc1.weight", "net.fc1.bias", "net.fc2.weight", "net.fc2.bias"]
    forward = [e for e in result.events if e["type"] == "tensor" and e["op"] == "ReluBackward0"]
    assert forward[0]["line"] == 11  # made inside forward()


def test_concurrent_runs_do_not_interfere() -> None:
    names = sorted(PROGRAMS)
    expected = {name: engine.run(PROGRAMS[name], seed=5).stdout for name in names}
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = dict(zip(names, pool.map(lambda n: engine.run(PROGRAMS[n], seed=5).stdout, names)))
    assert got == expected

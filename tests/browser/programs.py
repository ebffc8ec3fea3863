"""Course-sized programs the graph view is tried on (issue 12): a 3-layer MLP trained 20 steps, a micrograd-style
neuron and a custom loop of 500 iterations, next to the three seed lessons (server/lessons)."""

from __future__ import annotations

MLP = """import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(16, 4)
y = torch.randn(16, 1)
for step in range(20):
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
print(loss.item())
"""

NEURON = """import torch

x1 = torch.tensor(2.0, requires_grad=True)
x2 = torch.tensor(0.0, requires_grad=True)
w1 = torch.tensor(-3.0, requires_grad=True)
w2 = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(6.8813735870195432, requires_grad=True)
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
o.backward()
print(x1.grad, w1.grad)
"""

LOOP_500 = """import torch

w = torch.tensor(0.0, requires_grad=True)
for i in range(500):
    loss = (w * 3.0 - 6.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
    w.grad.zero_()
print(w)
"""

PROGRAMS = {"mlp": MLP, "neuron": NEURON, "loop500": LOOP_500}

# Source: https://github.com/pytorch/pytorch, torch/autograd/functional.py
#   at commit 05bcb61d4f31e8778226123f0ff0e24f6efdf7ed (PyTorch docstrings: the examples of
#   torch.autograd.functional.vjp, jvp, jacobian, hessian, vhp and hvp), in the file's order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>`/`...` example lines concatenated in order, prompts removed; the shown outputs and the prose
#   left out
# - imports added at the top (the docstrings use them without importing): `import torch`,
#   `from torch.autograd.functional import vjp, jvp, jacobian, hessian, vhp, hvp`
# - each example's bare expression wrapped in print(...) (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
from torch.autograd.functional import vjp, jvp, jacobian, hessian, vhp, hvp
torch.manual_seed(0)  # case: seed

def exp_reducer(x):
  return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))  # case: printed
print(vjp(exp_reducer, inputs, v, create_graph=True))  # case: printed
def adder(x, y):
  return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))  # case: printed

def exp_reducer(x):
  return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))  # case: printed
print(jvp(exp_reducer, inputs, v, create_graph=True))  # case: printed
def adder(x, y):
  return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))  # case: printed

def exp_reducer(x):
  return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))  # case: printed
print(jacobian(exp_reducer, inputs, create_graph=True))  # case: printed
def exp_adder(x, y):
  return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))  # case: printed

def pow_reducer(x):
  return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))  # case: printed
print(hessian(pow_reducer, inputs, create_graph=True))  # case: printed
def pow_adder_reducer(x, y):
  return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))  # case: printed

def pow_reducer(x):
  return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))  # case: printed
print(vhp(pow_reducer, inputs, v, create_graph=True))  # case: printed
def pow_adder_reducer(x, y):
  return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))  # case: printed

def pow_reducer(x):
  return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))  # case: printed
print(hvp(pow_reducer, inputs, v, create_graph=True))  # case: printed
def pow_adder_reducer(x, y):
  return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))  # case: printed

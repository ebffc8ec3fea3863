# Source: https://github.com/pytorch/tutorials, beginner_source/introyt/autogradyt_tutorial.py
#   at commit 199e9530f4b72f57ba2dc222e1fd18db3efc49ed (Introduction to PyTorch, YouTube series: "The Fundamentals of
#   Autograd"), from "Advanced Topic: More Autograd Detail and the High-Level API" to the end
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - only this section's code (one case per section; the start is pt_autogradyt_basics); prose left out
# - the "Autograd Profiler" section before it left out (its table prints timings)
# - torch.manual_seed(0) added after the import (case: seed; the material draws unseeded)
# - a cell's last bare expression wrapped in print(...) (case: printed; the notebook shows its value)
import torch
torch.manual_seed(0)  # case: seed

x = torch.randn(3, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)


v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float) # stand-in for gradients
y.backward(v)

print(x.grad)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y

inputs = (torch.rand(1), torch.rand(1)) # arguments for the function
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))  # case: printed


inputs = (torch.rand(3), torch.rand(3)) # arguments for the function
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))  # case: printed


def do_some_doubling(x):
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    return y

inputs = torch.randn(3)
my_gradients = torch.tensor([0.1, 1.0, 0.0001])
print(torch.autograd.functional.vjp(do_some_doubling, inputs, v=my_gradients))  # case: printed

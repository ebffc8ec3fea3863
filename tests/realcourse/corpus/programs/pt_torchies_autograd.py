# Source: https://github.com/pytorch/tutorials, beginner_source/former_torchies/autograd_tutorial.py
#   at commit 6d0edbbe17900c8ead4969ecb8c0c0918202a11c (PyTorch for former Torch users: "Autograd")
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - torch.manual_seed(0) added after the import (case: seed; the material draws unseeded)
# - prints of a grad_fn pass through no_address (case: address; PyTorch prints a memory address there)

import torch
torch.manual_seed(0)  # case: seed


def no_address(obj):  # case: address
    text = str(obj)
    at = text.find(" at 0x")
    while at != -1:
        text = text[:at] + text[text.find(">", at):]
        at = text.find(" at 0x")
    return text


x = torch.ones(2, 2, requires_grad=True)
print(x)

print(x.data)

print(x.grad)


print(x.grad_fn)  # we've created x ourselves

y = x + 2
print(y)

# y was created as a result of an operation,
# so it has a grad_fn
print(no_address(y.grad_fn))  # case: address

z = y * y * 3
out = z.mean()

print(z, out)

# ``.to(requires_grad= ... )`` method also lets you change this flag
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a = a.to(requires_grad=True)
print(a.requires_grad)
b = (a * a).sum()
print(no_address(b.grad_fn))  # case: address

out.backward()
print(x.grad)


x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
# the retain_variables flag will prevent the internal buffers from being freed
print(x.grad)

z = y * y
print(z)

# just backprop random gradients

gradient = torch.randn(2, 2)

# this would fail if we didn't specify
# that we want to retain variables
y.backward(gradient)

print(x.grad)

# You can also stops autograd from tracking history on Tensors
# with requires_grad=True by wrapping the code block in
# ``with torch.no_grad():``
print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
	print((x ** 2).requires_grad)

# Source: https://github.com/pytorch/tutorials, beginner_source/basics/autogradqs_tutorial.py
#   at commit 1532c0de875b79f541371438d8d1d08be18f87de (Learn the Basics, "Automatic Differentiation with torch.autograd")
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
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


x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)


print(f"Gradient function for z = {no_address(z.grad_fn)}")  # case: address
print(f"Gradient function for loss = {no_address(loss.grad_fn)}")  # case: address

loss.backward()
print(w.grad)
print(b.grad)


z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)


z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)


inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

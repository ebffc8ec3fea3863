# Source: https://github.com/d2l-ai/d2l-en, chapter_preliminaries/autograd.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 2.5 "Automatic Differentiation"),
#   its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed); `x.grad` while it is None stays bare
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
x = torch.arange(4.0)
print(x)  # case: printed
# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
x.grad  # The gradient is None by default
y = 2 * torch.dot(x, x)
print(y)  # case: printed
y.backward()
print(x.grad)  # case: printed
print(x.grad == 4 * x)  # case: printed
x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
print(x.grad)  # case: printed
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Faster: y.sum().backward()
print(x.grad)  # case: printed
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
print(x.grad == u)  # case: printed
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)  # case: printed
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)  # case: printed

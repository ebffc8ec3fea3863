# Source: https://github.com/karpathy/nn-zero-to-hero, lectures/makemore/makemore_part3_bn.ipynb
#   at commit 73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde (Neural Networks: Zero to Hero, lecture 4 "Building
#   makemore Part 3"), its "BONUS content": the activation and gradient statistics of a 1000x1000 linear layer,
#   without and with batch normalization (the lecture's main part is karpathy_makemore_batchnorm)
# License: MIT (karpathy/nn-zero-to-hero, LICENSE)
# Changes:
# - the two bonus cells after the batch-norm widget, in order; code comments kept; `import torch` added at the top
#   (the notebook imports it in its first cell)
# - left out: the widget cell before them (ipywidgets, scipy.stats, plotting: interactive only)
import torch
# Linear: activation statistics of forward and backward pass

g = torch.Generator().manual_seed(2147483647)

a = torch.randn((1000,1), requires_grad=True, generator=g)          # a.grad = b.T @ c.grad
b = torch.randn((1000,1000), requires_grad=True, generator=g)       # b.grad = c.grad @ a.T
c = b @ a
loss = torch.randn(1000, generator=g) @ c
a.retain_grad()
b.retain_grad()
c.retain_grad()
loss.backward()
print('a std:', a.std().item())
print('b std:', b.std().item())
print('c std:', c.std().item())
print('-----')
print('c grad std:', c.grad.std().item())
print('a grad std:', a.grad.std().item())
print('b grad std:', b.grad.std().item())
# Linear + BatchNorm: activation statistics of forward and backward pass

g = torch.Generator().manual_seed(2147483647)

n = 1000
# linear layer ---
inp = torch.randn(n, requires_grad=True, generator=g)
w = torch.randn((n, n), requires_grad=True, generator=g) # / n**0.5
x = w @ inp
# bn layer ---
xmean = x.mean()
xvar = x.var()
out = (x - xmean) / torch.sqrt(xvar + 1e-5)
# ----
loss = out @ torch.randn(n, generator=g)
inp.retain_grad()
x.retain_grad()
w.retain_grad()
out.retain_grad()
loss.backward()

print('inp std: ', inp.std().item())
print('w std: ', w.std().item())
print('x std: ', x.std().item())
print('out std: ', out.std().item())
print('------')
print('out grad std: ', out.grad.std().item())
print('x grad std: ', x.grad.std().item())
print('w grad std: ', w.grad.std().item())
print('inp grad std: ', inp.grad.std().item())

# Source: https://github.com/pytorch/pytorch, docs/source/notes/autograd.md
#   at commit 3b5cdd4f472f28ef44038ccee2007539f7624abf (PyTorch docs, the "Autograd mechanics" note: "Saved
#   tensors" and "Division by Zero in Autograd")
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the note's python code blocks of those two sections concatenated in order; the prose left out (the comments
#   inside the code kept); the MaskedTensor block (`torch.masked`, experimental) left out
# - `import torch` added at the top (the note uses it without importing)
# - torch.manual_seed(0) added after the imports (case: seed; the note draws unseeded)
# - the "Mask before division" block ends with print(x.grad) (case: printed; its comment shows the gradient)
import torch
torch.manual_seed(0)  # case: seed
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True
x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False
x = torch.tensor([1., 1.], requires_grad=True)
div = torch.tensor([0., 1.])

y = x / div          # Results in [inf, 1]
mask = div != 0      # [False, True]
loss = y[mask].sum()
loss.backward()
print(x.grad)        # [nan, 1], not [0, 1]
x = torch.tensor([1., 1.], requires_grad=True)
div = torch.tensor([0., 1.])

mask = div != 0
safe = torch.zeros_like(x)
safe[mask] = x[mask] / div[mask]
loss = safe.sum()
loss.backward()      # Produces safe gradients [0, 1]
print(x.grad)  # case: printed

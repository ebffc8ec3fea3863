# Source: https://github.com/pytorch/pytorch, torch/autograd/grad_mode.py (and torch/_tensor.py)
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the grad modes and of a gradient hook: torch.no_grad, torch.enable_grad, torch.set_grad_enabled, torch.Tensor.register_post_accumulate_grad_hook, in that order;
#   torch.inference_mode's examples are docs_inference_mode)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:` directives removed; the
#   shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None (`y.backward()`,
#   `v.backward(...)`, `h.remove()`) left bare, as a doctest shows nothing for it
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.no_grad
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)  # case: printed
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)  # case: printed
@torch.no_grad()
def tripler(x):
    return x * 3
z = tripler(x)
print(z.requires_grad)  # case: printed
# factory function exception
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)  # case: printed
# torch.enable_grad
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)  # case: printed
y.backward()
print(x.grad)  # case: printed
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)  # case: printed
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad)  # case: printed
# torch.set_grad_enabled
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)  # case: printed
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)  # case: printed
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)  # case: printed
# torch.Tensor.register_post_accumulate_grad_hook
v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)  # case: printed
h.remove()  # removes the hook

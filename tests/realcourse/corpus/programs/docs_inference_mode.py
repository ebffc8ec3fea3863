# Source: https://github.com/pytorch/pytorch, torch/autograd/grad_mode.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of torch.inference_mode; the other grad modes are
#   docs_grad_modes)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:` directives removed; the
#   shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.inference_mode
import torch
x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)  # case: printed
print(y._version)  # case: printed
@torch.inference_mode()
def func(x):
    return x * x
out = func(x)
print(out.requires_grad)  # case: printed
@torch.inference_mode()
def doubler(x):
    return x * 2
out = doubler(x)
print(out.requires_grad)  # case: printed

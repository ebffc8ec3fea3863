# Source: https://github.com/pytorch/pytorch, torch/nn/modules/module.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of nn.Module.apply, modules, named_modules and to, in that
#   order)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts removed; the shown outputs and the prose
#   left out
# - `import torch` and `import torch.nn as nn` added at the top (the docstrings use them without importing)
# - each example's bare expression wrapped in print(...) (case: printed)
# - Module.to's CUDA lines dropped (`gpu1 = torch.device("cuda:1")` and the `.to(gpu1, dtype=torch.half, ...)`
#   call with the print after it), and its last example (a complex `torch.cdouble` Linear) left out
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
import torch.nn as nn
torch.manual_seed(0)  # case: seed
@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))  # case: printed
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)
linear = nn.Linear(2, 2)
print(linear.weight)  # case: printed
print(linear.to(torch.double))  # case: printed
print(linear.weight)  # case: printed
cpu = torch.device("cpu")
print(linear.to(cpu))  # case: printed
print(linear.weight)  # case: printed

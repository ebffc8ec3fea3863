# Source: https://github.com/pytorch/pytorch, torch/_torch_docs.py (and torch/functional.py for torch.norm)
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the reductions a course uses: torch.sum, torch.mean, torch.std, torch.var, torch.max, torch.min, torch.argmax, torch.cumsum, torch.prod, torch.norm, torch.topk, torch.sort), in that order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.sum
a = torch.randn(1, 3)
print(a)  # case: printed
print(torch.sum(a))  # case: printed
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.sum(a, 1))  # case: printed
b = torch.arange(4 * 5 * 6).view(4, 5, 6)
print(torch.sum(b, (2, 1)))  # case: printed
# torch.mean
a = torch.randn(1, 3)
print(a)  # case: printed
print(torch.mean(a))  # case: printed
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.mean(a, 1))  # case: printed
print(torch.mean(a, 1, True))  # case: printed
# torch.std
a = torch.tensor(
    [[ 0.2035,  1.2959,  1.8101, -0.4644],
     [ 1.5027, -0.3270,  0.5905,  0.6538],
     [-1.5745,  1.3330, -0.5596, -0.6548],
     [ 0.1264, -0.5080,  1.6420,  0.1992]]
)
print(torch.std(a, dim=1, keepdim=True))  # case: printed
# torch.var
a = torch.tensor(
    [[ 0.2035,  1.2959,  1.8101, -0.4644],
     [ 1.5027, -0.3270,  0.5905,  0.6538],
     [-1.5745,  1.3330, -0.5596, -0.6548],
     [ 0.1264, -0.5080,  1.6420,  0.1992]]
)
print(torch.var(a, dim=1, keepdim=True))  # case: printed
# torch.max
a = torch.randn(1, 3)
print(a)  # case: printed
print(torch.max(a))  # case: printed
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.max(a, 1))  # case: printed
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(a.max(dim=1, keepdim=True))  # case: printed
print(a.max(dim=1, keepdim=False))  # case: printed
# torch.min
a = torch.randn(1, 3)
print(a)  # case: printed
print(torch.min(a))  # case: printed
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.min(a, 1))  # case: printed
# torch.argmax
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.argmax(a))  # case: printed
a = torch.randn(4, 4)
print(a)  # case: printed
print(torch.argmax(a, dim=1))  # case: printed
# torch.cumsum
a = torch.randint(1, 20, (10,))
print(a)  # case: printed
print(torch.cumsum(a, dim=0))  # case: printed
# torch.prod
a = torch.randn(1, 3)
print(a)  # case: printed
print(torch.prod(a))  # case: printed
a = torch.randn(4, 2)
print(a)  # case: printed
print(torch.prod(a, 1))  # case: printed
# torch.norm
import torch
a = torch.arange(9, dtype= torch.float) - 4
b = a.reshape((3, 3))
print(torch.norm(a))  # case: printed
print(torch.norm(b))  # case: printed
print(torch.norm(a, float('inf')))  # case: printed
print(torch.norm(b, float('inf')))  # case: printed
c = torch.tensor([[ 1, 2, 3], [-1, 1, 4]] , dtype=torch.float)
print(torch.norm(c, dim=0))  # case: printed
print(torch.norm(c, dim=1))  # case: printed
print(torch.norm(c, p=1, dim=1))  # case: printed
d = torch.arange(8, dtype=torch.float).reshape(2, 2, 2)
print(torch.norm(d, dim=(1, 2)))  # case: printed
print(torch.norm(d[0, :, :]), torch.norm(d[1, :, :]))  # case: printed
# torch.topk
x = torch.arange(1., 6.)
print(x)  # case: printed
print(torch.topk(x, 3))  # case: printed
# torch.sort
x = torch.randn(3, 4)
sorted, indices = torch.sort(x)
print(sorted)  # case: printed
print(indices)  # case: printed
sorted, indices = torch.sort(x, 0)
print(sorted)  # case: printed
print(indices)  # case: printed
x = torch.tensor([0, 1] * 9)
print(x.sort())  # case: printed
print(x.sort(stable=True))  # case: printed

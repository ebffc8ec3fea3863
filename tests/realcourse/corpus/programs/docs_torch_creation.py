# Source: https://github.com/pytorch/pytorch, torch/_torch_docs.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the creation and combination functions a course uses: torch.tensor, torch.arange, torch.linspace, torch.zeros, torch.ones, torch.full, torch.eye, torch.zeros_like, torch.ones_like, torch.rand, torch.randn, torch.randint, torch.randperm, torch.cat, torch.stack, torch.where, torch.clamp), in that order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - the CUDA example of torch.tensor (a float64 tensor on device 'cuda:0') dropped
# - torch.empty's values are never printed here (they are used only as shapes)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.tensor
print(torch.tensor([[0.1, 1.2], [2.2, 3.1], [4.9, 5.2]]))  # case: printed
print(torch.tensor([0, 1]))  # case: printed # Type inference on data
print(torch.tensor(3.14159))  # case: printed # Create a zero-dimensional (scalar) tensor
print(torch.tensor([]))  # case: printed # Create an empty tensor (of size (0,))
# torch.arange
print(torch.arange(5))  # case: printed
print(torch.arange(1, 4))  # case: printed
print(torch.arange(1, 2.5, 0.5))  # case: printed
# torch.linspace
print(torch.linspace(3, 10, steps=5))  # case: printed
print(torch.linspace(-10, 10, steps=5))  # case: printed
print(torch.linspace(start=-10, end=10, steps=5))  # case: printed
print(torch.linspace(start=-10, end=10, steps=1))  # case: printed
# torch.zeros
print(torch.zeros(2, 3))  # case: printed
print(torch.zeros(5))  # case: printed
# torch.ones
print(torch.ones(2, 3))  # case: printed
print(torch.ones(5))  # case: printed
# torch.full
print(torch.full((2, 3), 3.141592))  # case: printed
# torch.eye
print(torch.eye(3))  # case: printed
# torch.zeros_like
input = torch.empty(2, 3)
print(torch.zeros_like(input))  # case: printed
# torch.ones_like
input = torch.empty(2, 3)
print(torch.ones_like(input))  # case: printed
# torch.rand
print(torch.rand(4))  # case: printed
print(torch.rand(2, 3))  # case: printed
# torch.randn
print(torch.randn(4))  # case: printed
print(torch.randn(2, 3))  # case: printed
# torch.randint
print(torch.randint(3, 5, (3,)))  # case: printed
print(torch.randint(10, (2, 2)))  # case: printed
print(torch.randint(3, 10, (2, 2)))  # case: printed
# torch.randperm
print(torch.randperm(4))  # case: printed
# torch.cat
x = torch.randn(2, 3)
print(x)  # case: printed
print(torch.cat((x, x, x), 0))  # case: printed
print(torch.cat((x, x, x), 1))  # case: printed
# torch.stack
x = torch.randn(2, 3)
print(x)  # case: printed
print(torch.stack((x, x)))  # case: printed # same as torch.stack((x, x), dim=0)
print(torch.stack((x, x)).size())  # case: printed
print(torch.stack((x, x), dim=1))  # case: printed
print(torch.stack((x, x), dim=2))  # case: printed
print(torch.stack((x, x), dim=-1))  # case: printed
# torch.where
x = torch.randn(3, 2)
y = torch.ones(3, 2)
print(x)  # case: printed
print(torch.where(x > 0, 1.0, 0.0))  # case: printed
print(torch.where(x > 0, x, y))  # case: printed
x = torch.randn(2, 2, dtype=torch.double)
print(x)  # case: printed
print(torch.where(x > 0, x, 0.))  # case: printed
# torch.clamp
a = torch.randn(4)
print(a)  # case: printed
print(torch.clamp(a, min=-0.5, max=0.5))  # case: printed
min = torch.linspace(-1, 1, steps=4)
print(torch.clamp(a, min=min))  # case: printed

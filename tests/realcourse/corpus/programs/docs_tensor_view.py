# Source: https://github.com/pytorch/pytorch, torch/_tensor_docs.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of torch.Tensor.view, shapes and dtypes; the other Tensor
#   methods are docs_tensor_methods)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.Tensor.view
x = torch.randn(4, 4)
print(x.size())  # case: printed
y = x.view(16)
print(y.size())  # case: printed
z = x.view(-1, 8)  # the size -1 is inferred from other dimensions
print(z.size())  # case: printed
a = torch.randn(1, 2, 3, 4)
print(a.size())  # case: printed
b = a.transpose(1, 2)  # Swaps 2nd and 3rd dimension
print(b.size())  # case: printed
c = a.view(1, 3, 2, 4)  # Does not change tensor layout in memory
print(c.size())  # case: printed
print(torch.equal(b, c))  # case: printed
x = torch.randn(4, 4)
print(x)  # case: printed
print(x.dtype)  # case: printed
y = x.view(torch.int32)
print(y)  # case: printed
y[0, 0] = 1000000000
print(x)  # case: printed
print(x.view(torch.cfloat))  # case: printed
print(x.view(torch.cfloat).size())  # case: printed
print(x.view(torch.uint8))  # case: printed
print(x.view(torch.uint8).size())  # case: printed

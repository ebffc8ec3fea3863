# Source: https://github.com/pytorch/pytorch, torch/_torch_docs.py (and torch/functional.py for torch.split)
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the shape and product functions a course uses: torch.reshape, torch.squeeze, torch.unsqueeze, torch.transpose, torch.permute, torch.flatten, torch.gather, torch.chunk, torch.split, torch.narrow, torch.t, torch.index_select, torch.masked_select, torch.matmul, torch.mm, torch.bmm), in that order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.reshape
a = torch.arange(4.)
print(torch.reshape(a, (2, 2)))  # case: printed
b = torch.tensor([[0, 1], [2, 3]])
print(torch.reshape(b, (-1,)))  # case: printed
# torch.squeeze
x = torch.zeros(2, 1, 2, 1, 2)
print(x.size())  # case: printed
y = torch.squeeze(x)
print(y.size())  # case: printed
y = torch.squeeze(x, 0)
print(y.size())  # case: printed
y = torch.squeeze(x, 1)
print(y.size())  # case: printed
y = torch.squeeze(x, (1, 2, 3))
# torch.unsqueeze
x = torch.tensor([1, 2, 3, 4])
print(torch.unsqueeze(x, 0))  # case: printed
print(torch.unsqueeze(x, 1))  # case: printed
# torch.transpose
x = torch.randn(2, 3)
print(x)  # case: printed
print(torch.transpose(x, 0, 1))  # case: printed
# torch.permute
x = torch.randn(2, 3, 5)
print(x.size())  # case: printed
print(torch.permute(x, (2, 0, 1)).size())  # case: printed
# torch.flatten
t = torch.tensor([[[1, 2],
                   [3, 4]],
                  [[5, 6],
                   [7, 8]]])
print(torch.flatten(t))  # case: printed
print(torch.flatten(t, start_dim=1))  # case: printed
# torch.gather
t = torch.tensor([[1, 2], [3, 4]])
print(torch.gather(t, 1, torch.tensor([[0, 0], [1, 0]])))  # case: printed
# torch.chunk
print(torch.arange(11).chunk(6))  # case: printed
print(torch.arange(12).chunk(6))  # case: printed
print(torch.arange(13).chunk(6))  # case: printed
# torch.split
a = torch.arange(10).reshape(5, 2)
print(a)  # case: printed
print(torch.split(a, 2))  # case: printed
print(torch.split(a, [1, 4]))  # case: printed
# torch.narrow
x = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
print(torch.narrow(x, 0, 0, 2))  # case: printed
print(torch.narrow(x, 1, 1, 2))  # case: printed
print(torch.narrow(x, -1, torch.tensor(-1), 1))  # case: printed
# torch.t
x = torch.randn(())
print(x)  # case: printed
print(torch.t(x))  # case: printed
x = torch.randn(3)
print(x)  # case: printed
print(torch.t(x))  # case: printed
x = torch.randn(2, 3)
print(x)  # case: printed
print(torch.t(x))  # case: printed
# torch.index_select
x = torch.randn(3, 4)
print(x)  # case: printed
indices = torch.tensor([0, 2])
print(torch.index_select(x, 0, indices))  # case: printed
print(torch.index_select(x, 1, indices))  # case: printed
# torch.masked_select
x = torch.randn(3, 4)
print(x)  # case: printed
mask = x.ge(0.5)
print(mask)  # case: printed
print(torch.masked_select(x, mask))  # case: printed
# torch.matmul
# vector x vector
tensor1 = torch.randn(3)
tensor2 = torch.randn(3)
print(torch.matmul(tensor1, tensor2).size())  # case: printed
# matrix x vector
tensor1 = torch.randn(3, 4)
tensor2 = torch.randn(4)
print(torch.matmul(tensor1, tensor2).size())  # case: printed
# batched matrix x broadcasted vector
tensor1 = torch.randn(10, 3, 4)
tensor2 = torch.randn(4)
print(torch.matmul(tensor1, tensor2).size())  # case: printed
# batched matrix x batched matrix
tensor1 = torch.randn(10, 3, 4)
tensor2 = torch.randn(10, 4, 5)
print(torch.matmul(tensor1, tensor2).size())  # case: printed
# batched matrix x broadcasted matrix
tensor1 = torch.randn(10, 3, 4)
tensor2 = torch.randn(4, 5)
print(torch.matmul(tensor1, tensor2).size())  # case: printed
# torch.mm
mat1 = torch.randn(2, 3)
mat2 = torch.randn(3, 3)
print(torch.mm(mat1, mat2))  # case: printed
# torch.bmm
input = torch.randn(10, 3, 4)
mat2 = torch.randn(10, 4, 5)
res = torch.bmm(input, mat2)
print(res.size())  # case: printed

# Source: https://github.com/pytorch/pytorch, torch/_tensor_docs.py (and torch/_tensor.py for register_hook)
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the Tensor methods a course uses: torch.Tensor.expand, torch.Tensor.repeat, torch.Tensor.item, torch.Tensor.tolist, torch.Tensor.scatter_, torch.Tensor.scatter_add_, torch.Tensor.index_add_, torch.Tensor.new_tensor, torch.Tensor.new_zeros, torch.Tensor.new_ones, torch.Tensor.new_full, torch.Tensor.to, torch.Tensor.register_hook, torch.Tensor.size, torch.Tensor.stride), in that order (Tensor.view's examples
#   are docs_tensor_view)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing)
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - the CUDA lines of Tensor.to's example dropped (`cuda0 = torch.device('cuda:0')` and the three calls using it, and
#   `other = torch.randn((), dtype=torch.float64, device=cuda0)`)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
# torch.Tensor.expand
x = torch.tensor([[1], [2], [3]])
print(x.size())  # case: printed
print(x.expand(3, 4))  # case: printed
print(x.expand(-1, 4))  # case: printed # -1 means not changing the size of that dimension
# torch.Tensor.repeat
x = torch.tensor([1, 2, 3])
print(x.repeat(4, 2))  # case: printed
print(x.repeat(4, 2, 1).size())  # case: printed
# torch.Tensor.item
x = torch.tensor([1.0])
print(x.item())  # case: printed
# torch.Tensor.tolist
a = torch.randn(2, 2)
print(a.tolist())  # case: printed
print(a[0,0].tolist())  # case: printed
# torch.Tensor.scatter_
src = torch.arange(1, 11).reshape((2, 5))
print(src)  # case: printed
index = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, index, src))  # case: printed
index = torch.tensor([[0, 1, 2], [0, 1, 4]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(1, index, src))  # case: printed
print(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]),
           1.23, reduce='multiply'))  # case: printed
print(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]),
           1.23, reduce='add'))  # case: printed
index = torch.tensor([[0, 1]])
value = 2
print(torch.zeros(3, 5).scatter_(0, index, value))  # case: printed
# torch.Tensor.scatter_add_
src = torch.ones((2, 5))
index = torch.tensor([[0, 1, 2, 0, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))  # case: printed
index = torch.tensor([[0, 1, 2, 0, 0], [0, 1, 2, 2, 2]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))  # case: printed
# torch.Tensor.index_add_
x = torch.ones(5, 3)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)
index = torch.tensor([0, 4, 2])
print(x.index_add_(0, index, t))  # case: printed
print(x.index_add_(0, index, t, alpha=-1))  # case: printed
# torch.Tensor.new_tensor
tensor = torch.ones((2,), dtype=torch.int8)
data = [[0, 1], [2, 3]]
print(tensor.new_tensor(data))  # case: printed
# torch.Tensor.new_zeros
tensor = torch.tensor((), dtype=torch.float64)
print(tensor.new_zeros((2, 3)))  # case: printed
# torch.Tensor.new_ones
tensor = torch.tensor((), dtype=torch.int32)
print(tensor.new_ones((2, 3)))  # case: printed
# torch.Tensor.new_full
tensor = torch.ones((2,), dtype=torch.float64)
print(tensor.new_full((3, 4), 3.141592))  # case: printed
# torch.Tensor.to
tensor = torch.randn(2, 2)  # Initially dtype=float32, device=cpu
print(tensor.to(torch.float64))  # case: printed
# torch.Tensor.register_hook
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
print(v.backward(torch.tensor([1., 2., 3.])))  # case: printed
print(v.grad)  # case: printed
h.remove()  # removes the hook
# torch.Tensor.size
t = torch.empty(3, 4, 5)
print(t.size())  # case: printed
print(t.size(dim=1))  # case: printed
# torch.Tensor.stride
x = torch.tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
print(x.stride())  # case: printed
print(x.stride(0))  # case: printed
print(x.stride(-1))  # case: printed

# Source: https://github.com/d2l-ai/d2l-en, chapter_preliminaries/ndarray.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 2.1 "Data Manipulation"), its
#   PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - the two `print('id(Z):', id(Z))` lines dropped (they print a memory address, different in every run)
import torch
torch.manual_seed(0)  # case: seed
x = torch.arange(12, dtype=torch.float32)
print(x)  # case: printed
print(x.numel())  # case: printed
print(x.shape)  # case: printed
X = x.reshape(3, 4)
print(X)  # case: printed
print(torch.zeros((2, 3, 4)))  # case: printed
print(torch.ones((2, 3, 4)))  # case: printed
print(torch.randn(3, 4))  # case: printed
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))  # case: printed
print((X[-1], X[1:3]))  # case: printed
X[1, 2] = 17
print(X)  # case: printed
X[:2, :] = 12
print(X)  # case: printed
print(torch.exp(x))  # case: printed
x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print((x + y, x - y, x * y, x / y, x ** y))  # case: printed
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print((torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1)))  # case: printed
print(X == Y)  # case: printed
print(X.sum())  # case: printed
a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print((a, b))  # case: printed
print(a + b)  # case: printed
before = id(Y)
Y = Y + X
print(id(Y) == before)  # case: printed
Z = torch.zeros_like(Y)
Z[:] = X + Y
before = id(X)
X += Y
print(id(X) == before)  # case: printed
A = X.numpy()
B = torch.from_numpy(A)
print((type(A), type(B)))  # case: printed
a = torch.tensor([3.5])
print((a, a.item(), float(a), int(a)))  # case: printed

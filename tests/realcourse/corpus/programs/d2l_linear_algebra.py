# Source: https://github.com/d2l-ai/d2l-en, chapter_preliminaries/linear-algebra.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 2.3 "Linear Algebra"), its
#   PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed)
import torch
x = torch.tensor(3.0)
y = torch.tensor(2.0)

print((x + y, x * y, x / y, x**y))  # case: printed
x = torch.arange(3)
print(x)  # case: printed
print(x[2])  # case: printed
print(len(x))  # case: printed
print(x.shape)  # case: printed
A = torch.arange(6).reshape(3, 2)
print(A)  # case: printed
print(A.T)  # case: printed
A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)  # case: printed
print(torch.arange(24).reshape(2, 3, 4))  # case: printed
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()  # Assign a copy of A to B by allocating new memory
print((A, A + B))  # case: printed
print(A * B)  # case: printed
a = 2
X = torch.arange(24).reshape(2, 3, 4)
print((a + X, (a * X).shape))  # case: printed
x = torch.arange(3, dtype=torch.float32)
print((x, x.sum()))  # case: printed
print((A.shape, A.sum()))  # case: printed
print((A.shape, A.sum(axis=0).shape))  # case: printed
print((A.shape, A.sum(axis=1).shape))  # case: printed
print(A.sum(axis=[0, 1]) == A.sum())  # Same as A.sum()  # case: printed
print((A.mean(), A.sum() / A.numel()))  # case: printed
print((A.mean(axis=0), A.sum(axis=0) / A.shape[0]))  # case: printed
sum_A = A.sum(axis=1, keepdims=True)
print((sum_A, sum_A.shape))  # case: printed
print(A / sum_A)  # case: printed
print(A.cumsum(axis=0))  # case: printed
y = torch.ones(3, dtype = torch.float32)
print((x, y, torch.dot(x, y)))  # case: printed
print(torch.sum(x * y))  # case: printed
print((A.shape, x.shape, torch.mv(A, x), A@x))  # case: printed
B = torch.ones(3, 4)
print((torch.mm(A, B), A@B))  # case: printed
u = torch.tensor([3.0, -4.0])
print(torch.norm(u))  # case: printed
print(torch.abs(u).sum())  # case: printed
print(torch.norm(torch.ones((4, 9))))  # case: printed

# Source: https://github.com/rasbt/LLMs-from-scratch, appendix-A/01_main-chapter-code/code-part1.ipynb
#   at commit 28c65cdfbc3338e2e040016eea4b7fdf556e4d57 (Build a Large Language Model From Scratch, Appendix A
#   "Introduction to PyTorch", part 1), from its start to "A.4 Automatic differentiation made easy" (one case per
#   part; the rest is rasbt_training_loop)
# License: MIT (rasbt/LLMs-from-scratch, LICENSE.txt)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed)
import torch

print(torch.__version__)
print(torch.cuda.is_available())
import torch
import numpy as np

# create a 0D tensor (scalar) from a Python integer
tensor0d = torch.tensor(1)

# create a 1D tensor (vector) from a Python list
tensor1d = torch.tensor([1, 2, 3])

# create a 2D tensor from a nested Python list
tensor2d = torch.tensor([[1, 2], 
                         [3, 4]])

# create a 3D tensor from a nested Python list
tensor3d_1 = torch.tensor([[[1, 2], [3, 4]], 
                           [[5, 6], [7, 8]]])

# create a 3D tensor from NumPy array
ary3d = np.array([[[1, 2], [3, 4]], 
                  [[5, 6], [7, 8]]])
tensor3d_2 = torch.tensor(ary3d)  # Copies NumPy array
tensor3d_3 = torch.from_numpy(ary3d)  # Shares memory with NumPy array
ary3d[0, 0, 0] = 999
print(tensor3d_2) # remains unchanged
print(tensor3d_3) # changes because of memory sharing
tensor1d = torch.tensor([1, 2, 3])
print(tensor1d.dtype)
floatvec = torch.tensor([1.0, 2.0, 3.0])
print(floatvec.dtype)
floatvec = tensor1d.to(torch.float32)
print(floatvec.dtype)
tensor2d = torch.tensor([[1, 2, 3], 
                         [4, 5, 6]])
print(tensor2d)  # case: printed
print(tensor2d.shape)  # case: printed
print(tensor2d.reshape(3, 2))  # case: printed
print(tensor2d.view(3, 2))  # case: printed
print(tensor2d.T)  # case: printed
print(tensor2d.matmul(tensor2d.T))  # case: printed
print(tensor2d @ tensor2d.T)  # case: printed
import torch.nn.functional as F

y = torch.tensor([1.0])  # true label
x1 = torch.tensor([1.1]) # input feature
w1 = torch.tensor([2.2]) # weight parameter
b = torch.tensor([0.0])  # bias unit

z = x1 * w1 + b          # net input
a = torch.sigmoid(z)     # activation & output

loss = F.binary_cross_entropy(a, y)
print(loss)
import torch.nn.functional as F
from torch.autograd import grad

y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)

z = x1 * w1 + b 
a = torch.sigmoid(z)

loss = F.binary_cross_entropy(a, y)

grad_L_w1 = grad(loss, w1, retain_graph=True)
grad_L_b = grad(loss, b, retain_graph=True)

print(grad_L_w1)
print(grad_L_b)
loss.backward()

print(w1.grad)
print(b.grad)

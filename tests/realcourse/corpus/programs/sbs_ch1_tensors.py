# Source: https://github.com/dvgodoy/PyTorchStepByStep, Chapter01.ipynb
#   at commit d837dec7250dae20d247634c4aba63791bd89b2f (Daniel Voigt Godoy, "Deep Learning with PyTorch
#   Step-by-Step", Chapter 1 "A Simple Regression Problem"), "PyTorch": tensors, loading data to tensors and devices (one case per part; the next is sbs_ch1_autograd)
# License: MIT (dvgodoy/PyTorchStepByStep, LICENSE)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed); a tuple as print((a, b))
# - the setup cell dropped (it downloads the book's config.py in Colab, imports it and its plotting helpers);
#   from the imports cell, `from sklearn.linear_model import LinearRegression` and `from torchviz import make_dot`
#   dropped (scikit-learn and torchviz are not PyTorch; the cells that use them are dropped too, below)
# - the cells before this part that it uses kept: the data generation and the train/validation split
# - torch.manual_seed(0) added after the imports (case: seed; `torch.randn((2, 3, 4))` is unseeded)
import numpy as np

import torch
import torch.optim as optim
import torch.nn as nn
torch.manual_seed(0)  # case: seed
true_b = 1
true_w = 2
N = 100

# Data Generation
np.random.seed(42)
x = np.random.rand(N, 1)
epsilon = (.1 * np.random.randn(N, 1))
y = true_b + true_w * x + epsilon
# Shuffles the indices
idx = np.arange(N)
np.random.shuffle(idx)

# Uses first 80 random indices for train
train_idx = idx[:int(N*.8)]
# Uses the remaining indices for validation
val_idx = idx[int(N*.8):]

# Generates train and validation sets
x_train, y_train = x[train_idx], y[train_idx]
x_val, y_val = x[val_idx], y[val_idx]
scalar = torch.tensor(3.14159)
vector = torch.tensor([1, 2, 3])
matrix = torch.ones((2, 3), dtype=torch.float)
tensor = torch.randn((2, 3, 4), dtype=torch.float)

print(scalar)
print(vector)
print(matrix)
print(tensor)
print(tensor.size(), tensor.shape)
print(scalar.size(), scalar.shape)
# We get a tensor with a different shape but it still is
# the SAME tensor
same_matrix = matrix.view(1, 6)
# If we change one of its elements...
same_matrix[0, 1] = 2.
# It changes both variables: matrix and same_matrix
print(matrix)
print(same_matrix)
# We can use "new_tensor" method to REALLY copy it into a new one
different_matrix = matrix.new_tensor(matrix.view(1, 6))
# Now, if we change one of its elements...
different_matrix[0, 1] = 3.
# The original tensor (matrix) is left untouched!
# But we get a "warning" from PyTorch telling us 
# to use "clone()" instead!
print(matrix)
print(different_matrix)
# Lets follow PyTorch's suggestion and use "clone" method
another_matrix = matrix.view(1, 6).clone().detach()
# Again, if we change one of its elements...
another_matrix[0, 1] = 4.
# The original tensor (matrix) is left untouched!
print(matrix)
print(another_matrix)
x_train_tensor = torch.as_tensor(x_train)
print((x_train.dtype, x_train_tensor.dtype))  # case: printed
float_tensor = x_train_tensor.float()
print(float_tensor.dtype)  # case: printed
dummy_array = np.array([1, 2, 3])
dummy_tensor = torch.as_tensor(dummy_array)
# Modifies the numpy array
dummy_array[1] = 0
# Tensor gets modified too...
print(dummy_tensor)  # case: printed
print(dummy_tensor.numpy())  # case: printed
device = 'cuda' if torch.cuda.is_available() else 'cpu'
n_cudas = torch.cuda.device_count()
for i in range(n_cudas):
    print(torch.cuda.get_device_name(i))
gpu_tensor = torch.as_tensor(x_train).to(device)
print(gpu_tensor[0])  # case: printed
device = 'cuda' if torch.cuda.is_available() else 'cpu'

# Our data was in Numpy arrays, but we need to transform them 
# into PyTorch's Tensors and then we send them to the 
# chosen device
x_train_tensor = torch.as_tensor(x_train).float().to(device)
y_train_tensor = torch.as_tensor(y_train).float().to(device)
# Here we can see the difference - notice that .type() is more
# useful since it also tells us WHERE the tensor is (device)
print(type(x_train), type(x_train_tensor), x_train_tensor.type())
back_to_numpy = x_train_tensor.numpy()
back_to_numpy = x_train_tensor.cpu().numpy()

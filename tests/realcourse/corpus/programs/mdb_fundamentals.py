# Source: https://github.com/mrdbourke/pytorch-deep-learning, 00_pytorch_fundamentals.ipynb
#   at commit baa27b691617461c173ecf3439793cd8cde74e13 (Zero to Mastery Learn PyTorch for Deep Learning,
#   "00. PyTorch Fundamentals"), from its start to the matmul that raises, where this case ends (one case per part;
#   the rest is mdb_fundamentals_rest)
# License: MIT (mrdbourke/pytorch-deep-learning)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - IPython magics dropped: the two `%%time` lines (timing), `!nvidia-smi` (a shell command)
# - torch.manual_seed(0) added after the first import (case: seed; the material draws unseeded before its own seed)
import torch
torch.manual_seed(0)  # case: seed
print(torch.__version__)  # case: printed
# Scalar
scalar = torch.tensor(7)
print(scalar)  # case: printed
print(scalar.ndim)  # case: printed
# Get the Python number within a tensor (only works with one-element tensors)
print(scalar.item())  # case: printed
# Vector
vector = torch.tensor([7, 7])
print(vector)  # case: printed
# Check the number of dimensions of vector
print(vector.ndim)  # case: printed
# Check shape of vector
print(vector.shape)  # case: printed
# Matrix
MATRIX = torch.tensor([[7, 8], 
                       [9, 10]])
print(MATRIX)  # case: printed
# Check number of dimensions
print(MATRIX.ndim)  # case: printed
print(MATRIX.shape)  # case: printed
# Tensor
TENSOR = torch.tensor([[[1, 2, 3],
                        [3, 6, 9],
                        [2, 4, 5]]])
print(TENSOR)  # case: printed
# Check number of dimensions for TENSOR
print(TENSOR.ndim)  # case: printed
# Check shape of TENSOR
print(TENSOR.shape)  # case: printed
# Create a random tensor of size (3, 4)
random_tensor = torch.rand(size=(3, 4))
print((random_tensor, random_tensor.dtype))  # case: printed
# Create a random tensor of size (224, 224, 3)
random_image_size_tensor = torch.rand(size=(224, 224, 3))
print((random_image_size_tensor.shape, random_image_size_tensor.ndim))  # case: printed
# Create a tensor of all zeros
zeros = torch.zeros(size=(3, 4))
print((zeros, zeros.dtype))  # case: printed
# Create a tensor of all ones
ones = torch.ones(size=(3, 4))
print((ones, ones.dtype))  # case: printed
# Use torch.arange(), torch.range() is deprecated 
zero_to_ten_deprecated = torch.range(0, 10) # Note: this may return an error in the future

# Create a range of values 0 to 10
zero_to_ten = torch.arange(start=0, end=10, step=1)
print(zero_to_ten)  # case: printed
# Can also create a tensor of zeros similar to another tensor
ten_zeros = torch.zeros_like(input=zero_to_ten) # will have same shape
print(ten_zeros)  # case: printed
# Default datatype for tensors is float32
float_32_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=None, # defaults to None, which is torch.float32 or whatever datatype is passed
                               device=None, # defaults to None, which uses the default tensor type
                               requires_grad=False) # if True, operations performed on the tensor are recorded 

print((float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device))  # case: printed
float_16_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=torch.float16) # torch.half would also work

print(float_16_tensor.dtype)  # case: printed
# Create a tensor
some_tensor = torch.rand(3, 4)

# Find out details about it
print(some_tensor)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}") # will default to CPU
# Create a tensor of values and add a number to it
tensor = torch.tensor([1, 2, 3])
print(tensor + 10)  # case: printed
# Multiply it by 10
print(tensor * 10)  # case: printed
# Tensors don't change unless reassigned
print(tensor)  # case: printed
# Subtract and reassign
tensor = tensor - 10
print(tensor)  # case: printed
# Add and reassign
tensor = tensor + 10
print(tensor)  # case: printed
# Can also use torch functions
print(torch.multiply(tensor, 10))  # case: printed
# Original tensor is still unchanged 
print(tensor)  # case: printed
# Element-wise multiplication (each element multiplies its equivalent, index 0->0, 1->1, 2->2)
print(tensor, "*", tensor)
print("Equals:", tensor * tensor)
import torch
tensor = torch.tensor([1, 2, 3])
print(tensor.shape)  # case: printed
# Element-wise matrix multiplication
print(tensor * tensor)  # case: printed
# Matrix multiplication
print(torch.matmul(tensor, tensor))  # case: printed
# Can also use the "@" symbol for matrix multiplication, though not recommended
print(tensor @ tensor)  # case: printed
# Matrix multiplication by hand 
# (avoid doing operations with for loops at all cost, they are computationally expensive)
value = 0
for i in range(len(tensor)):
  value += tensor[i] * tensor[i]
print(value)  # case: printed
print(torch.matmul(tensor, tensor))  # case: printed
# Shapes need to be in the right way  
tensor_A = torch.tensor([[1, 2],
                         [3, 4],
                         [5, 6]], dtype=torch.float32)

tensor_B = torch.tensor([[7, 10],
                         [8, 11], 
                         [9, 12]], dtype=torch.float32)

print(torch.matmul(tensor_A, tensor_B)) # (this will error)  # case: printed

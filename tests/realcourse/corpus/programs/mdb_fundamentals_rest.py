# Source: https://github.com/mrdbourke/pytorch-deep-learning, 00_pytorch_fundamentals.ipynb
#   at commit baa27b691617461c173ecf3439793cd8cde74e13 (Zero to Mastery Learn PyTorch for Deep Learning,
#   "00. PyTorch Fundamentals"), from the cell after the matmul that raises to its end, after the cell that
#   defines tensor_A and tensor_B (one case per part; the start is mdb_fundamentals)
# License: MIT (mrdbourke/pytorch-deep-learning)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - `import torch` added at the top (the part's cells use the import of the notebook's first cell)
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - IPython magics dropped: `!nvidia-smi` (a shell command)
# - torch.manual_seed(0) added after the import (case: seed; the material draws unseeded before its own seed)
import torch
torch.manual_seed(0)  # case: seed
# Shapes need to be in the right way  
tensor_A = torch.tensor([[1, 2],
                         [3, 4],
                         [5, 6]], dtype=torch.float32)

tensor_B = torch.tensor([[7, 10],
                         [8, 11], 
                         [9, 12]], dtype=torch.float32)

# View tensor_A and tensor_B
print(tensor_A)
print(tensor_B)
# View tensor_A and tensor_B.T
print(tensor_A)
print(tensor_B.T)
# The operation works when tensor_B is transposed
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}\n")
print(f"New shapes: tensor_A = {tensor_A.shape} (same as above), tensor_B.T = {tensor_B.T.shape}\n")
print(f"Multiplying: {tensor_A.shape} * {tensor_B.T.shape} <- inner dimensions match\n")
print("Output:\n")
output = torch.matmul(tensor_A, tensor_B.T)
print(output) 
print(f"\nOutput shape: {output.shape}")
# torch.mm is a shortcut for matmul
print(torch.mm(tensor_A, tensor_B.T))  # case: printed
# Since the linear layer starts with a random weights matrix, let's make it reproducible (more on this later)
torch.manual_seed(42)
# This uses matrix multiplication
linear = torch.nn.Linear(in_features=2, # in_features = matches inner dimension of input 
                         out_features=6) # out_features = describes outer value 
x = tensor_A
output = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{output}\n\nOutput shape: {output.shape}")
# Create a tensor
x = torch.arange(0, 100, 10)
print(x)  # case: printed
print(f"Minimum: {x.min()}")
print(f"Maximum: {x.max()}")
# print(f"Mean: {x.mean()}") # this will error
print(f"Mean: {x.type(torch.float32).mean()}") # won't work without float datatype
print(f"Sum: {x.sum()}")
print((torch.max(x), torch.min(x), torch.mean(x.type(torch.float32)), torch.sum(x)))  # case: printed
# Create a tensor
tensor = torch.arange(10, 100, 10)
print(f"Tensor: {tensor}")

# Returns index of max and min values
print(f"Index where max value occurs: {tensor.argmax()}")
print(f"Index where min value occurs: {tensor.argmin()}")
# Create a tensor and check its datatype
tensor = torch.arange(10., 100., 10.)
print(tensor.dtype)  # case: printed
# Create a float16 tensor
tensor_float16 = tensor.type(torch.float16)
print(tensor_float16)  # case: printed
# Create an int8 tensor
tensor_int8 = tensor.type(torch.int8)
print(tensor_int8)  # case: printed
# Create a tensor
import torch
x = torch.arange(1., 8.)
print((x, x.shape))  # case: printed
# Add an extra dimension
x_reshaped = x.reshape(1, 7)
print((x_reshaped, x_reshaped.shape))  # case: printed
# Change view (keeps same data as original but changes view)
# See more: https://stackoverflow.com/a/54507446/7900723
z = x.view(1, 7)
print((z, z.shape))  # case: printed
# Changing z changes x
z[:, 0] = 5
print((z, x))  # case: printed
# Stack tensors on top of each other
x_stacked = torch.stack([x, x, x, x], dim=0) # try changing dim to dim=1 and see what happens
print(x_stacked)  # case: printed
print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")

# Remove extra dimension from x_reshaped
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")
print(f"Previous tensor: {x_squeezed}")
print(f"Previous shape: {x_squeezed.shape}")

## Add an extra dimension with unsqueeze
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"\nNew tensor: {x_unsqueezed}")
print(f"New shape: {x_unsqueezed.shape}")
# Create tensor with specific shape
x_original = torch.rand(size=(224, 224, 3))

# Permute the original tensor to rearrange the axis order
x_permuted = x_original.permute(2, 0, 1) # shifts axis 0->1, 1->2, 2->0

print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")
# Create a tensor 
import torch
x = torch.arange(1, 10).reshape(1, 3, 3)
print((x, x.shape))  # case: printed
# Let's index bracket by bracket
print(f"First square bracket:\n{x[0]}") 
print(f"Second square bracket: {x[0][0]}") 
print(f"Third square bracket: {x[0][0][0]}")
# Get all values of 0th dimension and the 0 index of 1st dimension
print(x[:, 0])  # case: printed
# Get all values of 0th & 1st dimensions but only index 1 of 2nd dimension
print(x[:, :, 1])  # case: printed
# Get all values of the 0 dimension but only the 1 index value of the 1st and 2nd dimension
print(x[:, 1, 1])  # case: printed
# Get index 0 of 0th and 1st dimension and all values of 2nd dimension 
print(x[0, 0, :]) # same as x[0][0]  # case: printed
# NumPy array to tensor
import torch
import numpy as np
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
print((array, tensor))  # case: printed
# Change the array, keep the tensor
array = array + 1
print((array, tensor))  # case: printed
# Tensor to NumPy array
tensor = torch.ones(7) # create a tensor of ones with dtype=float32
numpy_tensor = tensor.numpy() # will be dtype=float32 unless changed
print((tensor, numpy_tensor))  # case: printed
# Change the tensor, keep the array the same
tensor = tensor + 1
print((tensor, numpy_tensor))  # case: printed
import torch

# Create two random tensors
random_tensor_A = torch.rand(3, 4)
random_tensor_B = torch.rand(3, 4)

print(f"Tensor A:\n{random_tensor_A}\n")
print(f"Tensor B:\n{random_tensor_B}\n")
print(f"Does Tensor A equal Tensor B? (anywhere)")
print(random_tensor_A == random_tensor_B)  # case: printed
import torch
import random

# # Set the random seed
RANDOM_SEED=42 # try changing this to different values and see what happens to the numbers below
torch.manual_seed(seed=RANDOM_SEED) 
random_tensor_C = torch.rand(3, 4)

# Have to reset the seed every time a new rand() is called 
# Without this, tensor_D would be different to tensor_C 
torch.random.manual_seed(seed=RANDOM_SEED) # try commenting this line out and seeing what happens
random_tensor_D = torch.rand(3, 4)

print(f"Tensor C:\n{random_tensor_C}\n")
print(f"Tensor D:\n{random_tensor_D}\n")
print(f"Does Tensor C equal Tensor D? (anywhere)")
print(random_tensor_C == random_tensor_D)  # case: printed
# Check for GPU
import torch
print(torch.cuda.is_available())  # case: printed
# Set device type
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device)  # case: printed
# Count number of devices
print(torch.cuda.device_count())  # case: printed
# Check for Apple Silicon GPU
import torch
print(torch.backends.mps.is_available()) # Note this will print false if you're not running on a Mac  # case: printed
# Set device type
device = "mps" if torch.backends.mps.is_available() else "cpu"
print(device)  # case: printed
if torch.cuda.is_available():
    device = "cuda" # Use NVIDIA GPU (if available)
elif torch.backends.mps.is_available():
    device = "mps" # Use Apple Silicon GPU (if available)
else:
    device = "cpu" # Default to CPU if no GPU is available
# Create tensor (default on CPU)
tensor = torch.tensor([1, 2, 3])

# Tensor not on GPU
print(tensor, tensor.device)

# Move tensor to GPU (if available)
tensor_on_gpu = tensor.to(device)
print(tensor_on_gpu)  # case: printed
# If tensor is on GPU, can't transform it to NumPy (this will error)
print(tensor_on_gpu.numpy())  # case: printed
# Instead, copy the tensor back to cpu
tensor_back_on_cpu = tensor_on_gpu.cpu().numpy()
print(tensor_back_on_cpu)  # case: printed
print(tensor_on_gpu)  # case: printed

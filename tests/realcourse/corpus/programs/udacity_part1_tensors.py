# Source: https://github.com/udacity/deep-learning-v2-pytorch, intro-to-pytorch/Part 1 - Tensors in PyTorch (Solution).ipynb
#   at commit c9404fc86181fc3f0906b368697268257f348535 (Udacity "Intro to PyTorch", Part 1: tensors)
# License: MIT (udacity/deep-learning-v2-pytorch)
# Changes:
# - the code cells concatenated in order, the markdown cells left out
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - np.random.seed(0) added before np.random.rand (case: seed; the notebook draws unseeded)
# First, import PyTorch
import torch
def activation(x):
    """ Sigmoid activation function 
    
        Arguments
        ---------
        x: torch.Tensor
    """
    return 1/(1+torch.exp(-x))
### Generate some data
torch.manual_seed(7) # Set the random seed so things are predictable

# Features are 5 random normal variables
features = torch.randn((1, 5))
# True weights for our data, random normal variables again
weights = torch.randn_like(features)
# and a true bias term
bias = torch.randn((1, 1))
### Solution

# Now, make our labels from our data and true weights

y = activation(torch.sum(features * weights) + bias)
y = activation((features * weights).sum() + bias)
## Solution

y = activation(torch.mm(features, weights.view(5,1)) + bias)
### Generate some data
torch.manual_seed(7) # Set the random seed so things are predictable

# Features are 3 random normal variables
features = torch.randn((1, 3))

# Define the size of each layer in our network
n_input = features.shape[1]     # Number of input units, must match number of input features
n_hidden = 2                    # Number of hidden units 
n_output = 1                    # Number of output units

# Weights for inputs to hidden layer
W1 = torch.randn(n_input, n_hidden)
# Weights for hidden layer to output layer
W2 = torch.randn(n_hidden, n_output)

# and bias terms for hidden and output layers
B1 = torch.randn((1, n_hidden))
B2 = torch.randn((1, n_output))
### Solution

h = activation(torch.mm(features, W1) + B1)
output = activation(torch.mm(h, W2) + B2)
print(output)
import numpy as np
np.random.seed(0)  # case: seed
a = np.random.rand(4,3)
print(a)  # case: printed
b = torch.from_numpy(a)
print(b)  # case: printed
print(b.numpy())  # case: printed
# Multiply PyTorch Tensor by 2, in place
print(b.mul_(2))  # case: printed
# Numpy array matches new values from Tensor
print(a)  # case: printed

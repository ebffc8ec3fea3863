# Source: https://github.com/udacity/deep-learning-v2-pytorch, intro-to-pytorch/Part 2 - Neural Networks in PyTorch (Solution).ipynb
#   at commit c9404fc86181fc3f0906b368697268257f348535 (Udacity "Intro to PyTorch", Part 2: neural networks), from the network by hand
#   on (cells 10 to 29; the cell 29 ends with `dataiter.next()`, which raises under PyTorch 2.x)
# License: MIT (udacity/deep-learning-v2-pytorch)
# Changes:
# - the code cells concatenated in order, the markdown cells left out; the import cell (cell 1) and the data cell
#   (cell 4) kept; cells 6 and 8 (the first `dataiter.next()`, a plot) replaced by `images, labels =
#   next(iter(trainloader))` (case: section; the images cell 10 uses)
# - `%matplotlib inline`, `%config ...`, `import helper`, `import matplotlib.pyplot as plt` dropped (case: plot)
# - the MNIST download replaced by synthetic tensors of the same shapes in a TensorDataset (case: data; 640 images
#   of 1x28x28 with values in [-1, 1) as after Normalize((0.5,), (0.5,)), labels 0..9): `from torchvision import
#   datasets, transforms`, the transform and `datasets.MNIST(...)` dropped; the urllib cell that enables the
#   download dropped
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the notebook draws unseeded)
# Import necessary packages

import numpy as np
import torch
torch.manual_seed(0)  # case: seed
from torch.utils.data import TensorDataset  # case: data


### Run this cell

# Download and load the training data
trainset = TensorDataset(torch.rand(640, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (640,)))  # case: data
trainloader = torch.utils.data.DataLoader(trainset, batch_size=64, shuffle=True)
images, labels = next(iter(trainloader))  # case: section
## Solution
def activation(x):
    return 1/(1+torch.exp(-x))

# Flatten the input images
inputs = images.view(images.shape[0], -1)

# Create parameters
w1 = torch.randn(784, 256)
b1 = torch.randn(256)

w2 = torch.randn(256, 10)
b2 = torch.randn(10)

h = activation(torch.mm(inputs, w1) + b1)

out = activation(torch.mm(h, w2) + b2)
## Solution
def softmax(x):
    return torch.exp(x)/torch.sum(torch.exp(x), dim=1).view(-1, 1)

probabilities = softmax(out)

# Does it have the right shape? Should be (64, 10)
print(probabilities.shape)
# Does it sum to 1?
print(probabilities.sum(dim=1))
from torch import nn
class Network(nn.Module):
    def __init__(self):
        super().__init__()
        
        # Inputs to hidden layer linear transformation
        self.hidden = nn.Linear(784, 256)
        # Output layer, 10 units - one for each digit
        self.output = nn.Linear(256, 10)
        
        # Define sigmoid activation and softmax output 
        self.sigmoid = nn.Sigmoid()
        self.softmax = nn.Softmax(dim=1)
        
    def forward(self, x):
        # Pass the input tensor through each of our operations
        x = self.hidden(x)
        x = self.sigmoid(x)
        x = self.output(x)
        x = self.softmax(x)
        
        return x
# Create the network and look at its text representation
model = Network()
print(model)  # case: printed
import torch.nn.functional as F

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        # Inputs to hidden layer linear transformation
        self.hidden = nn.Linear(784, 256)
        # Output layer, 10 units - one for each digit
        self.output = nn.Linear(256, 10)
        
    def forward(self, x):
        # Hidden layer with sigmoid activation
        x = F.sigmoid(self.hidden(x))
        # Output layer with softmax activation
        x = F.softmax(self.output(x), dim=1)
        
        return x
## Solution

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        # Defining the layers, 128, 64, 10 units each
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 64)
        # Output layer, 10 units - one for each digit
        self.fc3 = nn.Linear(64, 10)
        
    def forward(self, x):
        ''' Forward pass through the network, returns the output logits '''
        
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        x = F.softmax(x, dim=1)
        
        return x

model = Network()
print(model)  # case: printed
print(model.fc1.weight)
print(model.fc1.bias)
# Set biases to all zeros
print(model.fc1.bias.data.fill_(0))  # case: printed
# sample from random normal with standard dev = 0.01
print(model.fc1.weight.data.normal_(std=0.01))  # case: printed
# Grab some data 
dataiter = iter(trainloader)
images, labels = dataiter.next()

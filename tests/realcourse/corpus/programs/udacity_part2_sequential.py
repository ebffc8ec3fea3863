# Source: https://github.com/udacity/deep-learning-v2-pytorch, intro-to-pytorch/Part 2 - Neural Networks in PyTorch (Solution).ipynb
#   at commit c9404fc86181fc3f0906b368697268257f348535 (Udacity "Intro to PyTorch", Part 2: neural networks), the nn.Sequential cells
#   (31 to 37)
# License: MIT (udacity/deep-learning-v2-pytorch)
# Changes:
# - the code cells concatenated in order, the markdown cells left out; the import cell (cell 1) and the data cell
#   (cell 4) kept, with `from torch import nn` (cell 14) before the section
# - `%matplotlib inline`, `%config ...`, `import helper`, `import matplotlib.pyplot as plt` dropped, and the
#   `helper.view_classify(...)` line (case: plot)
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
from torch import nn
# Hyperparameters for our network
input_size = 784
hidden_sizes = [128, 64]
output_size = 10

# Build a feed-forward network
model = nn.Sequential(nn.Linear(input_size, hidden_sizes[0]),
                      nn.ReLU(),
                      nn.Linear(hidden_sizes[0], hidden_sizes[1]),
                      nn.ReLU(),
                      nn.Linear(hidden_sizes[1], output_size),
                      nn.Softmax(dim=1))
print(model)

# Forward pass through the network and display output
images, labels = next(iter(trainloader))
images.resize_(images.shape[0], 1, 784)
ps = model.forward(images[0,:])
print(model[0])
print(model[0].weight)  # case: printed
from collections import OrderedDict
model = nn.Sequential(OrderedDict([
                      ('fc1', nn.Linear(input_size, hidden_sizes[0])),
                      ('relu1', nn.ReLU()),
                      ('fc2', nn.Linear(hidden_sizes[0], hidden_sizes[1])),
                      ('relu2', nn.ReLU()),
                      ('output', nn.Linear(hidden_sizes[1], output_size)),
                      ('softmax', nn.Softmax(dim=1))]))
print(model)  # case: printed
print(model[0])
print(model.fc1)

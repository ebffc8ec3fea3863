# Source: https://github.com/dvgodoy/PyTorchStepByStep, Chapter02.ipynb
#   at commit d837dec7250dae20d247634c4aba63791bd89b2f (Daniel Voigt Godoy, "Deep Learning with PyTorch
#   Step-by-Step", Chapter 2 "Rethinking the Training Loop"), from its start to the cell that raises (`skeleton_exponentiation(2)`: NameError), where this case ends (one
#   case per part; the next is sbs_ch2_train_step)
# License: MIT (dvgodoy/PyTorchStepByStep, LICENSE)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - the setup cell dropped (it downloads the book's config.py in Colab, imports it and its plotting helpers); from
#   the imports cell, scikit-learn, TensorBoard's SummaryWriter and matplotlib (`import`, `%matplotlib inline`,
#   `plt.style.use`) dropped
# - IPython's `%run -i FILE` replaced by the code of FILE (the book's own data_generation/, data_preparation/ and
#   model_configuration/ scripts at the same commit, or the `%%writefile` cell that wrote it, whose magic line
#   is dropped)
import numpy as np

import torch
import torch.optim as optim
import torch.nn as nn
from torch.utils.data import Dataset, TensorDataset, DataLoader
from torch.utils.data.dataset import random_split
# Runs data generation - so we do not need to copy code here
import numpy as np

true_b = 1
true_w = 2
N = 100

# Data Generation
np.random.seed(42)
x = np.random.rand(N, 1)
y = true_b + true_w * x + (.1 * np.random.randn(N, 1))

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

# Runs the first two parts of the sequence: data preparation and model configuration

device = 'cuda' if torch.cuda.is_available() else 'cpu'

# Our data was in Numpy arrays, but we need to transform them
# into PyTorch's Tensors and then we send them to the 
# chosen device
x_train_tensor = torch.as_tensor(x_train).float().to(device)
y_train_tensor = torch.as_tensor(y_train).float().to(device)

# This is redundant now, but it won't be when we introduce
# Datasets...
device = 'cuda' if torch.cuda.is_available() else 'cpu'

# Sets learning rate - this is "eta" ~ the "n"-like Greek letter
lr = 0.1

torch.manual_seed(42)
# Now we can create a model and send it at once to the device
model = nn.Sequential(nn.Linear(1, 1)).to(device)

# Defines a SGD optimizer to update the parameters 
# (now retrieved directly from the model)
optimizer = optim.SGD(model.parameters(), lr=lr)

# Defines a MSE loss function
loss_fn = nn.MSELoss(reduction='mean')
# %load model_training/v0.py

# Defines number of epochs
n_epochs = 1000

for epoch in range(n_epochs):
    # Sets model to TRAIN mode
    model.train()

    # Step 1 - Computes our model's predicted output - forward pass
    # No more manual prediction!
    yhat = model(x_train_tensor)
    
    # Step 2 - Computes the loss
    loss = loss_fn(yhat, y_train_tensor)

    # Step 3 - Computes gradients for both "a" and "b" parameters
    loss.backward()
    
    # Step 4 - Updates parameters using gradients and the learning rate
    optimizer.step()
    optimizer.zero_grad()
print(model.state_dict())
def square(x):
    return x ** 2

def cube(x):
    return x ** 3

def fourth_power(x):
    return x ** 4

# and so on and so forth...
def generic_exponentiation(x, exponent):
    return x ** exponent
def skeleton_exponentiation(x):
    return x ** exponent
skeleton_exponentiation(2)

# Source: https://github.com/jcjohnson/pytorch-examples, nn/two_layer_net_optim.py
#   at commit 1dac6d9d457a2adf5391dd7ed8d216e86de2599d (the original "Learning PyTorch with examples")
# License: MIT (jcjohnson/pytorch-examples)
# Changes:
# - the module docstring (prose) left out
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# (On PyTorch 2.13 the script stops at its first print: `loss.data[0]` indexes a 0-d tensor. That is the truth.)
import torch
from torch.autograd import Variable
torch.manual_seed(0)  # case: seed

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 64, 1000, 100, 10

# Create random Tensors to hold inputs and outputs, and wrap them in Variables.
x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

# Use the nn package to define our model and loss function.
model = torch.nn.Sequential(
          torch.nn.Linear(D_in, H),
          torch.nn.ReLU(),
          torch.nn.Linear(H, D_out),
        )
loss_fn = torch.nn.MSELoss(size_average=False)

# Use the optim package to define an Optimizer that will update the weights of
# the model for us. Here we will use stochastic gradient descent (SGD), but the
# optim package contains many other optimization algoriths. The first argument
# to the Adam constructor tells the optimizer which Variables it should update.
learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(500):
  # Forward pass: compute predicted y by passing x to the model.
  y_pred = model(x)

  # Compute and print loss.
  loss = loss_fn(y_pred, y)
  print(t, loss.data[0])
  
  # Before the backward pass, use the optimizer object to zero all of the
  # gradients for the variables it will update (which are the learnable weights
  # of the model)
  optimizer.zero_grad()

  # Backward pass: compute gradient of the loss with respect to model parameters
  loss.backward()

  # Calling the step function on an Optimizer makes an update to its parameters
  optimizer.step()

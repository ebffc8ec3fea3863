# Source: https://github.com/pytorch/tutorials, beginner_source/examples_tensor/two_layer_net_numpy.py
#   at commit 29c5caad33fdcd34418e62e7cfdddab5c3bd2021 ("Learning PyTorch with Examples", two-layer net version:
#   warm-up with numpy)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring (prose) left out
# - np.random.seed(0) added after the import (case: seed; the material draws unseeded)
import numpy as np
np.random.seed(0)  # case: seed

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 64, 1000, 100, 10

# Create random input and output data
x = np.random.randn(N, D_in)
y = np.random.randn(N, D_out)

# Randomly initialize weights
w1 = np.random.randn(D_in, H)
w2 = np.random.randn(H, D_out)

learning_rate = 1e-6
for t in range(500):
  # Forward pass: compute predicted y
  h = x.dot(w1)
  h_relu = np.maximum(h, 0)
  y_pred = h_relu.dot(w2)
  
  # Compute and print loss
  loss = np.square(y_pred - y).sum()
  print(t, loss)
  
  # Backprop to compute gradients of w1 and w2 with respect to loss
  grad_y_pred = 2.0 * (y_pred - y)
  grad_w2 = h_relu.T.dot(grad_y_pred)
  grad_h_relu = grad_y_pred.dot(w2.T)
  grad_h = grad_h_relu.copy()
  grad_h[h < 0] = 0
  grad_w1 = x.T.dot(grad_h)
 
  # Update weights
  w1 -= learning_rate * grad_w1
  w2 -= learning_rate * grad_w2

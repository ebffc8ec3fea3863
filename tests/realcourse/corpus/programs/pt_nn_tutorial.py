# Source: https://github.com/pytorch/tutorials, beginner_source/nn_tutorial.py
#   at commit 764a8d6aed986f155098d91ea55a1f0c95b26dd8 ("What is torch.nn really?", by Jeremy Howard, fast.ai), the
#   sections "MNIST data setup", "Neural net from scratch" and "Using torch.nn.functional" (the sections after
#   them are pt_nn_tutorial_refactor)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - the MNIST download and unpickling replaced by synthetic numpy arrays of the same dtypes and row size (case:
#   data; 640 training and 320 validation rows of 784 float32 values in [0, 1), labels 0..9 as int64):
#   `from pathlib import Path`, `import requests`, the download, `import pickle`, `import gzip` and the
#   `pickle.load` dropped
# - plotting dropped: `from matplotlib import pyplot`, `pyplot.imshow(...)`, the `google.colab` check and
#   `pyplot.show()` (case: plot); `from IPython.core.debugger import set_trace` dropped (IPython)
# - np.random.seed(0) and torch.manual_seed(0) added (case: seed; the material draws unseeded)
import numpy as np
np.random.seed(0)  # case: seed
x_train = np.random.rand(640, 784).astype(np.float32)  # case: data
y_train = np.random.randint(0, 10, 640).astype(np.int64)  # case: data
x_valid = np.random.rand(320, 784).astype(np.float32)  # case: data
y_valid = np.random.randint(0, 10, 320).astype(np.int64)  # case: data

print(x_train.shape)

import torch
torch.manual_seed(0)  # case: seed

x_train, y_train, x_valid, y_valid = map(
    torch.tensor, (x_train, y_train, x_valid, y_valid)
)
n, c = x_train.shape
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())

import math

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)

def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)

def model(xb):
    return log_softmax(xb @ weights + bias)

bs = 64  # batch size

xb = x_train[0:bs]  # a mini-batch from x
preds = model(xb)  # predictions
preds[0], preds.shape
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()

loss_func = nll

yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()

print(accuracy(preds, yb))

lr = 0.5  # learning rate
epochs = 2  # how many epochs to train for

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        #         set_trace()
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()

print(loss_func(model(xb), yb), accuracy(model(xb), yb))

import torch.nn.functional as F

loss_func = F.cross_entropy

def model(xb):
    return xb @ weights + bias

print(loss_func(model(xb), yb), accuracy(model(xb), yb))

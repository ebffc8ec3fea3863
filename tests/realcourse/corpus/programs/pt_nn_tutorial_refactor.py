# Source: https://github.com/pytorch/tutorials, beginner_source/nn_tutorial.py
#   at commit 764a8d6aed986f155098d91ea55a1f0c95b26dd8 ("What is torch.nn really?", by Jeremy Howard, fast.ai), the
#   sections from "Refactor using nn.Module" to "Create fit() and get_data()" (the logistic model; the sections
#   before them are pt_nn_tutorial)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - the MNIST download and unpickling replaced by synthetic numpy arrays of the same dtypes and row size (case:
#   data; 640 training and 320 validation rows of 784 float32 values in [0, 1), labels 0..9 as int64):
#   `from pathlib import Path`, `import requests`, the download, `import pickle`, `import gzip` and the
#   `pickle.load` dropped
# - plotting dropped: `from matplotlib import pyplot`, `pyplot.imshow(...)`, the `google.colab` check and
#   `pyplot.show()` (case: plot); `from IPython.core.debugger import set_trace` dropped (IPython)
# - the data cells kept, and of the sections before: `import math`, `import torch.nn.functional as F`, `bs`, `lr`,
#   `epochs`, `loss_func = F.cross_entropy`, and `xb, yb` as the last mini-batch their training loop leaves
#   (case: section); the sections' own code follows unchanged
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

import math  # case: section
import torch.nn.functional as F  # case: section
bs = 64  # case: section
lr = 0.5  # case: section
epochs = 2  # case: section
loss_func = F.cross_entropy  # case: section
xb = x_train[(n - 1) // bs * bs:(n - 1) // bs * bs + bs]  # case: section
yb = y_train[(n - 1) // bs * bs:(n - 1) // bs * bs + bs]  # case: section

from torch import nn

class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias

model = Mnist_Logistic()

print(loss_func(model(xb), yb))

def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)

            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()

fit()

print(loss_func(model(xb), yb))

class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)

model = Mnist_Logistic()
print(loss_func(model(xb), yb))

fit()

print(loss_func(model(xb), yb))

from torch import optim

def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)

model, opt = get_model()
print(loss_func(model(xb), yb))

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

print(loss_func(model(xb), yb))

from torch.utils.data import TensorDataset

train_ds = TensorDataset(x_train, y_train)

model, opt = get_model()

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        xb, yb = train_ds[i * bs: i * bs + bs]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

print(loss_func(model(xb), yb))

from torch.utils.data import DataLoader

train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs)

model, opt = get_model()

for epoch in range(epochs):
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

print(loss_func(model(xb), yb))

train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)

valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)

model, opt = get_model()

for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)

    print(epoch, valid_loss / len(valid_dl))


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)

    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()

    return loss.item(), len(xb)

import numpy as np

def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)

        model.eval()
        with torch.no_grad():
            losses, nums = zip(
                *[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl]
            )
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)

        print(epoch, val_loss)


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=True),
        DataLoader(valid_ds, batch_size=bs * 2),
    )

train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
fit(epochs, model, loss_func, opt, train_dl, valid_dl)

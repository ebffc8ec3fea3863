# Source: https://github.com/d2l-ai/d2l-en, chapter_linear-networks/linear-regression-concise.md
#   at commit a024de444e18d9e865de872d2a6de524d697a4b9 (Dive into Deep Learning, 0.16, 3.3 "Concise Implementation of Linear
#   Regression": TensorDataset, DataLoader, nn.Linear, MSELoss, SGD), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch code blocks (`#@tab pytorch`, `#@tab all`) concatenated in order, the other frameworks' blocks,
#   the `#@tab` markers and the prose left out; code comments kept
# - `from d2l import torch as d2l` dropped and the book's aliases written as what the d2l package of that version
#   binds them to: `d2l.normal`, `d2l.matmul`, `d2l.tensor`, `d2l.reshape` as `torch.normal`, `torch.matmul`,
#   `torch.tensor`, `torch.reshape`
# - the book's `d2l.synthetic_data`, which the section calls, written out after the imports (case: the
#   book's synthetic_data), its text as saved from linear-regression-scratch.md (d2l_linreg_scratch)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - each block's last bare expression wrapped in print(...) (case: printed)
import numpy as np
import torch
from torch.utils import data
torch.manual_seed(0)  # case: seed
# case: the book's synthetic_data, from linear-regression-scratch.md (#@save)
def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, torch.reshape(y, (-1, 1))
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)
batch_size = 10
data_iter = load_array((features, labels), batch_size)
print(next(iter(data_iter)))  # case: printed
# `nn` is an abbreviation for neural networks
from torch import nn
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
print(net[0].bias.data.fill_(0))  # case: printed
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X) ,y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')
w = net[0].weight.data
print('error in estimating w:', true_w - torch.reshape(w, true_w.shape))
b = net[0].bias.data
print('error in estimating b:', true_b - b)

# Source: https://github.com/pytorch/pytorch, torch/nn/modules/{linear,pooling,batchnorm,normalization,sparse,
#   dropout,flatten,activation}.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's
#   torch.version.git_version; read from the installed wheel) (PyTorch docstrings: the examples of the layers a course
#   uses: Identity, Linear, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, BatchNorm1d/2d, LayerNorm, Embedding, Dropout,
#   Flatten, ReLU, Sigmoid, Tanh, GELU, LeakyReLU, Softmax, LogSoftmax), file by file, each in the file's order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>`/`...` example lines concatenated, prompts and `# xdoctest:` directives removed; the shown
#   outputs and the prose left out (the conv layers' examples are built at import time, not in the source: left out)
# - imports added at the top (the docstrings use them without importing): `import torch`, `import torch.nn as nn`
# - each example's bare expression wrapped in print(...) (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
import torch.nn as nn
torch.manual_seed(0)  # case: seed
m = nn.Identity(54, unused_argument1=0.1, unused_argument2=False)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
m = nn.Linear(20, 30)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
# pool of square window of size=3, stride=2
m = nn.MaxPool2d(3, stride=2)
# pool of non-square window
m = nn.MaxPool2d((3, 2), stride=(2, 1))
input = torch.randn(20, 16, 50, 32)
output = m(input)
# pool of square window of size=3, stride=2
m = nn.AvgPool2d(3, stride=2)
# pool of non-square window
m = nn.AvgPool2d((3, 2), stride=(2, 1))
input = torch.randn(20, 16, 50, 32)
output = m(input)
# target output size of 5x7
m = nn.AdaptiveAvgPool2d((5, 7))
input = torch.randn(1, 64, 8, 9)
output = m(input)
# target output size of 7x7 (square)
m = nn.AdaptiveAvgPool2d(7)
input = torch.randn(1, 64, 10, 9)
output = m(input)
# target output size of 10x7
m = nn.AdaptiveAvgPool2d((None, 7))
input = torch.randn(1, 64, 10, 9)
output = m(input)
# With Learnable Parameters
m = nn.BatchNorm1d(100)
# Without Learnable Parameters
m = nn.BatchNorm1d(100, affine=False)
input = torch.randn(20, 100)
output = m(input)
# With Learnable Parameters
m = nn.BatchNorm2d(100)
# Without Learnable Parameters
m = nn.BatchNorm2d(100, affine=False)
input = torch.randn(20, 100, 35, 45)
output = m(input)
# NLP Example
batch, sentence_length, embedding_dim = 20, 5, 10
embedding = torch.randn(batch, sentence_length, embedding_dim)
layer_norm = nn.LayerNorm(embedding_dim)
# Activate module
print(layer_norm(embedding))  # case: printed

# Image Example
N, C, H, W = 20, 5, 10, 10
input = torch.randn(N, C, H, W)
# Normalize over the last three dimensions (i.e. the channel and spatial dimensions)
# as shown in the image below
layer_norm = nn.LayerNorm([C, H, W])
output = layer_norm(input)
# an Embedding module containing 10 tensors of size 3
embedding = nn.Embedding(10, 3)
# a batch of 2 samples of 4 indices each
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(embedding(input))  # case: printed
# example with padding_idx
embedding = nn.Embedding(10, 3, padding_idx=0)
input = torch.LongTensor([[0, 2, 0, 5]])
print(embedding(input))  # case: printed
# example of changing `pad` vector
padding_idx = 0
embedding = nn.Embedding(3, 3, padding_idx=padding_idx)
print(embedding.weight)  # case: printed
with torch.no_grad():
    embedding.weight[padding_idx] = torch.ones(3)
print(embedding.weight)  # case: printed
m = nn.Dropout(p=0.2)
input = torch.randn(20, 16)
output = m(input)
input = torch.randn(32, 1, 5, 5)
# With default parameters
m = nn.Flatten()
output = m(input)
print(output.size())  # case: printed
# With non-default parameters
m = nn.Flatten(0, 2)
output = m(input)
print(output.size())  # case: printed
m = nn.ReLU()
input = torch.randn(2)
output = m(input)
m = nn.ReLU()
input = torch.randn(2).unsqueeze(0)
output = torch.cat((m(input), m(-input)))
m = nn.Sigmoid()
input = torch.randn(2)
output = m(input)
m = nn.Tanh()
input = torch.randn(2)
output = m(input)
m = nn.GELU()
input = torch.randn(2)
output = m(input)
m = nn.LeakyReLU(0.1)
input = torch.randn(2)
output = m(input)
m = nn.Softmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)

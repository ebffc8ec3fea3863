# Source: https://github.com/pytorch/pytorch, torch/nn/modules/activation.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the activation modules a course uses: nn.ReLU, nn.Sigmoid, nn.Tanh, nn.Softmax, nn.LogSoftmax, nn.LeakyReLU, nn.ELU, nn.GELU, nn.Softplus, nn.Hardtanh, nn.ReLU6, nn.SiLU, nn.PReLU), in that order
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts and `# xdoctest:`/`# fmt: skip` directives
#   removed; the shown outputs and the prose left out
# - `import torch` added at the top (the docstrings use it without importing); `import torch.nn as nn`
# - each example's bare expression wrapped in print(...) (case: printed); one that returns None left bare
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
import torch.nn as nn
# nn.ReLU
m = nn.ReLU()
input = torch.randn(2)
output = m(input)
m = nn.ReLU()
input = torch.randn(2).unsqueeze(0)
output = torch.cat((m(input), m(-input)))
# nn.Sigmoid
m = nn.Sigmoid()
input = torch.randn(2)
output = m(input)
# nn.Tanh
m = nn.Tanh()
input = torch.randn(2)
output = m(input)
# nn.Softmax
m = nn.Softmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
# nn.LogSoftmax
m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
# nn.LeakyReLU
m = nn.LeakyReLU(0.1)
input = torch.randn(2)
output = m(input)
# nn.ELU
m = nn.ELU()
input = torch.randn(2)
output = m(input)
# nn.GELU
m = nn.GELU()
input = torch.randn(2)
output = m(input)
# nn.Softplus
m = nn.Softplus()
input = torch.randn(2)
output = m(input)
# nn.Hardtanh
m = nn.Hardtanh(-2, 2)
input = torch.randn(2)
output = m(input)
# nn.ReLU6
m = nn.ReLU6()
input = torch.randn(2)
output = m(input)
# nn.SiLU
m = nn.SiLU()
input = torch.randn(2)
output = m(input)
# nn.PReLU
m = nn.PReLU()
input = torch.randn(2)
output = m(input)

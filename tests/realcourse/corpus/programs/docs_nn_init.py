# Source: https://github.com/pytorch/pytorch, torch/nn/init.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the examples of the nn.init functions a course uses: nn.init.uniform_, nn.init.normal_, nn.init.constant_, nn.init.ones_, nn.init.zeros_, nn.init.eye_, nn.init.dirac_, nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.calculate_gain, in that order; orthogonal_ and sparse_ left out; trunc_normal_'s example is
#   docs_nn_init_trunc_normal)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the docstrings' `>>>` example lines concatenated in order, prompts removed; the shown outputs and the prose
#   left out
# - `import torch` and `import torch.nn as nn` added at the top (the docstrings use them without importing)
# - each example's bare expression wrapped in print(...) (case: printed); torch.empty's own values are never
#   printed (every example fills the tensor first)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
import torch.nn as nn
torch.manual_seed(0)  # case: seed
# nn.init.uniform_
w = torch.empty(3, 5)
print(nn.init.uniform_(w))  # case: printed
# nn.init.normal_
w = torch.empty(3, 5)
print(nn.init.normal_(w))  # case: printed
# nn.init.constant_
w = torch.empty(3, 5)
print(nn.init.constant_(w, 0.3))  # case: printed
# nn.init.ones_
w = torch.empty(3, 5)
print(nn.init.ones_(w))  # case: printed
# nn.init.zeros_
w = torch.empty(3, 5)
print(nn.init.zeros_(w))  # case: printed
# nn.init.eye_
w = torch.empty(3, 5)
print(nn.init.eye_(w))  # case: printed
# nn.init.dirac_
w = torch.empty(3, 16, 5, 5)
print(nn.init.dirac_(w))  # case: printed
w = torch.empty(3, 24, 5, 5)
print(nn.init.dirac_(w, 3))  # case: printed
# nn.init.xavier_uniform_
w = torch.empty(3, 5)
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))  # case: printed
# nn.init.xavier_normal_
w = torch.empty(3, 5)
print(nn.init.xavier_normal_(w))  # case: printed
# nn.init.kaiming_uniform_
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))  # case: printed
# nn.init.kaiming_normal_
w = torch.empty(3, 5)
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))  # case: printed
# nn.init.calculate_gain
gain = nn.init.calculate_gain(
    "leaky_relu", 0.2
)  # leaky_relu with negative_slope=0.2

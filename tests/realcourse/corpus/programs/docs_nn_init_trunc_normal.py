# Source: https://github.com/pytorch/pytorch, torch/nn/init.py
#   at commit cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0's torch.version.git_version; read from the
#   installed wheel) (PyTorch docstrings: the example of nn.init.trunc_normal_; the other nn.init functions a course uses are in docs_nn_init: nn.init.uniform_, nn.init.normal_, nn.init.constant_, nn.init.ones_, nn.init.zeros_, nn.init.eye_, nn.init.dirac_, nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.calculate_gain, in that order; orthogonal_ and sparse_ left out)
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
# nn.init.trunc_normal_
w = torch.empty(3, 5)
print(nn.init.trunc_normal_(w))  # case: printed

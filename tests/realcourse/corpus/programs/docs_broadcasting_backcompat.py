# Source: https://github.com/pytorch/pytorch, docs/source/notes/broadcasting.rst
#   at commit 0b4ba994954aad0750a314af7d917933d3cbe786 (PyTorch docs, the "Broadcasting semantics" note)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the note's `>>>` example lines concatenated in order, prompts removed; the shown outputs and the prose left
#   out (the comments inside the examples kept)
# - `import torch` added at the top (the note uses it without importing)
# - each bare expression wrapped in print(...) (case: printed)
# - the section "Backwards compatibility"
# - torch.manual_seed(0) added after the imports (case: seed; the note draws unseeded)
import torch
torch.manual_seed(0)  # case: seed
print(torch.add(torch.ones(4,1), torch.randn(4)))  # case: printed
torch.utils.backcompat.broadcast.warning.enabled=True
print(torch.add(torch.ones(4,1), torch.ones(4)))  # case: printed

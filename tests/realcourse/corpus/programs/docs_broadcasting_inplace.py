# Source: https://github.com/pytorch/pytorch, docs/source/notes/broadcasting.rst
#   at commit 0b4ba994954aad0750a314af7d917933d3cbe786 (PyTorch docs, the "Broadcasting semantics" note)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the note's `>>>` example lines concatenated in order, prompts removed; the shown outputs and the prose left
#   out (the comments inside the examples kept)
# - `import torch` added at the top (the note uses it without importing)
# - each bare expression wrapped in print(...) (case: printed)
# - the section "In-place semantics"; it ends, as the note shows, with the RuntimeError of x.add_(y) for shapes
#   (1,3,1) and (3,1,7)
import torch
x=torch.FloatTensor(5,3,4,1)
y=torch.FloatTensor(3,1,1)
print((x.add_(y)).size())  # case: printed

# but:
x=torch.FloatTensor(1,3,1)
y=torch.FloatTensor(3,1,7)
print((x.add_(y)).size())  # case: printed

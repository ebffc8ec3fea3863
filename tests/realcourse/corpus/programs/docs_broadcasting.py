# Source: https://github.com/pytorch/pytorch, docs/source/notes/broadcasting.rst
#   at commit 0b4ba994954aad0750a314af7d917933d3cbe786 (PyTorch docs, the "Broadcasting semantics" note)
# License: BSD-3-Clause (pytorch/pytorch)
# Changes:
# - the note's `>>>` example lines concatenated in order, prompts removed; the shown outputs and the prose left
#   out (the comments inside the examples kept)
# - `import torch` added at the top (the note uses it without importing)
# - each bare expression wrapped in print(...) (case: printed)
# - the section "General semantics"; it ends, as the note shows, with the RuntimeError of (x+y).size() for
#   shapes (5,2,4,1) and (3,1,1)
import torch
x=torch.FloatTensor(5,7,3)
y=torch.FloatTensor(5,7,3)
# same shapes are always broadcastable (i.e. the above rules always hold)

x=torch.FloatTensor()
y=torch.FloatTensor(2,2)
# x and y are not broadcastable, because x does not have at least 1 dimension

# can line up trailing dimensions
x=torch.FloatTensor(5,3,4,1)
y=torch.FloatTensor(  3,1,1)
# x and y are broadcastable.
# 1st trailing dimension: both have size 1
# 2nd trailing dimension: y has size 1
# 3rd trailing dimension: x size == y size
# 4th trailing dimension: y dimension doesn't exist

# but:
x=torch.FloatTensor(5,2,4,1)
y=torch.FloatTensor(  3,1,1)
# x and y are not broadcastable, because in the 3rd trailing dimension 2 != 3

# can line up trailing dimensions to make reading easier
x=torch.FloatTensor(5,1,4,1)
y=torch.FloatTensor(  3,1,1)
print((x+y).size())  # case: printed

# but not necessary:
x=torch.FloatTensor(1)
y=torch.FloatTensor(3,1,7)
print((x+y).size())  # case: printed

x=torch.FloatTensor(5,2,4,1)
y=torch.FloatTensor(3,1,1)
print((x+y).size())  # case: printed

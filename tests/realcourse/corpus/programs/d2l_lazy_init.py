# Source: https://github.com/d2l-ai/d2l-en, chapter_builders-guide/lazy-init.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 6.4 "Lazy Initialization"), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - `from d2l import torch as d2l` dropped, and the last block, which adds `apply_init` to the book's own
#   `d2l.Module` class (`@d2l.add_to_class`) and never calls it, left out
import torch
from torch import nn
torch.manual_seed(0)  # case: seed
net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
print(net[0].weight)  # case: printed
X = torch.rand(2, 20)
net(X)

print(net[0].weight.shape)  # case: printed

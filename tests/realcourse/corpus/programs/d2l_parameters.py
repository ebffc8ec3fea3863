# Source: https://github.com/d2l-ai/d2l-en, chapter_builders-guide/parameters.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 6.2 "Parameter Management"), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import torch
from torch import nn
torch.manual_seed(0)  # case: seed
net = nn.Sequential(nn.LazyLinear(8),
                    nn.ReLU(),
                    nn.LazyLinear(1))

X = torch.rand(size=(2, 4))
print(net(X).shape)  # case: printed
print(net[2].state_dict())  # case: printed
print((type(net[2].bias), net[2].bias.data))  # case: printed
print(net[2].weight.grad == None)  # case: printed
print([(name, param.shape) for name, param in net.named_parameters()])  # case: printed
# We need to give the shared layer a name so that we can refer to its
# parameters
shared = nn.LazyLinear(8)
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(),
                    shared, nn.ReLU(),
                    shared, nn.ReLU(),
                    nn.LazyLinear(1))

net(X)
# Check whether the parameters are the same
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
# Make sure that they are actually the same object rather than just having the
# same value
print(net[2].weight.data[0] == net[4].weight.data[0])

# Source: https://github.com/d2l-ai/d2l-en, chapter_multilayer-perceptrons/dropout.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 5.6 "Dropout", dropout from scratch), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - `from d2l import torch as d2l` dropped; left out after the first example: the `DropoutMLPScratch` and
#   `DropoutMLP` models (subclasses of the book's own `d2l.Classifier`) and their training on Fashion-MNIST (a
#   download)
import torch
from torch import nn
torch.manual_seed(0)  # case: seed
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)
X = torch.arange(16, dtype = torch.float32).reshape((2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))

# Source: https://github.com/d2l-ai/d2l-en, chapter_multilayer-perceptrons/numerical-stability-and-init.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 5.4 "Numerical Stability and Initialization"), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - plotting: `d2l.plot(x.detach().numpy(), [y.detach().numpy(), x.grad.numpy()], legend=..., figsize=...)` replaced by
#   `print([y.detach().numpy(), x.grad.numpy()])` (case: plot printed), the values it plots; `%matplotlib inline`
#   and `from d2l import torch as d2l` dropped
import torch
torch.manual_seed(0)  # case: seed
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

print([y.detach().numpy(), x.grad.numpy()])  # case: plot printed
M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n',M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M)

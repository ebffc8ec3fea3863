# Source: https://github.com/d2l-ai/d2l-en, chapter_multilayer-perceptrons/mlp.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 5.1 "Multilayer Perceptrons", the activation functions and their gradients), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - plotting: each `d2l.plot(x, values, ...)` call replaced by `print(values)` (case: plot printed), so that the case
#   shows what the book plots; `%matplotlib inline` and `from d2l import torch as d2l` dropped
import torch
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(y.detach())  # case: plot printed
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad)  # case: plot printed
y = torch.sigmoid(x)
print(y.detach())  # case: plot printed
# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad)  # case: plot printed
y = torch.tanh(x)
print(y.detach())  # case: plot printed
# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad)  # case: plot printed

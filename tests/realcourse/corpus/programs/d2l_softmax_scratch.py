# Source: https://github.com/d2l-ai/d2l-en, chapter_linear-classification/softmax-regression-scratch.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 4.4 "Softmax Regression Implementation from Scratch", the softmax and the cross-entropy loss), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose, and the
#   `if tab.selected(...)` branches of the other frameworks, as the book's PyTorch tab shows them); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - `from d2l import torch as d2l` dropped and the book's aliases written as what the d2l package binds them to:
#   `d2l.tensor`, `d2l.rand`, `d2l.exp`, `d2l.log` as the torch functions, `d2l.reduce_sum(x, ...)` as
#   `x.sum(...)`, `d2l.reduce_mean(x)` as `x.mean()`
# - left out: the `SoftmaxRegressionScratch` model (a subclass of the book's own `d2l.Classifier`, its methods
#   added with `@d2l.add_to_class`) and everything that trains and evaluates it on Fashion-MNIST (a download)
import torch
torch.manual_seed(0)  # case: seed
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print((X.sum(0, keepdims=True), X.sum(1, keepdims=True)))  # case: printed
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here
X = torch.rand((2, 5))
X_prob = softmax(X)
print((X_prob, X_prob.sum(1)))  # case: printed
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])  # case: printed
def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y]).mean()

print(cross_entropy(y_hat, y))  # case: printed

# Source: https://github.com/d2l-ai/d2l-en, chapter_optimization/momentum.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 12.6 "Momentum", the two-dimensional examples), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order, the other frameworks' blocks, the tab markers and the prose
#   left out; code comments kept
# - `from d2l import torch as d2l` dropped; the book's `d2l.train_2d`, which these blocks call, written out after the
#   imports (case: d2l.train_2d), its text as saved from chapter_optimization/gd.md (d2l_gd)
# - plotting dropped: `%matplotlib inline`; each `d2l.show_trace_2d(f, d2l.train_2d(...))` became `train_2d(...)`
#   (the call that prints kept, the drawing of its trace dropped)
# - left out after the two-dimensional examples: the plot of beta ** x (only draws) and the sections that train on
#   the airfoil data set (`d2l.get_data_ch11`, a download, with `d2l.train_ch11`), with the optimizer they define
import torch
# case: d2l.train_2d, from chapter_optimization/gd.md (#@save)
def train_2d(trainer, steps=20, f_grad=None):  #@save
    """Optimize a 2D objective function with a customized trainer."""
    # `s1` and `s2` are internal state variables that will be used in Momentum, adagrad, RMSProp
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results

eta = 0.4
def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2
def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)

train_2d(gd_2d)
eta = 0.6
train_2d(gd_2d)
def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2

eta, beta = 0.6, 0.5
train_2d(momentum_2d)
eta, beta = 0.6, 0.25
train_2d(momentum_2d)

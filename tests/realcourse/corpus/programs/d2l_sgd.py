# Source: https://github.com/d2l-ai/d2l-en, chapter_optimization/sgd.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 12.4 "Stochastic Gradient Descent"), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order, the other frameworks' blocks, the tab markers and the prose
#   left out; code comments kept
# - `from d2l import torch as d2l` dropped; the book's `d2l.train_2d`, which these blocks call, written out after the
#   imports (case: d2l.train_2d), its text as saved from chapter_optimization/gd.md (d2l_gd)
# - plotting dropped: `%matplotlib inline`; each `d2l.show_trace_2d(f, d2l.train_2d(...))` became `train_2d(...)`
#   (the call that prints kept, the drawing of its trace dropped)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
import math
import torch
torch.manual_seed(0)  # case: seed
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
def f(x1, x2):  # Objective function
    return x1 ** 2 + 2 * x2 ** 2

def f_grad(x1, x2):  # Gradient of the objective function
    return 2 * x1, 4 * x2
def sgd(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    # Simulate noisy gradient
    g1 += torch.normal(0.0, 1, (1,)).item()
    g2 += torch.normal(0.0, 1, (1,)).item()
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)
def constant_lr():
    return 1

eta = 0.1
lr = constant_lr  # Constant learning rate
train_2d(sgd, steps=50, f_grad=f_grad)
def exponential_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return math.exp(-0.1 * t)

t = 1
lr = exponential_lr
train_2d(sgd, steps=1000, f_grad=f_grad)
def polynomial_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return (1 + 0.1 * t) ** (-0.5)

t = 1
lr = polynomial_lr
train_2d(sgd, steps=50, f_grad=f_grad)

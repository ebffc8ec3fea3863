# Source: https://github.com/d2l-ai/d2l-en, chapter_optimization/gd.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 12.3 "Gradient Descent"), its
#   PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the code blocks for PyTorch (`#@tab pytorch` and `#@tab all`) concatenated in order, the other frameworks'
#   blocks, the `#@tab` markers and the prose left out; code comments kept
# - plotting dropped: `%matplotlib inline`, the plot helpers `show_trace` and `show_trace_2d` (their defs; they
#   only draw), and each call of them: `show_trace(results, f)` left out, `show_trace(gd(0.05, f_grad), f)` became
#   `gd(0.05, f_grad)` (the call that prints kept, the drawing of what it returns dropped), and so for every other
#   `show_trace(...)` and `show_trace_2d(f_2d, ...)` call
# - `from d2l import torch as d2l` dropped and the book's aliases `d2l.tensor`, `d2l.cos`, `d2l.sin`, `d2l.cosh`,
#   `d2l.sinh` written as the torch functions the d2l package binds them to
# - the returned lists are not printed: in the notebook these lines were inside the plot calls, which show nothing
import numpy as np
import torch
def f(x):  # Objective function
    return x ** 2

def f_grad(x):  # Gradient (derivative) of the objective function
    return 2 * x
def gd(eta, f_grad):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x)
        results.append(float(x))
    print(f'epoch 10, x: {x:f}')
    return results

results = gd(0.2, f_grad)
gd(0.05, f_grad)
gd(1.1, f_grad)
c = torch.tensor(0.15 * np.pi)

def f(x):  # Objective function
    return x * torch.cos(c * x)

def f_grad(x):  # Gradient of the objective function
    return torch.cos(c * x) - c * x * torch.sin(c * x)

gd(2, f_grad)
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
def f_2d(x1, x2):  # Objective function
    return x1 ** 2 + 2 * x2 ** 2

def f_2d_grad(x1, x2):  # Gradient of the objective function
    return (2 * x1, 4 * x2)

def gd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    return (x1 - eta * g1, x2 - eta * g2, 0, 0)

eta = 0.1
train_2d(gd_2d, f_grad=f_2d_grad)
c = torch.tensor(0.5)

def f(x):  # Objective function
    return torch.cosh(c * x)

def f_grad(x):  # Gradient of the objective function
    return c * torch.sinh(c * x)

def f_hess(x):  # Hessian of the objective function
    return c**2 * torch.cosh(c * x)

def newton(eta=1):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x) / f_hess(x)
        results.append(float(x))
    print('epoch 10, x:', x)
    return results

newton()
c = torch.tensor(0.15 * np.pi)

def f(x):  # Objective function
    return x * torch.cos(c * x)

def f_grad(x):  # Gradient of the objective function
    return torch.cos(c * x) - c * x * torch.sin(c * x)

def f_hess(x):  # Hessian of the objective function
    return - 2 * c * torch.sin(c * x) - x * c**2 * torch.cos(c * x)

newton()
newton(0.5)

"""``torch.optim``: ``SGD`` (momentum, weight decay, Nesterov) and ``Adam``, following PyTorch's update rules
step for step, so the same run gives the same weights.

Example::

    >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> loss.backward(); opt.step(); opt.zero_grad()

The base class and its helpers are in ``optimizer.py``, plain gradient descent in ``sgd.py``, the optimizers with
per-parameter step sizes (Adam, AdamW, RMSprop, Adagrad) in ``adaptive.py``.
"""

from engine.optim.adaptive import Adagrad, Adam, AdamW, RMSprop
from engine.optim.optimizer import Optimizer
from engine.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]

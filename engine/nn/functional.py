"""``torch.nn.functional`` (``F``): the function forms of layers and losses.

Example::

    >>> F.relu(torch.tensor([-1., 2.]))
    tensor([0., 2.])
"""

from __future__ import annotations

from engine.ops import (  # noqa: F401 - re-exported
    binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, dropout, gelu, l1_loss, leaky_relu,
    linear, log_softmax, mse_loss, nll_loss, relu, sigmoid, softmax, tanh,
)
from engine.ops.elementwise import elu, silu, softplus  # noqa: F401 - re-exported
from engine.ops.pieces import gather  # noqa: F401 - re-exported
from engine.ops.soft_targets import one_hot  # noqa: F401 - re-exported

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout", "gelu",
           "l1_loss", "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "relu", "sigmoid", "softmax",
           "tanh", "softplus", "one_hot", "elu", "silu"]

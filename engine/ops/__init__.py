"""The ops: one class per op (forward and backward side by side), grouped by kind.

Example::

    >>> from engine.ops import arith
    >>> arith.MulBackward0.__doc__
    'a * b: d/da = b, d/db = a (product rule).'
"""

from __future__ import annotations

import engine.tensor  # noqa: F401 - defines Tensor before the ops import it
from engine.ops.arith import add, div, mul, neg, pow, reciprocal, rsub, sub
from engine.ops.linalg import addmm, dot, linear, matmul, mm
from engine.ops.activations import dropout, gelu
from engine.ops.nnops import (
    binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, l1_loss, log_softmax, mse_loss, nll_loss,
    softmax,
)
from engine.ops.stats import all, any, ceil, floor, logsumexp, masked_fill, norm, repeat, round, sign, std, var
from engine.ops.reduce import argmax, argmin, max, mean, min, prod, sum
from engine.ops.indexing import getitem
from engine.ops.shape import (
    cat, clone, expand, flatten, permute, reshape, squeeze, stack, t, to_dtype, transpose, unsqueeze, view,
)
from engine.ops.unary import abs, clamp, cos, exp, leaky_relu, log, relu, sigmoid, sin, sqrt, tanh

__all__ = [
    "add", "sub", "rsub", "mul", "div", "neg", "pow", "reciprocal", "matmul", "mm", "dot", "addmm", "linear",
    "mse_loss", "l1_loss", "nll_loss", "cross_entropy", "binary_cross_entropy", "softmax", "log_softmax",
    "sum", "mean", "max", "min", "prod", "argmax", "argmin", "reshape", "view", "flatten", "transpose", "t",
    "permute", "squeeze", "unsqueeze", "expand", "cat", "stack", "clone", "getitem", "to_dtype",
    "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "sin", "cos", "clamp", "leaky_relu",
    "binary_cross_entropy_with_logits", "dropout", "gelu", "all", "any", "ceil", "floor", "logsumexp",
    "masked_fill", "norm", "repeat", "round", "sign", "std", "var",
]

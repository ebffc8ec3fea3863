"""``nn.init``: fill a weight in place with PyTorch's initialisation schemes (same numbers after a seed).

Example::

    >>> w = torch.empty(2, 3)
    >>> nn.init.kaiming_uniform_(w, a=math.sqrt(5))    # what nn.Linear does to its weight
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import random
from engine.meta import MetaArray, is_meta
from engine.ops import argcheck
from engine.ops.operands import check_alloc
from engine.tensor import Tensor


def _fans(t: Tensor) -> tuple[int, int]:
    if t._data.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    recept = 1
    for s in t._data.shape[2:]:
        recept *= s
    return t._data.shape[1] * recept, t._data.shape[0] * recept


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _tensor(t: Any, attribute: str, op: str = "", *args: Any) -> None:
    """PyTorch's init functions are Python calling a tensor method first (``tensor.uniform_(a, b)``): a non-tensor
    fails on that attribute, a wrongly typed argument in that method's argument parser."""
    if not isinstance(t, Tensor):
        raise AttributeError(f"'{type(t).__name__}' object has no attribute '{attribute}'")
    err = argcheck.refusal(op, args, {}, method=True) if op else None
    if err is not None:
        raise err


def blank(shape: tuple[int, ...], np_dtype: Any, meta: bool = False) -> Tensor:
    """A parameter's storage before its initialisation: zeros, or on the meta device its shape alone."""
    if meta:
        return Tensor._make(MetaArray(shape, np_dtype))
    check_alloc(math.prod(shape))
    return Tensor._make(np.zeros(shape, dtype=np_dtype))


def _fill(t: Tensor, values: Tensor) -> Tensor:
    # Initialisation runs under no_grad in PyTorch: write the values without recording.
    t._data[...] = values._data
    t._version += 1
    return t


def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    _tensor(t, "uniform_", "uniform_", a, b)
    if is_meta(t._data):  # nothing to fill, and nothing drawn from the generator (as PyTorch's meta kernels)
        return t
    return _fill(t, random.uniform_fill(tuple(t._data.shape), a, b, t.dtype))


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    _tensor(t, "normal_", "normal_", mean, std)
    if is_meta(t._data):
        return t
    return _fill(t, random.normal_fill(tuple(t._data.shape), mean, std, t.dtype))


def constant_(t: Tensor, val: float) -> Tensor:
    _tensor(t, "fill_", "fill_", val)
    if is_meta(t._data):
        return t
    t._data[...] = val
    t._version += 1
    return t


def zeros_(t: Tensor) -> Tensor:
    _tensor(t, "zero_")
    return constant_(t, 0.0)


def ones_(t: Tensor) -> Tensor:
    _tensor(t, "fill_")
    return constant_(t, 1.0)


def kaiming_uniform_(t: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> Tensor:
    _tensor(t, "shape")
    fan_in, fan_out = _fans(t)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    bound = math.sqrt(3.0) * std
    return uniform_(t, -bound, bound)


def kaiming_normal_(t: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> Tensor:
    _tensor(t, "shape")
    fan_in, fan_out = _fans(t)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    return normal_(t, 0.0, std)


def xavier_uniform_(t: Tensor, gain: float = 1.0) -> Tensor:
    _tensor(t, "dim")
    fan_in, fan_out = _fans(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(t, -a, a)


def xavier_normal_(t: Tensor, gain: float = 1.0) -> Tensor:
    _tensor(t, "dim")
    fan_in, fan_out = _fans(t)
    return normal_(t, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


__all__ = [
    "uniform_",
    "normal_",
    "constant_",
    "zeros_",
    "ones_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "xavier_uniform_",
    "xavier_normal_",
    "calculate_gain",
]

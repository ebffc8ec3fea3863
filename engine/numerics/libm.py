"""The C library's scalar ``expf``, which ATen's scalar loops call (``std::exp(float)``): the elements of a sigmoid
past the last pair of vectors go through it. glibc's expf is not correctly rounded (its error bound is 0.502 ulp),
so computing e^x in double and rounding differs from it now and then; the same library that PyTorch calls, loaded
with ctypes, gives its bits. Without a C library to load, the correctly rounded value stands in.

Example::

    >>> expf(np.array([0.0, 1.0], np.float32)).tolist()
    [1.0, 2.7182817459106445]
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

import numpy as np


def _load() -> Any:
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    try:
        fn = ctypes.CDLL(name).expf
    except (OSError, AttributeError):
        return None
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fn


_EXPF = _load()


def expf(x: np.ndarray) -> np.ndarray:
    """float32 e^x element by element, as ``std::exp(float)`` gives it (meant for short tails: one call each)."""
    x = np.asarray(x, np.float32)
    if _EXPF is None:
        with np.errstate(all="ignore"):
            return np.exp(x.astype(np.float64)).astype(np.float32)
    return np.array([_EXPF(v) for v in x.reshape(-1).tolist()], np.float32).reshape(x.shape)


__all__ = ["expf"]

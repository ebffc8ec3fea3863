"""Tensor values as JSON-ready Python data, the way ``tolist()`` writes them.

A 0-d array becomes a plain number, others nested lists; arrays over 1000 elements are summarized with their shape;
NaN and infinities become the strings ``"nan"``, ``"inf"``, ``"-inf"`` so the JSON stays valid.

Example::

    >>> to_values(np.array([1.0, np.inf], dtype=np.float32))
    [1.0, 'inf']
    >>> to_values(np.zeros((100, 20)))["shape"]
    [100, 20]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.run_state import state

MAX_ELEMENTS = 1000  # larger arrays are summarized
FIRST = 10  # how many leading values a summary keeps


def _clean(value: Any) -> Any:
    if type(value) is float:
        if value != value:
            return "nan"
        if value in (math.inf, -math.inf):
            return "inf" if value > 0 else "-inf"
        return value
    if type(value) is list:
        return [_clean(v) for v in value]
    return value


def to_values(array: Any) -> Any:
    """``array`` (a numpy array, or None) as JSON-ready values."""
    if array is None:
        return None
    if type(array) is not np.ndarray:
        array = np.asarray(array)
    if array.size > MAX_ELEMENTS:
        return summarize(array)
    values = array.tolist()
    if array.dtype.kind == "f":
        if type(values) is float:
            if values - values != 0:  # nan or ±inf
                return _clean(values)
        elif not _all_finite(array):
            return _clean(values)
    return values


def _all_finite(array: np.ndarray) -> bool:
    """Whether every value is finite. Inside a run (numpy's float errors ignored) one sum says so when it is finite
    itself (a nan or an infinity would make it nan or infinite); an infinite sum of finite values looks again."""
    if state().floats_quiet:
        total = float(np.add.reduce(array, axis=None))
        if total - total == 0:
            return True
    return bool(np.isfinite(array).all())


def summarize(array: np.ndarray) -> dict[str, Any]:
    """``{"summarized": true, "shape", "min", "max", "mean", "first"}`` for a large array."""
    flat = array.reshape(-1)
    n = flat.size
    lo = np.minimum.reduce(flat).item()
    hi = np.maximum.reduce(flat).item()
    first = flat[:FIRST].tolist()
    finite = array.dtype.kind != "f" or (lo - lo == 0 and hi - hi == 0)  # min/max propagate nan; inf - inf is nan
    if finite:
        mean = float(np.add.reduce(flat, dtype=np.float64)) / n
    else:
        with np.errstate(all="ignore"):
            mean = float(np.add.reduce(flat, dtype=np.float64)) / n
        lo, hi, mean, first = _clean(lo), _clean(hi), _clean(mean), _clean(first)
    return {"summarized": True, "shape": list(array.shape), "min": lo, "max": hi, "mean": mean, "first": first}

"""``t.numpy()`` and ``torch.from_numpy(a)``: a tensor and one of our numpy arrays (``engine.ndarray``) over the
same buffer, as in PyTorch: an in-place change to either shows in the other (``a += 1`` after
``t = torch.from_numpy(a)`` changes ``t``; ``t.add_(1)`` after ``a = t.numpy()`` changes ``a``). ``torch.tensor(a)``
copies, keeping numpy's dtype (a float64 array gives a float64 tensor), as PyTorch does.

Example::

    >>> a = np.ones(3)
    >>> t = torch.from_numpy(a)
    >>> a += 1; t
    tensor([2., 2., 2.], dtype=torch.float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import dtypes
from engine.meta import NO_NUMPY, no_values
from engine.ndarray import array_of, host_array, ndarray
from engine.ops.api import tensor_methods, torch_op
from engine.ops.argcheck import type_name
from engine.ops.operands import made
from engine.run_state import state
from engine.tensor import Tensor

TORCH_KINDS = frozenset(np.dtype(n) for n in ("float64", "float32", "float16", "int64", "int32", "int16", "int8"))
TORCH_KINDS |= {np.dtype("uint8"), np.dtype("bool")}


def _numpy(t: Tensor, force: bool = False) -> ndarray:
    """``t.numpy()``: the tensor's own buffer as a numpy array (no copy). Refused for a tensor that requires grad
    while grad mode is on, as PyTorch (under ``no_grad``, or in a custom Function's forward, it is allowed)."""
    if t.requires_grad and state().grad_enabled and not force:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    no_values(t._data, TypeError(NO_NUMPY))
    return array_of(t._data)


@torch_op("from_numpy", method=False, signature="any ndarray")
def from_numpy(a: Any) -> Tensor:
    """``torch.from_numpy(a)``: a tensor over the array's own buffer (no copy)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(a)})")
    arr = host_array(a)
    if arr.dtype not in TORCH_KINDS or dtypes.from_numpy(arr.dtype)._np != arr.dtype:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{arr.dtype.name}. The only supported types are: float64, "
            "float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
            "and bool."
        )
    if any(s < 0 for s in arr.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative strides are not "
            "currently supported. (You can probably work around this by making a copy of your array  with "
            "array.copy().) "
        )
    return made(arr)


def array_data(data: Any) -> np.ndarray | None:
    """The real array behind ``data`` when it is one of our numpy arrays (``torch.tensor(a)`` copies it)."""
    return host_array(data) if isinstance(data, ndarray) else None


tensor_methods({"numpy": _numpy}, signatures={"numpy": "Tensor input, *, bool force=False"})

__all__ = ["array_data", "from_numpy"]

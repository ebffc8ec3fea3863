"""The meta device: tensors that have a shape and a dtype but no elements, as PyTorch's ``device="meta"``.

A meta tensor's ``_data`` is a ``MetaArray``: the shape and the dtype only, never a buffer, so a meta tensor of
10^13 elements costs a few bytes. Ops on meta tensors compute the result's shape and dtype (each op's meta rule,
``engine.ops.meta_rules``) and nothing else; reading values (``.item()``, ``.tolist()``, ``.numpy()``, ``bool()``)
raises PyTorch's errors. A ``MetaArray`` refuses to become a numpy array (``np.asarray`` raises), so no code path
can compute on one by mistake.

Example::

    >>> t = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
    >>> t.sum(dim=1)
    tensor(..., device='meta', size=(1024, 65536, 65536))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

NO_DATA = "Cannot copy out of meta tensor; no data!"
NO_ITEM = "Tensor.item() cannot be called on meta tensors"
TO_EMPTY = (
    "Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving module from meta to a different "
    "device."
)
NO_NUMPY = "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."


class _Layout:
    """The ``flags`` a meta array answers: contiguous, and writable (writing into it stores nothing: in-place ops,
    ``fill_``, ``zero_``, an optimizer's step leave a meta tensor as it was, as in PyTorch)."""

    c_contiguous = True
    owndata = True
    writeable = True


class MetaArray:
    """A shape and a dtype standing in for an array's elements (which a meta tensor does not have).

    Example::

        >>> MetaArray((2, 3), np.float32).nbytes
        24
    """

    __slots__ = ("shape", "dtype")
    shape: tuple[int, ...]
    dtype: np.dtype[Any]

    def __init__(self, shape: tuple[int, ...], dtype: Any) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    base = None  # a meta array is never a view of a buffer
    flags = _Layout()  # laid out as a fresh contiguous tensor (PyTorch's meta tensors carry strides; these do not)

    def proxy(self) -> np.ndarray:
        """A read-only numpy array of this shape whose every element is the same one zero (all strides 0): numpy's
        view functions (reshape, transpose, basic indexing, broadcast_to) work on it without allocating."""
        return np.broadcast_to(np.zeros((), self.dtype), self.shape)

    def astype(self, dtype: Any, copy: bool = True) -> MetaArray:
        return MetaArray(self.shape, dtype)

    def copy(self) -> MetaArray:
        return MetaArray(self.shape, self.dtype)

    def reshape(self, *shape: Any) -> MetaArray:
        return of(self.proxy().reshape(*shape))

    def __setitem__(self, key: Any, value: Any) -> None:
        """``a[...] = values``: there are no elements to write (the values are never read either)."""

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise NotImplementedError(NO_DATA)

    def __add__(self, other: Any) -> MetaArray:  # gradients add up in backward: their shape is what remains
        return MetaArray(
            np.broadcast_shapes(self.shape, np.shape(other) if not is_meta(other) else other.shape), self.dtype
        )

    __radd__ = __add__

    def __repr__(self) -> str:
        return f"MetaArray(shape={self.shape}, dtype={self.dtype})"


def is_meta(a: Any) -> bool:
    """Whether ``a`` (an array held by a tensor) is a meta array."""
    return type(a) is MetaArray


def check_devices(arrays: list[tuple[Any, bool]]) -> None:
    """PyTorch's rule for the devices of one op's inputs (``(array, is a Python number)`` each): a Python number or
    a 0-d CPU tensor may take part in an op on meta tensors; any other input must be on the first one's device."""
    sized = [a for a, number in arrays if not number and (a.ndim or type(a) is MetaArray)]
    for a in sized[1:]:
        if is_meta(a) != is_meta(sized[0]):
            where, expected = ("meta", "cpu") if is_meta(a) else ("cpu", "meta")
            raise RuntimeError(f"Tensor on device {where} is not on the expected device {expected}!")


def move_to_device(tensors: list[Any], meta: bool, dtype: Any) -> bool:
    """``module.to(device)`` for its parameters and buffers: to the meta device, keep their shapes (in ``dtype`` for
    the floating ones, if given); to the CPU, refuse meta ones (there are no values to move). True if moved to meta."""
    if not meta:
        if any(type(t._data) is MetaArray for t in tensors):
            raise NotImplementedError(f"{NO_DATA} {TO_EMPTY}")
        return False
    for t in tensors:
        kind = dtype if dtype is not None and t._data.dtype.kind == "f" else t._data.dtype
        t._data = MetaArray(t._data.shape, kind)
        if t._grad is not None:
            t._grad._data = MetaArray(t._grad._data.shape, kind)
    return True


def no_values(a: Any, error: Exception) -> None:
    """Raise ``error`` (PyTorch's, for reading the values of a meta tensor) if ``a`` is a meta array."""
    if type(a) is MetaArray:
        raise error


def of(view: np.ndarray) -> MetaArray:
    """The meta array of a view of a proxy: its shape and dtype (the view must not own elements of its own)."""
    if view.flags.owndata and view.size > 1:  # pragma: no cover - a meta rule that copied: a bug, never data
        raise RuntimeError("internal error: a meta rule computed elements")
    return MetaArray(view.shape, view.dtype)


__all__ = [
    "MetaArray",
    "NO_DATA",
    "NO_ITEM",
    "NO_NUMPY",
    "check_devices",
    "is_meta",
    "move_to_device",
    "no_values",
    "of",
]

"""What the ops share besides ``Function``: turning operands into tensors of one dtype (Python numbers adapt to the
tensor, as in PyTorch, and a cast is recorded as ``ToCopyBackward0``), broadcasting and summing a gradient back to
an input's shape, and telling the observer and the budget about new tensors.

Example::

    >>> a, b = binary_operands(torch.tensor([1, 2]), 0.5)      # an int tensor and a float: both float32
    >>> unbroadcast(np.ones((2, 3)), (3,))                     # a gradient summed back to a (3,) input
    array([2., 2., 2.])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import dtypes
from engine.meta import MetaArray
from engine.ops.function import Function, WrappedNumber
from engine.ops.summation import torch_sum
from engine.run_state import state
from engine.tensor import Tensor


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``grad`` back to an input's ``shape``: an input broadcast along a dimension got the same value used
    many times, so its gradient is the sum over that dimension (one sum over all those dimensions, in
    PyTorch's order, as its ``sum_to`` does)."""
    if grad.shape == shape:
        return grad
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(i + extra for i, s in enumerate(shape) if s == 1 and grad.shape[i + extra] != 1)
    if axes:
        grad = torch_sum(grad, axes, True) if grad.dtype.kind == "f" else grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape two operands broadcast to, with PyTorch's error when they can't."""
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for i in reversed(range(n)):  # PyTorch reports the last mismatching dimension
        x, y = pa[i], pb[i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension {i}"
            )
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def made(data: np.ndarray) -> Tensor:
    """A new tensor outside the graph (comparisons, argmax, factories), announced to the observer."""
    t = Tensor._make(data)
    obs = state().observer
    if obs is not None:
        obs.tensor_created(t)
    return t


def check_alloc(numel: int, *operands: Tensor) -> None:
    """Ask the run's budget (if any) whether a tensor of ``numel`` elements may be allocated (not when one of the
    op's ``operands`` is on the meta device: its result allocates nothing)."""
    budget = state().budget
    if budget is not None and not any(type(t._data) is MetaArray for t in operands):
        budget.check_alloc(numel)


def as_tensor(value: Any, like: Tensor | None = None) -> Tensor:
    """A Python number (or nested list) as a tensor that requires no grad, with PyTorch's dtype rules."""
    if isinstance(value, Tensor):
        return value
    if like is not None and isinstance(value, (bool, int, float)):
        dt = dtypes.result_type(like.dtype, value)
        if type(value) is int:
            return WrappedNumber._make(_wrapped_int(value, dt._np))
        return WrappedNumber._make(np.asarray(value, dtype=dt._np))
    return Tensor._make(_default_array(value))


def check_scalar(*values: Any) -> None:
    """PyTorch's Scalar holds an int64, or a uint64 past it: a Python int beyond is refused in its words."""
    for value in values:
        if type(value) is int:
            if value >= 2**64:
                raise OverflowError("int too big to convert")
            if value < -(2**63):
                raise OverflowError("can't convert negative int to unsigned")


def _wrapped_int(value: int, dt: np.dtype) -> np.ndarray:
    """A big Python int as PyTorch's Scalar holds it (int64, or uint64 past it; bigger ones are refused in its
    words, not numpy's 'Python int too large to convert to C long'), then cast to ``dt``: integer tensors wrap
    around (``int32 * 2**40`` is 0), as in PyTorch."""
    check_scalar(value)
    if np.dtype(dt).kind in "iu":
        return np.asarray(((value + 2**63) % 2**64) - 2**63, dtype=np.int64).astype(dt)
    return np.asarray(value, dtype=dt)


def _default_array(value: Any) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        return arr.astype(dtypes.default_np())
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    return arr


def binary_operands(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    """Make both operands tensors of one common dtype (numbers adapt to the tensor, as in PyTorch)."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = as_tensor(a)
    if not isinstance(a, Tensor):
        a = as_tensor(a, b)
    elif not isinstance(b, Tensor):
        b = as_tensor(b, a)
    da, db = a._data.dtype, b._data.dtype
    if da != db:
        dt = _promote(a, b)
        if a._data.dtype != dt._np:
            a = cast(a, dt)
        if b._data.dtype != dt._np:
            b = cast(b, dt)
    return a, b


def binary(cls: type[Function], a: Any, b: Any, **params: Any) -> Tensor:
    """Run the two-input op ``cls`` on operands of one dtype, asking the budget first when they broadcast."""
    a, b = binary_operands(a, b)
    shape = broadcast_shape(a._data.shape, b._data.shape)
    if shape != a._data.shape and shape != b._data.shape:
        check_alloc(math.prod(shape), a, b)
    return cls.apply(a, b, **params)


def _category(d: np.dtype) -> int:
    return 0 if d == np.bool_ else 1 if d.kind in "iu" else 2


def _promote(a: Tensor, b: Tensor) -> dtypes.dtype:
    # PyTorch's rule: a higher category (bool < int < float) wins outright; within a category the wider dtype
    # wins, except that a 0-d tensor never widens a tensor with dimensions.
    ca, cb = _category(a._data.dtype), _category(b._data.dtype)
    if ca != cb:
        return a.dtype if ca > cb else b.dtype
    if a._data.ndim == 0 and b._data.ndim > 0:
        return b.dtype
    if b._data.ndim == 0 and a._data.ndim > 0:
        return a.dtype
    return dtypes.promote(a.dtype, b.dtype)


def cast(t: Tensor, dt: dtypes.dtype) -> Tensor:
    """``t`` as dtype ``dt`` (a node when it requires grad)."""
    if not t._requires_grad:
        return type(t)._make(t._data.astype(dt._np))
    return ToCopyBackward0.apply(t, dtype=dt._np)


def promote(a: Tensor, b: Tensor) -> dtypes.dtype:
    """The dtype PyTorch computes ``a`` op ``b`` in."""
    return _promote(a, b)


class ToCopyBackward0(Function):
    """A dtype cast: the gradient is cast back."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dtype: Any = np.float32, to_meta: bool = False) -> Any:
        ctx._dtype = a.dtype
        return MetaArray(a.shape, dtype) if to_meta else a.astype(dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.cast(g, ctx._dtype),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} as {dtypes.from_numpy(self._dtype)!r}",)

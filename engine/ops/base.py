"""What every op shares: ``Function`` (forward and backward side by side) and ``unbroadcast``.

An op is a subclass of ``Function`` named like PyTorch's node (``MulBackward0``). ``_forward(ctx, *arrays)``
computes the result from numpy arrays and saves what backward needs on ``ctx`` (the node itself);
``_backward(ctx, grad_output)`` returns one gradient per tensor input. (The leading underscore keeps both out of
reach of user code, which sees the node as ``y.grad_fn`` and must never get a numpy array from it.)

Example::

    >>> class ExpBackward0(Function):
    ...     @staticmethod
    ...     def _forward(ctx, a): ctx._save(result=np.exp(a)); return ctx._saved["result"]
    ...     @staticmethod
    ...     def _backward(ctx, g): return (g * ctx._saved["result"],)
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from engine import dtypes
from engine.autograd import Node, _edge
from engine.run_state import hold, state
from engine.tensor import Tensor


class _NoCtx:
    """Stand-in ctx when no graph is recorded: saving is a no-op."""

    _needs_input_grad: tuple[bool, ...] = ()

    def _save(*args: Any, **values: Any) -> None:
        pass

    def __setattr__(self, name: str, value: Any) -> None:
        pass


_NO_CTX = _NoCtx()


class Function(Node):
    """Base of every op: ``apply`` runs forward and, when grad mode is on and an input requires grad,
    records this node as the result's ``grad_fn``."""

    @staticmethod
    def _forward(ctx: Any, *args: Any, **kwargs: Any) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs: Tensor, **params: Any) -> Tensor:
        st = state()
        record = st.grad_enabled and any(t._requires_grad for t in inputs)
        ctx: Any = cls() if record else _NO_CTX
        if record:
            ctx._needs_input_grad = tuple(t._requires_grad for t in inputs)
            ctx.next_functions = tuple(_edge(t) for t in inputs)
        with np.errstate(all="ignore"):  # inf/nan follow IEEE rules silently, as in PyTorch
            out = cls._forward(ctx, *[t._data for t in inputs], **params)
        if type(out) is not np.ndarray:  # numpy gives scalars for 0-d results: keep arrays (and what was saved)
            arr = np.asarray(out)
            if record:
                for k, v in ctx._saved.items():
                    if v is out:
                        ctx._saved[k] = arr
            out = arr
        result = Tensor._make(out, ctx if record else None, record)
        if record:
            ctx._in_shapes = tuple(t._data.shape for t in inputs)
            if ctx._saved:
                _track_saved(ctx, inputs, result)
                if st.budget is not None:  # what the node keeps outlives the tensors (y = y.relu() in a loop)
                    for v in ctx._saved.values():
                        if type(v) is np.ndarray:
                            hold(v)
        obs = st.observer
        if obs is not None:
            obs.tensor_created(result)
        return result

    def _apply(self, grad: np.ndarray) -> tuple[np.ndarray | None, ...]:
        versions = self.__dict__.get("_versions")
        if versions and not self._freed:
            for ref, v, is_result in versions:
                t = ref() if is_result else ref
                if t is not None and t._version != v:
                    raise RuntimeError(_modified_message(t, v, self if is_result else t._grad_fn))
        return super()._apply(grad)

    def _release(self) -> None:
        super()._release()
        self.__dict__.pop("_versions", None)


def _track_saved(ctx: Function, inputs: tuple[Tensor, ...], result: Tensor) -> None:
    """Note the version of every tensor whose values backward will read (to catch in-place changes later), and
    keep those tensors (only those: an op that saves nothing keeps nothing alive, as in PyTorch)."""
    saved = ctx._saved
    keys = {id(v) for v in saved.values() if isinstance(v, np.ndarray)}
    versions = []
    kept: list[Tensor | None] = []
    for t in inputs:
        if id(t._data) not in keys:
            kept.append(None)
            continue
        kept.append(t)
        if type(t) is not WrappedNumber:
            versions.append((t, t._version, False))
    ctx._inputs = tuple(kept)
    if id(result._data) in keys:
        ctx._result_data = result._data
        versions.append((weakref.ref(result), 0, True))  # weak: a node must not keep its own output alive
    if versions:
        ctx._versions = versions


class WrappedNumber(Tensor):
    """A Python number taking part in a tensor op (``x * 2``): a 0-d tensor that requires no grad."""

    __slots__ = ()


def _modified_message(t: Tensor, expected: int, node: Node | None) -> str:
    from engine.tensor import _TYPE_NAMES

    shape = ", ".join(str(s) for s in t._data.shape)
    desc = f"[torch.{_TYPE_NAMES[t._data.dtype.name]}Tensor [{shape}]]"
    if node is not None:
        name = node.name()
        base = name[: name.rfind("Backward")] if "Backward" in name else name
        desc += f", which is output 0 of {base},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"{desc} is at version {t._version}; expected version {expected} instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def save_cross(ctx: Any, name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
    """Save what a product's backward needs: ``a`` only if b needs a gradient, ``b`` only if a does."""
    need = ctx._needs_input_grad
    if not need:
        return
    if need[1]:
        ctx._save(**{name_a: a})
    if need[0]:
        ctx._save(**{name_b: b})


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``grad`` back to an input's ``shape``: an input broadcast along a dimension got the same value used
    many times, so its gradient is the sum over that dimension (one sum over all those dimensions, in
    PyTorch's order, as its ``sum_to`` does)."""
    if grad.shape == shape:
        return grad
    from engine.ops.summation import torch_sum

    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, s in enumerate(shape) if s == 1 and grad.shape[i + extra] != 1
    )
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


def check_alloc(numel: int) -> None:
    """Ask the run's budget (if any) whether a tensor of ``numel`` elements may be allocated."""
    budget = state().budget
    if budget is not None:
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
            a = _cast(a, dt)
        if b._data.dtype != dt._np:
            b = _cast(b, dt)
    return a, b


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


def _cast(t: Tensor, dt: dtypes.dtype) -> Tensor:
    if not t._requires_grad:
        return type(t)._make(t._data.astype(dt._np))
    from engine.ops.shape import ToCopyBackward0

    return ToCopyBackward0.apply(t, dtype=dt._np)

"""Indexing: ``x[i]`` (SelectBackward0), ``x[a:b]`` (SliceBackward0), ``x[[0, 2]]`` and masks (IndexBackward0).
Backward puts each gradient back where its value was picked from, zeros elsewhere.

Example::

    >>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    >>> x[0].sum().backward(); x.grad
    tensor([[1., 1.],
            [0., 0.]])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from engine import dtypes
from engine.meta import is_meta
from engine.ndarray import Scalar, ndarray
from engine.ops.api import tensor_methods, torch_op
from engine.ops.function import Function
from engine.ops.operands import as_tensor, cast, check_alloc
from engine.ops.shape import UnsqueezeBackward0, ViewBackward0, check_expandable
from engine.run_state import state
from engine.tensor import Tensor, _dim


class SelectBackward0(Function):
    """``x[i]`` along one dimension: the gradient lands in row i, zeros elsewhere."""

    _saved_fields = ("dim", "index", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: int = 0) -> np.ndarray:
        ctx._save(dim=dim, index=index, self_sym_sizes=tuple(a.shape))
        return a[(slice(None),) * dim + (index,)]

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.embed(s["self_sym_sizes"], (slice(None),) * s["dim"] + (s["index"],), g),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} at [{':, ' * self._saved['dim']}{self._saved['index']}], 0 elsewhere",)


class SliceBackward0(Function):
    """``x[a:b:c]`` along one dimension: the gradient lands in the slice, zeros elsewhere."""

    _saved_fields = ("dim", "start", "end", "step", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, sl: slice = slice(None)) -> np.ndarray:
        start, end, step = sl.indices(a.shape[dim])
        ctx._save(dim=dim, start=start, end=end, step=step, self_sym_sizes=tuple(a.shape))
        return a[(slice(None),) * dim + (sl,)]

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.embed(s["self_sym_sizes"], (slice(None),) * s["dim"] + (slice(s["start"], s["end"], s["step"]),), g),)

    def _templates(self) -> tuple[str | None, ...]:
        s = self._saved
        step = "" if s["step"] == 1 else f":{s['step']}"
        return (f"{{grad}} at [{':, ' * s['dim']}{s['start']}:{s['end']}{step}], 0 elsewhere",)


class IndexBackward0(Function):
    """Advanced indexing (lists, tensors, masks): gradients are added where values were picked (a value picked
    twice gets both gradients)."""

    _saved_fields = ("self_sym_sizes",)
    templates = ("{grad} added where each value was picked, 0 elsewhere",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, key: Any = None) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        ctx._key = key
        return np.asarray(a[key])

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.index_add(s["self_sym_sizes"], ctx._key, g),)


class IndexPutBackward0(Function):
    """Zeros of ``shape`` with the values added at ``key`` (the backward of ``x[key]``, as an op of its own so that
    it can be differentiated again): the gradient of the values is the gradient picked at ``key``."""

    templates = ("{grad} picked where the values were added",)

    @staticmethod
    def _forward(ctx: Any, values: np.ndarray, key: Any = None, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx._key = key
        out = np.zeros(shape, dtype=values.dtype)
        np.add.at(out, key, values)
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.take(g, ctx._key),)


def _is_advanced(k: Any) -> bool:
    return isinstance(k, (list, Tensor, np.ndarray, bool))


def _picked_numel(shape: tuple[int, ...], keys: tuple[Any, ...]) -> int:
    """An upper bound of the elements ``x[keys]`` picks (index arrays broadcast together, other dims kept), worked
    out before numpy builds it: ``x[torch.zeros(10**6, dtype=torch.long)]`` of a 1000 x 1000 ``x`` is refused."""
    n_real = sum(1 for k in keys if k is not None and k is not Ellipsis)
    picked, kept, dim = [], 1, 0
    for k in keys:
        if k is None:
            continue
        if k is Ellipsis:
            for size in shape[dim : dim + len(shape) - n_real]:
                kept *= size
            dim += max(len(shape) - n_real, 0)
        elif isinstance(k, (list, np.ndarray)):
            arr_shape = np.shape(k)
            is_mask = isinstance(k, np.ndarray) and k.dtype == np.bool_
            picked.append((int(np.prod(arr_shape)),) if is_mask else arr_shape)
            dim += len(arr_shape) if is_mask else 1
        elif isinstance(k, slice):
            kept *= shape[dim] if dim < len(shape) else 1
            dim += 1
        else:
            dim += 1
    for size in shape[dim:]:
        kept *= size
    try:
        return int(np.prod(np.broadcast_shapes(*picked))) * kept
    except ValueError:  # index shapes that do not broadcast: numpy reports it
        return 0


def _check_masks(shape: tuple[int, ...], keys: tuple[Any, ...]) -> None:
    """A boolean mask must match the dimensions it indexes (PyTorch's IndexError otherwise)."""
    dim = 0
    for k in keys:
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            for j, size in enumerate(k.shape):
                if dim + j < len(shape) and size != shape[dim + j]:
                    raise IndexError(
                        f"The shape of the mask [{', '.join(map(str, k.shape))}] at index {j} does not match the "
                        f"shape of the indexed tensor [{', '.join(map(str, shape))}] at index {dim + j}"
                    )
            dim += k.ndim
        elif k is not None and k is not Ellipsis:
            dim += 1


def _check_broadcast(keys: tuple[Any, ...]) -> None:
    """The index tensors (a k-dimensional mask counts as k of its true count) broadcast together, checked before
    their bounds, with PyTorch's message."""
    shapes: list[tuple[int, ...]] = []
    for k in keys:
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            shapes += [(int(np.count_nonzero(k)),)] * max(k.ndim, 1)
        elif isinstance(k, (np.ndarray, list)):
            shapes.append(np.shape(k))
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join("[" + ", ".join(map(str, sh)) + "]" for sh in shapes)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {listed}"
        ) from None


def _check_bounds(shape: tuple[int, ...], keys: tuple[Any, ...]) -> None:
    """Integer index arrays within their dimensions, reported as PyTorch does: the dimension counted among the
    indexed ones (slices and plain ints aside), the first bad value in order."""
    dim, nth = 0, 0
    for k in keys:
        if k is Ellipsis:
            dim += len(shape) - sum(
                1 if not isinstance(x, np.ndarray) or x.dtype != np.bool_ else x.ndim
                for x in keys
                if x is not None and x is not Ellipsis
            )
            continue
        if k is None:
            continue
        if isinstance(k, (np.ndarray, list)):
            arr = np.asarray(k)
            if arr.dtype == np.bool_:
                dim, nth = dim + arr.ndim, nth + arr.ndim
                continue
            size = shape[dim] if dim < len(shape) else 0
            bad = arr[(arr < -size) | (arr >= size)]
            if bad.size:
                raise IndexError(
                    f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {nth} with size {size}"
                )
            nth += 1
        dim += 1


_VALID_INDEX = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})"
)


def _checked_keys(keys: tuple[Any, ...]) -> tuple[Any, ...]:
    """PyTorch's refusals of an index (``x[1.5]``, ``x['a']``); a flat list of numbers is read as PyTorch reads it,
    floats truncated (``x[[1.5]]`` is ``x[[1]]``)."""
    out = []
    for k in keys:
        if isinstance(k, list) and any(isinstance(e, float) for e in k):
            if all(isinstance(e, (int, float)) for e in k):
                k = [int(e) for e in k]
        elif isinstance(k, str):
            raise TypeError(f"new(): invalid data type '{type(k).__name__}'")
        elif isinstance(k, range):  # ints, as a list (``logprobs[range(n), Yb]``), sized before it is made
            check_alloc(len(k))
            k = np.arange(k.start, k.stop, k.step, dtype=np.int64)
        elif isinstance(k, (ndarray, Scalar)):  # numpy's (engine/ndarray): its real array, or the int it holds
            k = np.asarray(k) if isinstance(k, ndarray) else operator.index(k)
        elif not (isinstance(k, (int, slice, Tensor, list, np.ndarray)) or k is None or k is Ellipsis):
            raise IndexError(_VALID_INDEX.format(type(k).__name__))
        out.append(k)
    return tuple(out)


def _range_as_list(k: Any) -> Any:
    """A ``range`` indexes as the list of its numbers (``x[range(n), target]``, as PyTorch reads any sequence)."""
    if type(k) is range:
        check_alloc(len(k))
        return list(k)
    return k


def _as_tuple(key: Any) -> Any:
    """A list holding a str, slice, None or ``...`` indexes as the tuple of its items (PyTorch's legacy rule); a
    ``range`` as a list."""
    key = tuple(_range_as_list(k) for k in key) if isinstance(key, tuple) else _range_as_list(key)
    if isinstance(key, list) and any(isinstance(e, (str, slice)) or e is None or e is Ellipsis for e in key):
        return tuple(key)
    return key


def getitem(a: Tensor, key: Any) -> Tensor:
    """``x[key]``: ints select, slices slice, lists/tensors/masks pick (IndexBackward0)."""
    key = _as_tuple(key)
    raw = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, str) for k in raw) and sum(k is not None and k is not Ellipsis for k in raw) > a._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a._data.ndim}")  # counted before types
    keys = _checked_keys(raw)
    key = keys if isinstance(key, tuple) else keys[0]
    if any(_is_advanced(k) for k in keys):
        np_key = tuple(k._data if isinstance(k, Tensor) else k for k in keys)
        for k in np_key:
            if isinstance(k, np.ndarray) and k.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if not is_meta(a._data) and not any(is_meta(k) for k in np_key):  # (meta indices: no values to check)
            _check_masks(a._data.shape, np_key)
            _check_broadcast(np_key)
            _check_bounds(a._data.shape, np_key)
            check_alloc(_picked_numel(a._data.shape, np_key))
        return IndexBackward0.apply(a, key=np_key if len(np_key) > 1 else np_key[0])
    n_real = sum(1 for k in keys if k is not None and k is not Ellipsis)
    if a._data.ndim == 0 and n_real and all(isinstance(k, int) for k in keys):
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert "
            "a 0-dim tensor to a number"
        )
    if n_real > a._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a._data.ndim}")
    out, dim = a, 0
    for k in keys:
        if k is Ellipsis:
            dim += a._data.ndim - n_real
        elif k is None:
            out = UnsqueezeBackward0.apply(out, dim=dim)
            dim += 1
        elif isinstance(k, slice):
            size = out._data.shape[dim]
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero")
            if k.indices(size) != (0, size, 1):
                out = SliceBackward0.apply(out, dim=dim, sl=k)
            dim += 1
        else:
            idx = int(k)
            size = out._data.shape[dim]
            if not -size <= idx < size:
                raise IndexError(f"index {idx} is out of bounds for dimension {dim} with size {size}")
            out = SelectBackward0.apply(out, dim=dim, index=idx % size)
    if out is a:  # x[:] or x[...]: a view of the same values
        out = ViewBackward0.apply(a, shape=a._data.shape)
    return out


class CopySlices(Function):
    """``x[key] = value``: the written part's gradient goes to ``value`` (summed to its shape), the rest flows
    back to the old ``x``."""

    templates = ("{grad} with the written part set to 0", "{grad} at the written part")

    def name(self) -> str:
        return "torch::autograd::CopySlices"  # a C++ node in PyTorch, named with its namespace like AccumulateGrad

    @staticmethod
    def _forward(ctx: Any, old: np.ndarray, value: np.ndarray, key: Any = None) -> np.ndarray:
        out = old.copy()
        ctx._key = key
        ctx._value_shape = value.shape
        written = np.ndim(out[key])
        while value.ndim > written and value.shape[0] == 1:  # leading 1s beyond the written part are dropped
            value = value.reshape(value.shape[1:])
        out[key] = value
        ctx._written_shape = value.shape
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        key = ctx._key
        return k.zero_at(g, key), k.reshape(k.sum_to(k.take(g, key), ctx._written_shape), ctx._value_shape)


def _np_key(key: Any) -> Any:
    keys = key if isinstance(key, tuple) else (key,)
    out = tuple(k._data if isinstance(k, Tensor) else k for k in keys)
    return out if isinstance(key, tuple) else out[0]


def setitem(t: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value`` in place (PyTorch records a CopySlices node when autograd is involved)."""
    st = state()
    key = _as_tuple(key)
    keys = _checked_keys(key if isinstance(key, tuple) else (key,))
    key = keys if isinstance(key, tuple) else keys[0]
    if not isinstance(value, (Tensor, int, float)):
        raise TypeError(f"can't assign a {type(value).__name__} to a {t.type()}")
    np_key = _np_key(key)
    if t._grad_fn is None and t._requires_grad and st.grad_enabled:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    v = value if isinstance(value, Tensor) else as_tensor(value, t)
    _check_bounds(t._data.shape, np_key if isinstance(np_key, tuple) else (np_key,))
    target_shape = np.empty(t._data.shape, dtype=bool)[np_key].shape
    shape = v._data.shape
    while shape and shape[0] == 1:  # PyTorch drops the value's leading 1s first: x[0] = torch.ones(1, 2) is fine
        shape = shape[1:]
    advanced = any(isinstance(k, (Tensor, list, np.ndarray)) for k in (key if isinstance(key, tuple) else (key,)))
    if not advanced:  # a plain slice is written by copy_, which expands the value: expand's errors
        check_expandable(v.type(), shape, target_shape)
    try:
        np.broadcast_to(np.empty(shape, dtype=bool), target_shape)
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape [{', '.join(map(str, v._data.shape))}] cannot be broadcast to "
            f"indexing result of shape [{', '.join(map(str, target_shape))}]"
        ) from None
    if st.grad_enabled and (t._requires_grad or v._requires_grad):
        obs = st.observer
        old = Tensor._make(t._data.copy(), t._grad_fn, t._requires_grad)
        if v._data.dtype != t._data.dtype:
            v = cast(v, dtypes.from_numpy(t._data.dtype))
        st.observer = None
        try:
            res = CopySlices.apply(old, v, key=np_key)
        finally:
            st.observer = obs
        t._data[...] = res._data
        t._version += 1
        t._grad_fn = res._grad_fn
        t._requires_grad = True
        if obs is not None:
            obs.tensor_created(t)
        return
    before = t._data.copy() if t._requires_grad and st.observer is not None else None
    t._data[np_key] = v._data.reshape(shape)
    t._version += 1
    if before is not None:
        st.observer.param_stepped(t, before, t._data)


tensor_methods({"__getitem__": getitem, "__setitem__": setitem})


@torch_op("narrow", signature="Tensor input, int dim, int start, int length")
def narrow(a: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """``length`` elements of dimension ``dim`` from ``start``: a slice (SliceBackward0), as in PyTorch."""
    if a._data.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d, start = _dim(dim, a._data.ndim), int(start)
    size = a._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return getitem(a, (slice(None),) * d + (slice(start, start + length),))

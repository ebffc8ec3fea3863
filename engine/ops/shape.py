"""Ops that move values around without changing them: reshape/view, transpose, permute, squeeze, unsqueeze,
expand, cat, stack, dtype casts (indexing is in ``indexing.py``). Backward puts each gradient back where its
value came from.

Example::

    >>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    >>> x.t().reshape(4).grad_fn      # a transposed tensor is copied, then viewed
    <UnsafeViewBackward0 object at 0x...>
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import autograd, dtypes
from engine.meta import NO_DATA, MetaArray, is_meta, no_values
from engine.ops.api import tensor_methods, torch_op
from engine.ops.dtype_view import view_as_dtype
from engine.ops.function import Function
from engine.ops.operands import ToCopyBackward0, check_alloc, made
from engine.run_state import state
from engine.size_device import check_device, device
from engine.tensor import Tensor, _dim

_REBUILT = "{grad} reshaped to {0.shape}"


class ViewBackward0(Function):
    """A new shape over the same values: the gradient is reshaped back."""

    _saved_fields = ("self_sym_sizes",)
    templates = (_REBUILT,)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        return a.reshape(shape)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.reshape(g, s["self_sym_sizes"]),)


class UnsafeViewBackward0(ViewBackward0):
    """reshape of a copy (used when the input's memory layout is not contiguous)."""


class CloneBackward0(Function):
    """A copy: the gradient passes unchanged."""

    templates = ("{grad}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return np.array(a, copy=True, order="C")

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g,)


class CopyBackwards(Function):
    """A copy made by backward with create_graph=True into a leaf's fresh ``.grad``: gradient passes unchanged."""

    templates = ("{grad}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return np.array(a, copy=True)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g,)


autograd.use_copy_op(CopyBackwards.apply)


class TransposeBackward0(Function):
    """Swap two dimensions: the gradient is swapped back."""

    _saved_fields = ("dim0", "dim1")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim0: int = 0, dim1: int = 1) -> np.ndarray:
        ctx._save(dim0=dim0, dim1=dim1)
        return np.swapaxes(a, dim0, dim1)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.transpose(g, s["dim0"], s["dim1"]),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} with dims {self._saved['dim0']} and {self._saved['dim1']} swapped back",)


class TBackward0(Function):
    """Matrix transpose ``.t()``."""

    templates = ("{grad}ᵀ",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return a.T

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.t(g),)


class PermuteBackward0(Function):
    """Reorder dimensions: the gradient is put back in the original order."""

    _saved_fields = ("dims",)
    templates = ("{grad} with its dims put back in order",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(dims=dims)
        return np.transpose(a, dims)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.permute(g, np.argsort(s["dims"])),)


class SqueezeBackward0(Function):
    """Drop all size-1 dimensions."""

    _saved_fields = ("self_sym_sizes",)
    templates = (_REBUILT,)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dims: tuple[int, ...] | None = None) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        if dims is None:
            return np.squeeze(a)
        return np.squeeze(a, tuple(d for d in dims if a.shape[d] == 1)) if a.ndim else a

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.reshape(g, s["self_sym_sizes"]),)


class SqueezeBackward1(SqueezeBackward0):
    """Drop one size-1 dimension."""


class SqueezeBackward4(SqueezeBackward0):
    """Drop the listed size-1 dimensions."""


class UnsqueezeBackward0(Function):
    """Insert a size-1 dimension."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        return np.expand_dims(a, dim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.squeeze(g, s["dim"]),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} without dim {self._saved['dim']}",)


class ExpandBackward0(Function):
    """Repeat along size-1 dimensions without copying: the gradient is summed back."""

    _saved_fields = ("self_sym_sizes",)
    templates = ("{grad} summed to {0.shape}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        return np.broadcast_to(a, shape)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.sum_to(g, s["self_sym_sizes"]),)


# ---- functions ----------------------------------------------------------------------------------------------
def _shape_arg(shape: tuple[Any, ...]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def _infer(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return shape


@torch_op("view", function=False, signature=("Tensor input, dtype dtype", "Tensor input, int[]* size"))
def view(a: Tensor, *shape: Any) -> Tensor:
    if len(shape) == 1 and hasattr(shape[0], "_np"):
        return view_as_dtype(a, shape[0])  # the same bytes as another dtype
    target = _infer(_shape_arg(shape), a._data.size)
    if not a._data.flags.c_contiguous and a._data.ndim > 1 and target != a._data.shape:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead."
        )
    return ViewBackward0.apply(a, shape=target)


@torch_op("reshape", signature="Tensor input, int[]* shape")
def reshape(a: Tensor, *shape: Any) -> Tensor:
    target = _infer(_shape_arg(shape), a._data.size)
    if a._data.flags.c_contiguous or a._data.ndim <= 1:
        return ViewBackward0.apply(a, shape=target)
    return UnsafeViewBackward0.apply(CloneBackward0.apply(a), shape=target)


@torch_op("flatten", signature="Tensor input, int start_dim=0, int end_dim=-1")
def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if a._data.ndim == 0:
        return reshape(a, 1)
    s, e = _dim(start_dim, a._data.ndim), _dim(end_dim, a._data.ndim)
    shp = a._data.shape
    if s == e:
        return a
    return reshape(a, *shp[:s], int(np.prod(shp[s : e + 1])), *shp[e + 1 :])


@torch_op("clone", signature="Tensor input, *, any memory_format=None")
def clone(a: Tensor) -> Tensor:
    return CloneBackward0.apply(a)


@torch_op("contiguous", function=False, signature="Tensor input, *, any memory_format=None")
def contiguous(a: Tensor) -> Tensor:
    return a if a._data.flags.c_contiguous else CloneBackward0.apply(a)


def to_dtype(a: Tensor, dtype: Any) -> Tensor:
    if not dtype.is_floating_point or not a._requires_grad:
        return made(a._data.astype(dtype._np))
    return ToCopyBackward0.apply(a, dtype=dtype._np)


_PY_DTYPES = {float: dtypes.float64, int: dtypes.int64, bool: dtypes.bool_}  # Python types and numbers: their dtype


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.to(torch.float64)`` / ``x.to(other)`` / ``x.to("cpu")``: this tensor in another dtype (itself if it has
    that dtype already)."""
    dt = kwargs.get("dtype")
    meta = is_meta(self._data)
    if kwargs.get("device") is not None:
        meta = check_device(kwargs.get("device"), meta=True)
    dt = _PY_DTYPES.get(dt, dt)
    for a in args:
        if isinstance(a, dtypes.dtype):
            dt = a
        elif isinstance(a, Tensor):
            dt, meta = a.dtype, is_meta(a._data)
        elif isinstance(a, (str, device)) or type(a) is int:
            meta = check_device(a, meta=True)
        elif a in _PY_DTYPES or type(a) in _PY_DTYPES:
            dt = _PY_DTYPES.get(a) or _PY_DTYPES[type(a)]
    if meta != is_meta(self._data):  # to the meta device (a copy of the shape only), or off it (no data to copy)
        no_values(self._data, NotImplementedError(NO_DATA))
        target = (dt or self.dtype)._np
        if self._requires_grad and state().grad_enabled:
            return ToCopyBackward0.apply(self, dtype=target, to_meta=True)
        return made(MetaArray(self._data.shape, target))
    if dt is None or dt._np == self._data.dtype:
        return self
    return to_dtype(self, dt)


@torch_op("transpose", signature="Tensor input, int dim0, int dim1")
def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    n = a._data.ndim
    return TransposeBackward0.apply(a, dim0=_dim(dim0, n), dim1=_dim(dim1, n))


@torch_op("t", signature="Tensor input")
def t(a: Tensor) -> Tensor:
    if a._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D")
    return TBackward0.apply(a)


@torch_op("permute", signature="Tensor input, int[]* dims")
def permute(a: Tensor, *dims: Any) -> Tensor:
    d = _shape_arg(dims)
    if len(d) != a._data.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {a._data.ndim} is not equal to len(dims) = {len(d)}"
        )
    return PermuteBackward0.apply(a, dims=tuple(_dim(x, a._data.ndim) for x in d))


def T(a: Tensor) -> Tensor:
    if a._data.ndim not in (0, 2):
        obs = state().observer
        if obs is not None:
            obs.warning(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
                "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."
            )
    return PermuteBackward0.apply(a, dims=tuple(range(a._data.ndim))[::-1])


@torch_op("squeeze", signature=("Tensor input", "Tensor input, int dim", "Tensor input, int[] dim"), keepdims=True)
def squeeze(a: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return SqueezeBackward0.apply(a)
    if isinstance(dim, (tuple, list)):
        return SqueezeBackward4.apply(a, dims=tuple(_dim(d, a._data.ndim) for d in dim))
    return SqueezeBackward1.apply(a, dims=(_dim(dim, a._data.ndim),))


@torch_op("unsqueeze", signature="Tensor input, int dim", keepdims=True)
def unsqueeze(a: Tensor, dim: int) -> Tensor:
    return UnsqueezeBackward0.apply(a, dim=_dim(dim, a._data.ndim + 1))


@torch_op("expand", function=False, signature="Tensor input, int[]* size, *, bool implicit=False")
def expand(a: Tensor, *sizes: Any) -> Tensor:
    shape = _shape_arg(sizes)
    lead = len(shape) - a._data.ndim
    full = tuple(a._data.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    # A view, but whatever runs on it next touches every element (an empty one keeps its other sizes: count them)
    check_alloc(math.prod(int(d) for d in full) or math.prod(int(d) for d in full if d), a)
    check_expandable(a.type(), a._data.shape, shape, full)
    return ExpandBackward0.apply(a, shape=full)


def check_expandable(
    type_name: str, have: tuple[int, ...], shape: tuple[int, ...], full: tuple[int, ...] | None = None
) -> None:
    """PyTorch's errors when a tensor of shape ``have`` cannot be expanded to ``shape`` (``full``: with -1 resolved)."""
    full = shape if full is None else full
    lead = len(shape) - len(have)
    if lead < 0:
        raise RuntimeError(
            f"expand({type_name}{{[{', '.join(map(str, have))}]}}, size=[{', '.join(map(str, shape))}]): "
            "the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor "
            "(%d)" % (len(shape), len(have))
        )
    for i, size in enumerate(have):
        want = full[i + lead]
        if size != want and size != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({size}) at non-singleton "
                f"dimension {i + lead}.  Target sizes: [{', '.join(map(str, shape))}].  Tensor sizes: "
                f"[{', '.join(map(str, have))}]"
            )


tensor_methods(
    {
        "T": property(T),
        "mT": property(lambda self: transpose(self, -2, -1)),
        "to": to,
        "view_as": lambda self, other: view(self, other.shape),
        "reshape_as": lambda self, o: reshape(self, o.shape),
        "expand_as": lambda self, other: expand(self, other.shape),
    },
    signatures={
        "view_as": "Tensor input, Tensor other",
        "reshape_as": "Tensor input, Tensor other",
        "expand_as": "Tensor input, Tensor other",
    },
)

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

from engine.ops.base import Function, binary_operands, check_alloc, made
from engine.tensor import Tensor, _dim


class ViewBackward0(Function):
    """A new shape over the same values: the gradient is reshaped back."""

    _saved_fields = ("self_sym_sizes",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        return a.reshape(shape)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g.reshape(ctx._saved["self_sym_sizes"]),)


class UnsafeViewBackward0(ViewBackward0):
    """reshape of a copy (used when the input's memory layout is not contiguous)."""


class CloneBackward0(Function):
    """A copy: the gradient passes unchanged."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return np.array(a, copy=True, order="C")

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g,)


class CopyBackwards(Function):
    """A copy made by backward with create_graph=True into a leaf's fresh ``.grad``: gradient passes unchanged."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return np.array(a, copy=True)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g,)


class ToCopyBackward0(Function):
    """A dtype cast: the gradient is cast back."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dtype: Any = np.float32) -> np.ndarray:
        ctx._dtype = a.dtype
        return a.astype(dtype)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g.astype(ctx._dtype),)


class TransposeBackward0(Function):
    """Swap two dimensions: the gradient is swapped back."""

    _saved_fields = ("dim0", "dim1")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim0: int = 0, dim1: int = 1) -> np.ndarray:
        ctx._save(dim0=dim0, dim1=dim1)
        return np.swapaxes(a, dim0, dim1)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (np.swapaxes(g, ctx._saved["dim0"], ctx._saved["dim1"]),)


class TBackward0(Function):
    """Matrix transpose ``.t()``."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return a.T

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g.T,)


class PermuteBackward0(Function):
    """Reorder dimensions: the gradient is put back in the original order."""

    _saved_fields = ("dims",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(dims=dims)
        return np.transpose(a, dims)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (np.transpose(g, np.argsort(ctx._saved["dims"])),)


class SqueezeBackward0(Function):
    """Drop all size-1 dimensions."""

    _saved_fields = ("self_sym_sizes",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dims: tuple[int, ...] | None = None) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        if dims is None:
            return np.squeeze(a)
        return np.squeeze(a, tuple(d for d in dims if a.shape[d] == 1)) if a.ndim else a

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g.reshape(ctx._saved["self_sym_sizes"]),)


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

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (np.squeeze(g, ctx._saved["dim"]),)


class ExpandBackward0(Function):
    """Repeat along size-1 dimensions without copying: the gradient is summed back."""

    _saved_fields = ("self_sym_sizes",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        return np.broadcast_to(a, shape)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        from engine.ops.base import unbroadcast

        return (unbroadcast(g, ctx._saved["self_sym_sizes"]),)


class CatBackward0(Function):
    """Join tensors along a dimension: each gets its slice of the gradient."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        ctx._sizes = [a.shape[dim] for a in arrays]
        return np.concatenate(arrays, axis=dim)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        cuts = np.cumsum(ctx._sizes)[:-1]
        return tuple(np.split(g, cuts, axis=ctx._saved["dim"]))


class StackBackward0(Function):
    """Stack tensors along a new dimension: each gets its slice of the gradient."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        return np.stack(arrays, axis=dim)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        d = ctx._saved["dim"]
        return tuple(np.take(g, i, axis=d) for i in range(g.shape[d]))


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


def view(a: Tensor, *shape: Any) -> Tensor:
    if len(shape) == 1 and hasattr(shape[0], "_np"):
        return a.to(shape[0])
    target = _infer(_shape_arg(shape), a._data.size)
    if not a._data.flags.c_contiguous and a._data.ndim > 1 and target != a._data.shape:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead."
        )
    return ViewBackward0.apply(a, shape=target)


def reshape(a: Tensor, *shape: Any) -> Tensor:
    target = _infer(_shape_arg(shape), a._data.size)
    if a._data.flags.c_contiguous or a._data.ndim <= 1:
        return ViewBackward0.apply(a, shape=target)
    return UnsafeViewBackward0.apply(CloneBackward0.apply(a), shape=target)


def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if a._data.ndim == 0:
        return reshape(a, 1)
    s, e = _dim(start_dim, a._data.ndim), _dim(end_dim, a._data.ndim)
    shp = a._data.shape
    if s == e:
        return a
    return reshape(a, *shp[:s], int(np.prod(shp[s : e + 1])), *shp[e + 1 :])


def clone(a: Tensor) -> Tensor:
    return CloneBackward0.apply(a)


def contiguous(a: Tensor) -> Tensor:
    return a if a._data.flags.c_contiguous else CloneBackward0.apply(a)


def to_dtype(a: Tensor, dtype: Any) -> Tensor:
    if not dtype.is_floating_point or not a._requires_grad:
        return made(a._data.astype(dtype._np))
    return ToCopyBackward0.apply(a, dtype=dtype._np)


def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    n = a._data.ndim
    return TransposeBackward0.apply(a, dim0=_dim(dim0, n), dim1=_dim(dim1, n))


def t(a: Tensor) -> Tensor:
    if a._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D")
    return TBackward0.apply(a)


def permute(a: Tensor, *dims: Any) -> Tensor:
    d = _shape_arg(dims)
    if len(d) != a._data.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {a._data.ndim} is not equal to len(dims) = {len(d)}"
        )
    return PermuteBackward0.apply(a, dims=tuple(_dim(x, a._data.ndim) for x in d))


def T(a: Tensor) -> Tensor:  # noqa: N802 - the .T property
    if a._data.ndim not in (0, 2):
        from engine.run_state import state

        obs = state().observer
        if obs is not None:
            obs.warning(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
                "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."
            )
    return PermuteBackward0.apply(a, dims=tuple(range(a._data.ndim))[::-1])


def squeeze(a: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return SqueezeBackward0.apply(a)
    if isinstance(dim, (tuple, list)):
        return SqueezeBackward4.apply(a, dims=tuple(_dim(d, a._data.ndim) for d in dim))
    return SqueezeBackward1.apply(a, dims=(_dim(dim, a._data.ndim),))


def unsqueeze(a: Tensor, dim: int) -> Tensor:
    return UnsqueezeBackward0.apply(a, dim=_dim(dim, a._data.ndim + 1))


def expand(a: Tensor, *sizes: Any) -> Tensor:
    shape = _shape_arg(sizes)
    lead = len(shape) - a._data.ndim
    full = tuple(a._data.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    from engine.ops.base import check_alloc

    # A view, but whatever runs on it next touches every element (an empty one keeps its other sizes: count them)
    check_alloc(math.prod(int(d) for d in full) or math.prod(int(d) for d in full if d))
    check_expandable(a.type(), a._data.shape, shape, full)
    return ExpandBackward0.apply(a, shape=full)


def check_expandable(type_name: str, have: tuple[int, ...], shape: tuple[int, ...],
                     full: tuple[int, ...] | None = None) -> None:
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


def _same_dtype(tensors: Any) -> list[Tensor]:
    ts = list(tensors)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t_ in enumerate(ts):
        if not isinstance(t_, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t_).__name__}")
    first = ts[0]
    out = [first]
    for t_ in ts[1:]:
        a, b = binary_operands(first, t_)
        out.append(b)
    return out


def cat(tensors: Any, dim: int = 0) -> Tensor:
    ts = _same_dtype(tensors)
    d = _dim(dim, ts[0]._data.ndim)
    for i, t_ in enumerate(ts[1:], 1):
        if t_._data.ndim != ts[0]._data.ndim:
            raise RuntimeError(
                "Tensors must have same number of dimensions: got "
                f"{ts[0]._data.ndim} and {t_._data.ndim}"
            )
        for k, (x, y) in enumerate(zip(ts[0]._data.shape, t_._data.shape)):
            if k != d and x != y:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {x} but got size {y} for "
                    f"tensor number {i} in the list."
                )
    check_alloc(sum(t_._data.size for t_ in ts))  # the result's size, asked before numpy builds it
    return CatBackward0.apply(*ts, dim=d)


def stack(tensors: Any, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ts = _same_dtype(tensors)
    for i, t_ in enumerate(ts[1:], 1):
        if t_._data.shape != ts[0]._data.shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got [{', '.join(map(str, ts[0]._data.shape))}] at "
                f"entry 0 and [{', '.join(map(str, t_._data.shape))}] at entry {i}"
            )
    check_alloc(len(ts) * ts[0]._data.size)  # the result's size, asked before numpy builds it
    return StackBackward0.apply(*ts, dim=_dim(dim, ts[0]._data.ndim + 1))

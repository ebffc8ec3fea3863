"""Ops that join tensors (``cat``, ``stack``), cut one into pieces (``split``/``chunk``/``unbind``) or pick from it
(``gather``, ``amax``/``amin``).

Each piece's backward puts its gradient back where the piece came from (zeros elsewhere), a joined tensor's
backward gives each part its slice; ``gather`` adds each gradient to the place its value was read from; ``amax``
shares the gradient equally among tied maxima.

Example::

    >>> x = torch.arange(4., requires_grad=True)
    >>> a, b = x.chunk(2); (a + 2 * b).sum().backward(); x.grad
    tensor([1., 1., 2., 2.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops.api import torch_op
from engine.ops.argcheck import invalid_combination, is_int, must_be
from engine.ops.function import Function
from engine.ops.operands import binary_operands, broadcast_shape, check_alloc
from engine.run_state import charge_bulk
from engine.tensor import Tensor, _dim


class CatBackward0(Function):
    """Join tensors along a dimension: each gets its slice of the gradient."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        ctx._sizes = [a.shape[dim] for a in arrays]
        return np.concatenate(arrays, axis=dim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(k.take(g, key) for key in ctx._pieces())

    def _pieces(self) -> list[tuple[Any, ...]]:
        lead, start, keys = (slice(None),) * self._saved["dim"], 0, []
        for size in self._sizes:
            keys.append(lead + (slice(start, start + size),))
            start += size
        return keys

    def _templates(self) -> tuple[str | None, ...]:
        return tuple(f"{{grad}}[{':, ' * len(key[:-1])}{key[-1].start}:{key[-1].stop}]" for key in self._pieces())


class StackBackward0(Function):
    """Stack tensors along a new dimension: each gets its slice of the gradient."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        return np.stack(arrays, axis=dim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        lead = (slice(None),) * s["dim"]
        return tuple(k.take(g, lead + (i,)) for i in range(len(ctx._in_shapes)))

    def _templates(self) -> tuple[str | None, ...]:
        return tuple(f"{{grad}}[{':, ' * self._saved['dim']}{i}]" for i in range(len(self._in_shapes)))


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


@torch_op("cat", aliases=("concat",), method=False, signature="Tensor[] tensors, int dim=0", keepdims=True)
def cat(tensors: Any, dim: int = 0) -> Tensor:
    ts = _same_dtype(tensors)
    d = _dim(dim, ts[0]._data.ndim)
    for i, t_ in enumerate(ts[1:], 1):
        if t_._data.ndim != ts[0]._data.ndim:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {ts[0]._data.ndim} and {t_._data.ndim}"
            )
        for k, (x, y) in enumerate(zip(ts[0]._data.shape, t_._data.shape)):
            if k != d and x != y:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {x} but got size {y} for "
                    f"tensor number {i} in the list."
                )
    check_alloc(sum(t_._data.size for t_ in ts), *ts)  # the result's size, asked before numpy builds it
    return CatBackward0.apply(*ts, dim=d)


@torch_op("stack", method=False, signature="Tensor[] tensors, int dim=0", keepdims=True)
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
    check_alloc(len(ts) * ts[0]._data.size, *ts)  # the result's size, asked before numpy builds it
    return StackBackward0.apply(*ts, dim=_dim(dim, ts[0]._data.ndim + 1))


class SplitBackward0(Function):
    """One piece ``x[start:stop]`` along ``dim`` of ``split``/``chunk``: its gradient lands in that slice."""

    _saved_fields = ("dim", "split_size", "self_sym_sizes")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, dim: int = 0, start: int = 0, stop: int = 0, split_size: int = 0
    ) -> np.ndarray:
        ctx._save(dim=dim, split_size=split_size, self_sym_sizes=tuple(a.shape))
        ctx._range = (start, stop)
        return a[(slice(None),) * dim + (slice(start, stop),)].copy()

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.embed(s["self_sym_sizes"], (slice(None),) * s["dim"] + (slice(*ctx._range),), g),)

    def _templates(self) -> tuple[str | None, ...]:
        start, stop = self._range
        return (f"{{grad}} at [{':, ' * self._saved['dim']}{start}:{stop}], 0 elsewhere",)


class SplitWithSizesBackward0(SplitBackward0):
    """A piece of ``split([sizes])``."""


class UnbindBackward0(Function):
    """``x.unbind(dim)[i]``: the gradient lands in slice i."""

    _saved_fields = ("dim",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        ctx._where = (tuple(a.shape), index)
        return a[(slice(None),) * dim + (index,)].copy()

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        shape, index = ctx._where
        return (k.embed(shape, (slice(None),) * s["dim"] + (index,), g),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} at [{':, ' * self._saved['dim']}{self._where[1]}], 0 elsewhere",)


def _pieces(cls: type[Function], a: Tensor, dim: int, sizes: list[int]) -> tuple[Tensor, ...]:
    charge_bulk(len(sizes))
    out, start = [], 0
    for size in sizes:
        out.append(cls.apply(a, dim=dim, start=start, stop=start + size, split_size=size))
        start += size
    return tuple(out)


def _check_split(sizes: Any) -> None:
    """PyTorch's split hands anything but an int to ``split_with_sizes``, whose parser refuses non-int lists."""
    if isinstance(sizes, int) and not isinstance(sizes, bool):
        return
    where = "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints"
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"{where}, not {type(sizes).__name__}")
    for i, s in enumerate(sizes):
        if isinstance(s, bool) or not isinstance(s, int):
            if i == 0:
                raise TypeError(f"{where}, but found element of type {type(s).__name__} at pos 0")
            raise TypeError(
                "split_with_sizes(): argument 'split_sizes' failed to unpack the object at pos "
                f'{i + 1} with error "type must be tuple of ints,but got {type(s).__name__}"'
            )


@torch_op(
    "split", keepdims=True, method_fn=lambda self, split_size, dim=0: split(self, split_size, dim), python_method=True
)
def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.split(2)`` (pieces of 2, the last may be smaller) or ``x.split([1, 3])`` (pieces of these sizes)."""
    _check_split(split_size_or_sections)
    if not is_int(dim):  # an int size goes to split(), a list of sizes to split_with_sizes()
        if isinstance(split_size_or_sections, int):
            raise invalid_combination(
                "split",
                (a, split_size_or_sections, dim),
                {},
                ["Tensor input, int split_size, int dim = 0", "Tensor input, tuple of ints split_size, int dim = 0"],
            )
        raise must_be("split_with_sizes", "dim", 3, "int", dim)
    d = _dim(dim, a._data.ndim)
    n = a._data.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension {d}), "
                f"but got split_sizes={sizes}"
            )
        return _pieces(SplitWithSizesBackward0, a, d, sizes)
    size = int(split_size_or_sections)
    if size <= 0 and n > 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    sizes = [min(size, n - s) for s in range(0, n, size)] if n else [0]
    return _pieces(SplitBackward0, a, d, sizes)


@torch_op("chunk", signature="Tensor input, int chunks, int dim=0", keepdims=True)
def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.chunk(3)``: up to 3 pieces of ``ceil(n / 3)`` elements (as PyTorch cuts them)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = a._data.shape[_dim(dim, a._data.ndim)]
    return split(a, max(-(-n // chunks), 1) if n else 1, dim)


@torch_op("unbind", signature="Tensor input, int dim=0", keepdims=True)
def unbind(a: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.unbind(0)``: the slices along ``dim``, each one dimension smaller."""
    d = _dim(dim, a._data.ndim)
    charge_bulk(a._data.shape[d])
    return tuple(UnbindBackward0.apply(a, dim=d, index=i) for i in range(a._data.shape[d]))


class GatherBackward0(Function):
    """``out[i][j] = x[i][index[i][j]]`` (dim 1): each gradient is added to the place its value came from."""

    _saved_fields = ("dim", "index", "sparse_grad")
    templates = ("{grad} added back where each value was read, 0 elsewhere",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        ctx._save(dim=dim, index=index, sparse_grad=False)
        ctx._shape = tuple(a.shape)
        return np.take_along_axis(a, index, axis=dim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        dim, index = ctx._saved["dim"], ctx._saved["index"]  # where from: an array, not differentiated
        grids = list(np.indices(index.shape, sparse=True))
        grids[dim] = index
        return (k.index_add(ctx._shape, tuple(grids), g),)


@torch_op("gather", signature="Tensor input, int dim, Tensor index, *, bool sparse_grad=False")
def gather(a: Tensor, dim: int, index: Tensor) -> Tensor:
    """``x.gather(dim, index)``: picks ``x`` along ``dim`` at ``index`` (an int64 tensor of x's rank)."""
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    d = _dim(dim, a._data.ndim)
    if idx.ndim != a._data.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    n = a._data.shape[d]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        bad = int(idx.max() if idx.max() >= n else idx.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {n}")
    return GatherBackward0.apply(a, dim=d, index=np.where(idx < 0, idx + n, idx))


class IndexSelectBackward0(Function):
    """``x.index_select(dim, index)``: whole slices along ``dim``; each gradient slice is added back where it came
    from (an index picked twice gets both)."""

    _saved_fields = ("dim", "index", "self_sym_sizes")
    templates = ("{grad} added back to the slices it was picked from, 0 elsewhere",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        ctx._save(dim=dim, index=index, self_sym_sizes=tuple(a.shape))
        return np.take(a, index, axis=dim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        dim, index = ctx._saved["dim"], ctx._saved["index"]
        key = (slice(None),) * dim + (index,)
        return (k.index_add(ctx._saved["self_sym_sizes"], key, g),)


@torch_op("index_select", signature="Tensor input, int dim, Tensor index")
def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    """``x.index_select(dim, index)``: the slices of ``x`` along ``dim`` at a 1-D ``index``."""
    idx = index._data
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    d = _dim(dim, max(a._data.ndim, 1))
    n = a._data.shape[d] if a._data.ndim else 1
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    return IndexSelectBackward0.apply(a, dim=d, index=idx.reshape(-1).astype(np.int64))


class MaskedSelectBackward0(Function):
    """``x.masked_select(mask)``: the elements where the (broadcast) mask is True, as a 1-D tensor; each gradient
    goes back to its element (summed over what broadcasting repeated)."""

    _saved_fields = ("mask", "self_sym_sizes")
    templates = ("{grad} where the mask is True, 0 elsewhere",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, mask: Any = None) -> np.ndarray:
        ctx._save(mask=mask, self_sym_sizes=tuple(a.shape))
        return np.broadcast_to(a, mask.shape)[mask]

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        mask = ctx._saved["mask"]
        return (k.sum_to(k.index_add(mask.shape, mask, g), ctx._saved["self_sym_sizes"]),)


@torch_op("masked_select", signature="Tensor input, Tensor mask")
def masked_select(a: Tensor, mask: Tensor) -> Tensor:
    """``torch.masked_select(x, mask)``: the elements of ``x`` where ``mask`` (a bool tensor) is True."""
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = broadcast_shape(mask._data.shape, a._data.shape)
    return MaskedSelectBackward0.apply(a, mask=np.broadcast_to(mask._data, shape))


class AmaxBackward0(Function):
    """``amax`` over ``dim``: tied maxima share the gradient equally (unlike ``max(dim)``, which picks one)."""

    _saved_fields = ("dim", "keepdim", "result", "self")
    templates = ("{grad} / (the number of ties) where {0} = {out}, 0 elsewhere",)

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False, kind: str = "max"
    ) -> np.ndarray:
        fn = np.amax if kind == "max" else np.amin
        axes = dim if dim else None
        r = np.asarray(fn(a, axis=axes, keepdims=keepdim))
        ctx._save(dim=dim, keepdim=keepdim, result=r, self=a)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, r, axes = s["self"], s["result"], (s["dim"] or tuple(range(len(ctx._in_shapes[0]))))
        if not s["keepdim"]:
            r, g = k.unsqueeze(r, axes), k.unsqueeze(g, axes)
        mask = k.like(a == r, g)
        return (mask * (g / k.sum(mask, axes, True)),)


class AminBackward0(AmaxBackward0):
    """``amin`` over ``dim``: tied minima share the gradient equally."""


def _reduce_dims(a: Tensor, dim: Any) -> tuple[int, ...]:
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return ()
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(sorted(_dim(int(d), a._data.ndim) for d in dims))


@torch_op("amax", signature="Tensor input, int[1]? dim=[], bool keepdim=False", keepdims=True)
def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest value over ``dim`` (all dimensions by default), without indices."""
    return AmaxBackward0.apply(a, dim=_reduce_dims(a, dim), keepdim=keepdim, kind="max")


@torch_op("amin", signature="Tensor input, int[1]? dim=[], bool keepdim=False", keepdims=True)
def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest value over ``dim`` (all dimensions by default), without indices."""
    return AminBackward0.apply(a, dim=_reduce_dims(a, dim), keepdim=keepdim, kind="min")


__all__ = ["split", "chunk", "unbind", "gather", "index_select", "masked_select", "amax", "amin"]

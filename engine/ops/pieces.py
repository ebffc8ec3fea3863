"""Ops that cut a tensor into pieces or pick from it: ``split``/``chunk``/``unbind``, ``gather``, ``amax``/``amin``.

Each piece's backward puts its gradient back where the piece came from (zeros elsewhere); ``gather`` adds each
gradient to the place its value was read from; ``amax`` shares the gradient equally among tied maxima.

Example::

    >>> x = torch.arange(4., requires_grad=True)
    >>> a, b = x.chunk(2); (a + 2 * b).sum().backward(); x.grad
    tensor([1., 1., 2., 2.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops.base import Function
from engine.tensor import Tensor, _dim


class SplitBackward0(Function):
    """One piece ``x[start:stop]`` along ``dim`` of ``split``/``chunk``: its gradient lands in that slice."""

    _saved_fields = ("dim", "split_size", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, start: int = 0, stop: int = 0,
                 split_size: int = 0) -> np.ndarray:
        ctx._save(dim=dim, split_size=split_size, self_sym_sizes=tuple(a.shape))
        ctx._range = (start, stop)
        return a[(slice(None),) * dim + (slice(start, stop),)].copy()

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        s = ctx._saved
        out = np.zeros(s["self_sym_sizes"], dtype=g.dtype)
        out[(slice(None),) * s["dim"] + (slice(*ctx._range),)] = g
        return (out,)


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

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        shape, index = ctx._where
        out = np.zeros(shape, dtype=g.dtype)
        out[(slice(None),) * ctx._saved["dim"] + (index,)] = g
        return (out,)


def _pieces(cls: type[Function], a: Tensor, dim: int, sizes: list[int]) -> tuple[Tensor, ...]:
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
            raise TypeError("split_with_sizes(): argument 'split_sizes' failed to unpack the object at pos "
                            f'{i + 1} with error "type must be tuple of ints,but got {type(s).__name__}"')


def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.split(2)`` (pieces of 2, the last may be smaller) or ``x.split([1, 3])`` (pieces of these sizes)."""
    _check_split(split_size_or_sections)
    from engine.ops.argcheck import invalid_combination, is_int, must_be

    if not is_int(dim):  # an int size goes to split(), a list of sizes to split_with_sizes()
        if isinstance(split_size_or_sections, int):
            raise invalid_combination("split", (a, split_size_or_sections, dim), {}, [
                "Tensor input, int split_size, int dim = 0", "Tensor input, tuple of ints split_size, int dim = 0"])
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


def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.chunk(3)``: up to 3 pieces of ``ceil(n / 3)`` elements (as PyTorch cuts them)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = a._data.shape[_dim(dim, a._data.ndim)]
    return split(a, max(-(-n // chunks), 1) if n else 1, dim)


def unbind(a: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """``x.unbind(0)``: the slices along ``dim``, each one dimension smaller."""
    d = _dim(dim, a._data.ndim)
    return tuple(UnbindBackward0.apply(a, dim=d, index=i) for i in range(a._data.shape[d]))


class GatherBackward0(Function):
    """``out[i][j] = x[i][index[i][j]]`` (dim 1): each gradient is added to the place its value came from."""

    _saved_fields = ("dim", "index", "sparse_grad")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        ctx._save(dim=dim, index=index, sparse_grad=False)
        ctx._shape = tuple(a.shape)
        return np.take_along_axis(a, index, axis=dim)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        out = np.zeros(ctx._shape, dtype=g.dtype)
        dim, index = ctx._saved["dim"], ctx._saved["index"]
        grids = list(np.indices(index.shape, sparse=True))
        grids[dim] = index
        np.add.at(out, tuple(grids), g)
        return (out,)


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


class AmaxBackward0(Function):
    """``amax`` over ``dim``: tied maxima share the gradient equally (unlike ``max(dim)``, which picks one)."""

    _saved_fields = ("dim", "keepdim", "result", "self")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False,
                 kind: str = "max") -> np.ndarray:
        fn = np.amax if kind == "max" else np.amin
        axes = dim if dim else None
        r = np.asarray(fn(a, axis=axes, keepdims=keepdim))
        ctx._save(dim=dim, keepdim=keepdim, result=r, self=a)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        s = ctx._saved
        a, r, axes = s["self"], s["result"], (s["dim"] or tuple(range(s["self"].ndim)))
        if not s["keepdim"]:
            r, g = np.expand_dims(r, axes), np.expand_dims(g, axes)
        mask = (a == r).astype(g.dtype)
        count = mask.sum(axis=axes, keepdims=True)
        return (mask * (g / count),)


class AminBackward0(AmaxBackward0):
    """``amin`` over ``dim``: tied minima share the gradient equally."""


def _reduce_dims(a: Tensor, dim: Any) -> tuple[int, ...]:
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return ()
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(sorted(_dim(int(d), a._data.ndim) for d in dims))


def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest value over ``dim`` (all dimensions by default), without indices."""
    return AmaxBackward0.apply(a, dim=_reduce_dims(a, dim), keepdim=keepdim, kind="max")


def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest value over ``dim`` (all dimensions by default), without indices."""
    return AminBackward0.apply(a, dim=_reduce_dims(a, dim), keepdim=keepdim, kind="min")


__all__ = ["split", "chunk", "unbind", "gather", "amax", "amin"]

"""Ops about order and position: ``sort``/``argsort``/``topk``, ``cumsum``, ``flip``, ``triu``/``tril``,
``diag``, ``outer``, and the index queries ``nonzero``/``count_nonzero``/``unique``.

Example::

    >>> torch.tensor([3., 1., 2.]).sort()
    torch.return_types.sort(
    values=tensor([1., 2., 3.]),
    indices=tensor([1, 2, 0]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.meta import MetaArray, is_meta
from engine.numerics import std_sort
from engine.ops import arith, shape
from engine.ops.api import torch_op
from engine.ops.argcheck import must_be
from engine.ops.function import Function
from engine.ops.operands import check_alloc, made
from engine.ops.pieces import GatherBackward0
from engine.ops.reduce import MaxMinResult
from engine.run_state import state
from engine.tensor import Tensor, _dim

_SORT = (
    "Tensor input, *, bool? stable, int dim=-1, bool descending=False",
    "Tensor input, int dim=-1, bool descending=False",
)


class SortResult(MaxMinResult):
    _kind = "sort"


class TopkResult(MaxMinResult):
    _kind = "topk"


class SortBackward0(GatherBackward0):
    """The sorted values: each gradient goes back to the place its value came from."""


class TopkBackward0(GatherBackward0):
    """The k largest values: their gradients go back to where they came from, zeros elsewhere."""


def _order(a: np.ndarray, dim: int, descending: bool, stable: bool = True) -> np.ndarray:
    key = -a if descending and a.dtype.kind != "b" else a
    idx = np.argsort(key, axis=dim, kind="stable")
    if descending and a.dtype.kind == "b":
        idx = np.flip(np.argsort(a, axis=dim, kind="stable"), axis=dim)
    idx = idx.astype(np.int64)
    if not stable:
        _unstable_rows(a, idx, dim, descending)
    return idx


UNSTABLE_MAX = 200_000  # elements past which an unstable sort keeps the stable order (the emulation is Python:
# ~1 s for 200,000 values); a single row longer than UNSTABLE_ROW likewise
UNSTABLE_ROW = 20_000


def _unstable_rows(a: np.ndarray, idx: np.ndarray, dim: int, descending: bool) -> None:
    """Put ``std::sort``'s order (engine/numerics/std_sort.py) into ``idx`` for the rows where it differs from a
    stable sort's: rows of more than 16 values with equal ones (16 or fewer get an insertion sort, which is
    stable), and rows with NaN (PyTorch puts NaN first when descending)."""
    if a.size == 0 or a.shape[dim] > UNSTABLE_ROW:
        return
    rows = np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])
    out = np.moveaxis(idx, dim, -1)  # a view: rows written here land in idx
    flat = out.reshape(-1, a.shape[dim])
    n = rows.shape[1]
    nan = np.isnan(rows).any(axis=1) if rows.dtype.kind == "f" else np.zeros(len(rows), dtype=bool)
    if n > 16:  # the rows in their sorted order (already known: idx), not a second sort
        srt = np.take_along_axis(rows, flat, axis=1)
        tied = (srt[:, 1:] == srt[:, :-1]).any(axis=1)
    else:
        tied = np.zeros(len(rows), dtype=bool)
    todo = np.flatnonzero(tied | nan)
    if not len(todo) or len(todo) * n > UNSTABLE_MAX:
        return
    budget = state().budget
    if budget is not None:
        budget.charge(len(todo) * n * max(n.bit_length(), 1) // 8)  # Python's compares, before they run
    for r in todo:
        flat[r] = std_sort.order(rows[r].astype(np.float64).tolist(), descending)
    if not np.shares_memory(flat, out):
        out[...] = flat.reshape(out.shape)


@torch_op("sort", signature=_SORT, keepdims=True)
def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> SortResult:
    """``x.sort(dim)``: (values, indices) along ``dim``, ascending unless ``descending=True``."""
    d = _dim(dim, max(a._data.ndim, 1))
    if a._data.ndim == 0:
        return SortResult(shape.clone(a), made(np.zeros((), dtype=np.int64)))
    idx = MetaArray(a._data.shape, np.int64) if is_meta(a._data) else _order(a._data, d, descending, bool(stable))
    return SortResult(SortBackward0.apply(a, dim=d, index=idx), made(idx))


@torch_op("argsort", signature=_SORT, keepdims=True)
def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    return sort(a, dim, descending, stable).indices


@torch_op("topk", signature="Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True")
def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> TopkResult:
    """``x.topk(k)``: the k largest (or smallest) values along ``dim`` and their indices."""
    d = _dim(dim, max(a._data.ndim, 1))
    n = a._data.shape[d] if a._data.ndim else 1
    if k > n or k < 0:
        raise RuntimeError("selected index k out of range")
    if is_meta(a._data):  # the order needs values: a meta tensor's has its shape only
        idx: Any = MetaArray(a._data.shape[:d] + (k,) + a._data.shape[d + 1 :], np.int64)
    else:
        idx = np.take(_order(a._data, d, largest), np.arange(k), axis=d)
    return TopkResult(TopkBackward0.apply(a, dim=d, index=idx), made(idx))


class CumsumBackward0(Function):
    """Running sums: element i's gradient is the sum of the output gradients from i on."""

    _saved_fields = ("dim",)
    templates = ("{grad} summed from each position to the end",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0) -> np.ndarray:
        ctx._save(dim=dim)
        acc = np.float64 if a.dtype.kind == "f" else np.int64  # PyTorch accumulates in double on the CPU
        return np.cumsum(a.astype(acc), axis=dim).astype(a.dtype if a.dtype.kind == "f" else np.int64)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        d = (s["dim"],)
        return (k.flip(k.cumsum(k.flip(g, d), s["dim"]), d),)


@torch_op("cumsum", signature="Tensor input, int dim, *, dtype? dtype=None", keepdims=True)
def cumsum(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return CumsumBackward0.apply(a, dim=_dim(dim, max(a._data.ndim, 1)) if a._data.ndim else 0)


class FlipBackward0(Function):
    """Reversed along ``dims``: the gradient is reversed back."""

    _saved_fields = ("dims",)
    templates = ("{grad} flipped back",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(dims=dims)
        return np.flip(a, axis=dims).copy()

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.flip(g, s["dims"]),)


@torch_op("flip", signature="Tensor input, int[]* dims")
def flip(a: Tensor, *dims: Any) -> Tensor:
    ds = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else dims
    return FlipBackward0.apply(a, dims=tuple(_dim(int(d), a._data.ndim) for d in ds))


class TriuBackward0(Function):
    """The upper triangle (from ``diagonal`` up) of the last two dims: the gradient is kept there."""

    _saved_fields = ("diagonal",)
    _fn = staticmethod(np.triu)

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray, diagonal: int = 0) -> np.ndarray:
        ctx._save(diagonal=diagonal)
        return cls._fn(a, diagonal)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return ((k.triu if type(ctx)._fn is np.triu else k.tril)(g, s["diagonal"]),)

    def _templates(self) -> tuple[str | None, ...]:
        side = "upper" if type(self)._fn is np.triu else "lower"
        return (f"{{grad}}'s {side} triangle (from diagonal {self._saved['diagonal']}), 0 elsewhere",)


class TrilBackward0(TriuBackward0):
    """The lower triangle (from ``diagonal`` down) of the last two dims."""

    _fn = staticmethod(np.tril)


def _triangle(cls: type[Function], a: Tensor, diagonal: int) -> Tensor:
    if a._data.ndim < 2:
        raise RuntimeError(f"{cls.__name__[:4].lower()}: input tensor must have at least 2 dimensions")
    return cls.apply(a, diagonal=int(diagonal))


@torch_op("triu", signature="Tensor input, int diagonal=0")
def triu(a: Tensor, diagonal: int = 0) -> Tensor:
    return _triangle(TriuBackward0, a, diagonal)


@torch_op("tril", signature="Tensor input, int diagonal=0")
def tril(a: Tensor, diagonal: int = 0) -> Tensor:
    return _triangle(TrilBackward0, a, diagonal)


class DiagEmbedBackward0(Function):
    """A vector laid on a matrix's diagonal: the gradient is the matrix's diagonal."""

    templates = ("the diagonal of {grad}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return np.diag(a)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        n = np.arange(ctx._in_shapes[0][0])
        return (k.take(g, (n, n)),)


class DiagonalBackward0_copy(Function):
    """A matrix's diagonal: the gradient lands on the diagonal, zeros elsewhere."""

    templates = ("{grad} on the diagonal, 0 elsewhere",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._n = a.shape
        return np.diag(a).copy()

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        n = np.arange(min(ctx._n))
        return (k.embed(ctx._n, (n, n), g),)


@torch_op("diag", signature="Tensor input, int diagonal=0")
def diag(a: Tensor) -> Tensor:
    """A 1-D tensor → the diagonal matrix; a 2-D tensor → its diagonal."""
    if a._data.ndim == 1:
        check_alloc(a._data.size**2)
        return DiagEmbedBackward0.apply(a)
    if a._data.ndim == 2:
        return DiagonalBackward0_copy.apply(a)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{a._data.ndim}D")


@torch_op("outer", signature="Tensor input, Tensor vec2")
def outer(a: Tensor, b: Tensor) -> Tensor:
    """``torch.outer(a, b)[i, j] = a[i] * b[j]`` (PyTorch: a as a column times b)."""
    check_alloc(a._data.size * b._data.size)
    return arith.mul(shape.reshape(a, a._data.size, 1), b)


@torch_op(
    "nonzero",
    signature="Tensor input, *, bool as_tuple=False",
    method_signature=("Tensor input", "Tensor input, *, bool as_tuple"),
)
def nonzero(a: Tensor, as_tuple: bool = False) -> Any:
    idx = np.argwhere(a._data).astype(np.int64)
    if as_tuple:
        return tuple(made(idx[:, i].copy()) for i in range(idx.shape[1]))
    return made(idx)


@torch_op("count_nonzero", signature=("Tensor input, int? dim=None", "Tensor input, int[] dim"), keepdims=True)
def count_nonzero(a: Tensor, dim: Any = None) -> Tensor:
    return made(np.asarray(np.count_nonzero(a._data, axis=dim), dtype=np.int64))


@torch_op("unique", python_method=True)
def unique(a: Tensor, sorted: bool = True, return_counts: bool = False) -> Any:
    if not isinstance(a, Tensor):  # PyTorch's Python unique calls _unique2(input, sorted=…, return_counts=…)
        raise must_be("_unique2", "input", 1, "Tensor", a)
    for name, flag in (("sorted", sorted), ("return_counts", return_counts)):
        if not isinstance(flag, bool):
            raise must_be("_unique2", name, None, "bool", flag)
    values, counts = np.unique(a._data, return_counts=True)
    if return_counts:
        return made(values), made(counts.astype(np.int64))
    return made(values)

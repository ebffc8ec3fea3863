"""Writing values into a tensor at positions an index tensor gives: ``scatter`` (``ScatterBackward0`` from a tensor,
``ScatterBackward1`` from a number), ``scatter_add`` (``ScatterAddBackward0``) and ``index_add``
(``IndexAddBackward0``), each also in place (``x.scatter_(…)``).

Along ``dim``, ``scatter`` writes ``src[i][j]`` to ``out[index[i][j]][j]`` (dim 0); ``scatter_add`` adds it
there instead; ``index_add`` adds whole slices: ``out[index[i]] += alpha · source[i]``. Backward: the gradient of
what was overwritten is 0; the gradient of the values written is the gradient read back where they went.

Example::

    >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 3.]))
    tensor([3., 0., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.grad_mode import is_grad_enabled
from engine.ops.api import torch_op
from engine.ops.function import Function, number
from engine.ops.operands import as_tensor, check_scalar, made
from engine.tensor import _TYPE_NAMES, Tensor, _dim


def _along(index: np.ndarray, dim: int) -> tuple[Any, ...]:
    """The fancy key that reaches ``t[..index[i][j]..][j]`` along ``dim`` for every position of ``index``."""
    grids: list[Any] = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    return tuple(grids)


def _checked_index(op: str, a: Tensor, dim: int, index: Tensor, src: Tensor | None) -> tuple[int, np.ndarray]:
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")
    d = _dim(dim, a._data.ndim)
    if idx.ndim != a._data.ndim and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and src._data.ndim != idx.ndim and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    for i, n in enumerate(idx.shape):
        if i != d and n > a._data.shape[i]:
            raise RuntimeError(
                f"Size does not match at dimension {i} expected index {list(idx.shape)} to be smaller "
                f"than self {list(a._data.shape)} apart from dimension {d}"
            )
        if src is not None and n > src._data.shape[i]:
            raise RuntimeError(
                f"Size does not match at dimension {i} expected index {list(idx.shape)} to be smaller "
                f"than src {list(src._data.shape)} apart from dimension {d}"
            )
    size = a._data.shape[d] if a._data.ndim else 1
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {d} with size {size}")
    return d, idx.astype(np.int64)


def _same_dtype(op: str, a: Tensor, src: Tensor) -> None:
    if a._data.dtype != src._data.dtype:
        raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")


class ScatterBackward0(Function):
    """out = x with src written at index along dim: d/dx = g with 0 where src was written, d/dsrc = g read there."""

    templates = ("{grad}, 0 where values were written", "{grad} read back where each value was written")
    _saved_fields = ("dim", "index")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, src: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        ctx._save(dim=dim, index=index)
        out = a.copy()
        key = _along(index, dim)
        out[key] = src[tuple(slice(0, n) for n in index.shape)]
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        key = _along(ctx._saved["index"], ctx._saved["dim"])
        na, ns = ctx._needs_input_grad
        gs = None
        if ns:
            gs = k.take(g, key)
            if tuple(gs.shape) != ctx._in_shapes[1]:
                gs = k.embed(ctx._in_shapes[1], tuple(slice(0, n) for n in gs.shape), gs)
        return (k.zero_at(g, key) if na else None, gs)


class ScatterBackward1(Function):
    """out = x with a number written at index along dim: d/dx = g with 0 where it was written."""

    templates = ("{grad}, 0 where the value was written",)
    _saved_fields = ("dim", "index")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, index: Any = None, value: Any = 0) -> np.ndarray:
        ctx._save(dim=dim, index=index)
        out = a.copy()
        out[_along(index, dim)] = value
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.zero_at(g, _along(ctx._saved["index"], ctx._saved["dim"])),)


@torch_op(
    "scatter",
    signature=(
        "Tensor input, int dim, Tensor index, Tensor src",
        "Tensor input, int dim, Tensor index, Number value",
        "Tensor input, int dim, Tensor index, Tensor src, *, str reduce",
        "Tensor input, int dim, Tensor index, Number value, *, str reduce",
    ),
    inplace="scatter_",
)
def scatter(a: Tensor, dim: int, index: Tensor, src: Any = None, value: Any = None, reduce: Any = None) -> Tensor:
    """``x.scatter(dim, index, src)``: ``src``'s values written into a copy of ``x`` at ``index`` along ``dim``;
    with ``reduce='add'``/``'multiply'`` they are added to (multiplied into) what is there instead."""
    if src is None:
        src = value
    if reduce is not None:
        return _scatter_reduce(a, dim, index, src, reduce)
    if isinstance(src, Tensor):
        d, idx = _checked_index("scatter", a, dim, index, src)
        _same_dtype("scatter", a, src)
        return ScatterBackward0.apply(a, src, dim=d, index=idx)
    check_scalar(src)
    d, idx = _checked_index("scatter", a, dim, index, None)
    return ScatterBackward1.apply(a, dim=d, index=idx, value=as_tensor(src, a)._data.item())


def _scatter_reduce(a: Tensor, dim: int, index: Tensor, src: Any, reduce: str) -> Tensor:
    """``scatter(..., reduce=)``, PyTorch's deprecated form (its docs still show it): no gradient (PyTorch has none)."""
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if is_grad_enabled() and (a.requires_grad or (isinstance(src, Tensor) and src.requires_grad)):
        raise NotImplementedError(
            "scatter(reduce=...) on tensors that require grad is not supported by gradtrace's engine"
        )
    d, idx = _checked_index("scatter", a, dim, index, src if isinstance(src, Tensor) else None)
    out, key = a._data.copy(), _along(idx, d)
    if isinstance(src, Tensor):
        _same_dtype("scatter", a, src)
        values: Any = src._data[tuple(slice(0, n) for n in idx.shape)]
    else:
        check_scalar(src)
        values = as_tensor(src, a)._data.item()
    (np.add if reduce == "add" else np.multiply).at(out, key, values)
    return made(out)


class ScatterAddBackward0(Function):
    """out = x with src added at index along dim: d/dx = g, d/dsrc = g read back where each value was added."""

    templates = ("{grad}", "{grad} read back where each value was added")
    _saved_fields = ("dim", "index")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, src: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        ctx._save(dim=dim, index=index if ctx._needs_input_grad[1:] == (True,) else None)  # only src's needs it
        ctx._index = index
        out = a.copy()
        np.add.at(out, _along(index, dim), src[tuple(slice(0, n) for n in index.shape)])  # one by one, in order
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        key = _along(ctx._index, ctx._saved["dim"])
        na, ns = ctx._needs_input_grad
        gs = None
        if ns:
            gs = k.take(g, key)
            if tuple(gs.shape) != ctx._in_shapes[1]:
                gs = k.embed(ctx._in_shapes[1], tuple(slice(0, n) for n in gs.shape), gs)
        return (g if na else None, gs)


@torch_op("scatter_add", signature="Tensor input, int dim, Tensor index, Tensor src", inplace="scatter_add_")
def scatter_add(a: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``x.scatter_add(dim, index, src)``: ``src``'s values added into a copy of ``x`` at ``index`` along ``dim``."""
    d, idx = _checked_index("scatter_add", a, dim, index, src)
    _same_dtype("scatter", a, src)  # PyTorch's shared check names scatter
    return ScatterAddBackward0.apply(a, src, dim=d, index=idx)


class IndexAddBackward0(Function):
    """out = x with alpha · source[i] added to the slice index[i] along dim: d/dx = g, d/dsource = alpha · the
    gradient's slices at index."""

    _saved_fields = ("alpha", "dim", "index", "source_dim")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, source: np.ndarray, dim: int = 0, index: Any = None, alpha: Any = 1
    ) -> np.ndarray:
        ctx._save(
            alpha=alpha, dim=dim, index=index if ctx._needs_input_grad[1:] == (True,) else None, source_dim=source.ndim
        )  # the index only when source's gradient needs it, as PyTorch
        ctx._index = index
        out = a.copy()
        add = source if alpha == 1 else source * a.dtype.type(alpha)
        np.add.at(out, (slice(None),) * dim + (index,), add.reshape(out[(slice(None),) * dim + (index,)].shape))
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        alpha, dim, index = ctx._saved["alpha"], ctx._saved["dim"], ctx._index
        na, ns = ctx._needs_input_grad
        gs = None
        if ns:
            gs = k.reshape(k.take(g, (slice(None),) * dim + (index,)), ctx._in_shapes[1])
            if alpha != 1:
                gs = gs * alpha
        return (g if na else None, gs)

    def _templates(self) -> tuple[str | None, ...]:
        alpha = self._saved["alpha"]
        scale = "" if alpha == 1 else f"{number(alpha)} · "
        return ("{grad}", scale + "{grad}'s slices at the index")


@torch_op(
    "index_add", signature="Tensor input, int dim, Tensor index, Tensor source, *, Number alpha=1", inplace="index_add_"
)
def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    """``x.index_add(dim, index, source)``: ``source``'s slices added into a copy of ``x`` at the positions
    ``index`` (1-D) gives along ``dim``."""
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
    if idx.ndim > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector")
    d = _dim(dim, a._data.ndim)
    idx = idx.reshape(-1)
    n_src = source._data.shape[d] if source._data.ndim else 1
    if idx.size != n_src:
        raise RuntimeError(
            f"index_add_(): Number of indices ({idx.size}) should be equal to source.size(dim): ({n_src}), for dim: {d}"
        )
    if a._data.dtype != source._data.dtype:
        raise RuntimeError(
            f"index_add_(): self ({_TYPE_NAMES[a._data.dtype.name]}) and source "
            f"({_TYPE_NAMES[source._data.dtype.name]}) must have the same scalar type"
        )
    size = a._data.shape[d] if a._data.ndim else 1
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        raise IndexError("index out of range in self")
    return IndexAddBackward0.apply(a, source, dim=d, index=idx.astype(np.int64), alpha=alpha)


__all__ = [
    "IndexAddBackward0",
    "ScatterAddBackward0",
    "ScatterBackward0",
    "ScatterBackward1",
    "index_add",
    "scatter",
    "scatter_add",
]

"""Reductions (sum, mean, max, min, prod): many values in, fewer out. Backward spreads each output's gradient
back over the values it came from.

Example::

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> x.mean().backward(); x.grad      # each element contributed 1/3
    tensor([0.3333, 0.3333, 0.3333])
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from engine.graph import edge
from engine.meta import MetaArray, is_meta
from engine.ops.api import torch_op
from engine.ops.function import NO_CTX, Function, Unsupported
from engine.ops.meta_rules import reduced
from engine.ops.operands import binary, made
from engine.ops.summation import torch_mean, torch_sum
from engine.run_state import state
from engine.tensor import Tensor, _dim

_EXPANDED = "{grad} expanded to {0.shape}"
_REDUCTION = (
    "Tensor input, *, dtype? dtype=None",
    "Tensor input, int[1]? dim, bool keepdim=False, *, dtype? dtype=None",
)
_EXTREME = ("Tensor input", "Tensor input, Tensor other", "Tensor input, int dim, bool keepdim=False")

_ValuesIndices = namedtuple("_ValuesIndices", ["values", "indices"])


class MaxMinResult(_ValuesIndices):
    """``torch.return_types.max(values=..., indices=...)``."""

    _kind = "max"

    def __repr__(self) -> str:
        return f"torch.return_types.{self._kind}(\nvalues={self.values!r},\nindices={self.indices!r})"


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    if isinstance(dim, (list, tuple)):
        return tuple(sorted(_dim(int(d), ndim) for d in dim))
    return (_dim(int(dim), ndim),)


def _sum_dtype(a: np.ndarray) -> Any:
    return np.int64 if a.dtype.kind in "biu" else a.dtype


class SumBackward0(Function):
    """sum of all elements: every element gets the output's gradient."""

    _saved_fields = ("self_sym_sizes",)
    templates = (_EXPANDED,)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape))
        return torch_sum(a, None, False) if a.dtype.kind == "f" else np.asarray(a.sum(dtype=_sum_dtype(a)))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.expand(g, s["self_sym_sizes"]),)


class SumBackward1(Function):
    """sum over some dimensions."""

    _saved_fields = ("dim", "keepdim", "self_sym_sizes")
    templates = (_EXPANDED,)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False) -> np.ndarray:
        ctx._save(dim=dim, keepdim=keepdim, self_sym_sizes=tuple(a.shape))
        if a.dtype.kind == "f":
            return torch_sum(a, dim, keepdim)
        return np.asarray(a.sum(axis=dim, keepdims=keepdim, dtype=_sum_dtype(a)))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.expand_back(g, s["self_sym_sizes"], s["dim"], s["keepdim"]),)


class MeanBackward0(Function):
    """mean of all n elements: every element gets gradient / n."""

    _saved_fields = ("self_sym_numel", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self_sym_sizes=tuple(a.shape), self_sym_numel=int(a.size))
        return torch_mean(a, None, False)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.expand(g / s["self_sym_numel"], s["self_sym_sizes"]),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} / {self._saved['self_sym_numel']} expanded to {{0.shape}}",)


class MeanBackward1(Function):
    """mean over some dimensions: gradient / (number of elements averaged)."""

    _saved_fields = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False) -> np.ndarray:
        ctx._save(dim=dim, keepdim=keepdim, self_sym_sizes=tuple(a.shape), self_sym_numel=int(a.size))
        return torch_mean(a, dim, keepdim)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.expand_back(g / ctx._count(), s["self_sym_sizes"], s["dim"], s["keepdim"]),)

    def _count(self) -> int:
        n = 1
        for d in self._saved["dim"]:
            n *= self._saved["self_sym_sizes"][d]
        return n

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} / {self._count()} expanded to {{0.shape}}",)


class MaxBackward1(Function):
    """max of all elements: the gradient goes to the maximum (shared evenly between ties)."""

    _saved_fields = ("self", "result")
    _np = staticmethod(np.max)
    templates = ("{grad} where {0} = {out} (shared among ties), 0 elsewhere",)

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray) -> np.ndarray:  # type: ignore[override]
        if a.size == 0:
            raise RuntimeError(
                f"{cls._name()}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        r = np.asarray(cls._np(a))
        ctx._save(self=a, result=r)
        return r

    @classmethod
    def _name(cls) -> str:
        return "max" if cls._np is np.max else "min"

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        mask = s["self"] == s["result"]
        return (k.where(mask, g / k.count(mask, None, False, g), 0),)


class MinBackward1(MaxBackward1):
    _np = staticmethod(np.min)


class MaxBackward0(Function):
    """max along a dimension: the gradient goes to the index that won."""

    _saved_fields = ("dim", "keepdim", "indices", "self_sym_sizes")
    _argfn = staticmethod(np.argmax)

    @classmethod
    def _forward(  # type: ignore[override]
        cls, ctx: Any, a: np.ndarray, dim: int = 0, keepdim: bool = False
    ) -> np.ndarray:
        idx = np.expand_dims(cls._argfn(a, axis=dim), dim) if a.ndim else np.zeros((), dtype=np.int64)
        vals = np.take_along_axis(a, idx, axis=dim) if a.ndim else a.copy()
        if not keepdim and a.ndim:
            idx, vals = np.squeeze(idx, dim), np.squeeze(vals, dim)
        ctx._save(dim=dim, keepdim=keepdim, indices=idx.astype(np.int64), self_sym_sizes=tuple(a.shape))
        return np.asarray(vals), np.asarray(idx, dtype=np.int64)  # type: ignore[return-value]

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        saved = ctx._saved  # the indices as an array: they say where, they are not differentiated
        shape, dim, idx = saved["self_sym_sizes"], saved["dim"], saved["indices"]
        if not shape:
            return (k.copy(g),)
        if not saved["keepdim"]:
            idx, g = np.expand_dims(idx, dim), k.unsqueeze(g, (dim,))
        key = list(np.indices(idx.shape, sparse=True))
        key[dim] = idx
        return (k.embed(shape, tuple(key), g),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} at the index that won along dim {self._saved['dim']}, 0 elsewhere",)

    @classmethod
    def apply(cls, *inputs: Tensor, **params: Any) -> Any:
        # Two outputs (values, indices); only values carry the graph.
        st = state()
        (a,) = inputs
        record = st.grad_enabled and a._requires_grad
        ctx: Any = cls() if record else None
        if record:
            ctx._needs_input_grad = (True,)
            ctx.next_functions = (edge(a),)
        if is_meta(a._data):  # the meta device: the shapes only
            shape = reduced(a._data.shape, params["dim"], params["keepdim"])
            vals, idx = MetaArray(shape, a._data.dtype), MetaArray(shape, np.int64)
            if record:
                ctx._in_shapes = (a._data.shape,)
        else:
            vals, idx = cls._forward(ctx if record else NO_CTX, a._data, **params)
        values = Tensor._make(vals, ctx, record)
        indices = Tensor._make(idx)
        obs = st.observer
        if obs is not None:
            obs.tensor_created(values)
            obs.tensor_created(indices)
        res = MaxMinResult(values, indices)
        return res


class MinBackward0(MaxBackward0):
    _argfn = staticmethod(np.argmin)


class ProdBackward0(Function):
    """product of all elements: d/da_i = product of the others."""

    _saved_fields = ("self", "result")
    templates = ("{grad} · the product of the other elements of {0}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = np.asarray(a.prod(dtype=_sum_dtype(a)))
        ctx._save(self=a, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g * k.product_of_others(s["self"], s["result"]),)


class ProdBackward1(Function):
    """product over one dimension: each element's gradient is the product of the others along it."""

    _saved_fields = ("dim", "keepdim", "self", "result")
    templates = ("{grad} · the product of the other elements of {0} along the dimension",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = 0, keepdim: bool = False) -> np.ndarray:
        r = np.asarray(a.prod(axis=dim, keepdims=keepdim, dtype=_sum_dtype(a)))
        ctx._save(dim=dim, keepdim=keepdim, self=a, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, dim, keepdim = s["self"], s["dim"], s["keepdim"]
        data, shape = (a._data if isinstance(a, Tensor) else a), tuple(a.shape)
        g = k.expand_back(g, shape, (dim,), keepdim)
        if data.all():  # PyTorch's formula: grad · (result / input)
            return (g * (k.expand_back(s["result"], shape, (dim,), keepdim) / a),)
        if isinstance(a, Tensor):
            raise Unsupported("the product of the others along a dimension, where an element is 0")
        m = np.moveaxis(a, dim, -1)  # with zeros: the exclusive products from the left times those from the right
        one = np.ones_like(m[..., :1])
        left = np.concatenate([one, np.cumprod(m[..., :-1], axis=-1)], axis=-1)
        right = np.concatenate([np.cumprod(m[..., :0:-1], axis=-1)[..., ::-1], one], axis=-1)
        return (g * np.moveaxis(left * right, -1, dim),)


@torch_op("sum", signature=_REDUCTION, keepdims=True)
def sum(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:  # noqa: A001  (PyTorch's own name for the op)
    if dtype is not None:
        a = a.to(dtype)
    if dim is None:
        return SumBackward0.apply(a)
    return SumBackward1.apply(a, dim=_dims(dim, a._data.ndim), keepdim=keepdim)


@torch_op("mean", signature=_REDUCTION, keepdims=True)
def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    if not a.dtype.is_floating_point:
        name = {"int64": "Long", "int32": "Int", "bool": "Bool"}.get(a._data.dtype.name, a._data.dtype.name)
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {name}"
        )
    if dim is None:
        return MeanBackward0.apply(a)
    return MeanBackward1.apply(a, dim=_dims(dim, a._data.ndim), keepdim=keepdim)


def _maxmin(kind: str, a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    if isinstance(dim, Tensor):  # torch.max(a, b): elementwise maximum
        return binary(MaximumBackward0 if kind == "max" else MinimumBackward0, a, dim)
    if dim is None:
        return (MaxBackward1 if kind == "max" else MinBackward1).apply(a)
    d = _dim(int(dim), a._data.ndim)
    res = (MaxBackward0 if kind == "max" else MinBackward0).apply(a, dim=d, keepdim=keepdim)
    if kind == "min":
        res = _MinResult(*res)
    return res


class _MinResult(MaxMinResult):
    _kind = "min"


@torch_op(
    "max",
    signature=("Tensor input", "Tensor input, Tensor other", "Tensor input, int dim, bool keepdim=False"),
    keepdims=True,
)
def max(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001  (PyTorch's own name for the op)
    return _maxmin("max", a, dim, keepdim)


@torch_op(
    "min",
    signature=("Tensor input", "Tensor input, Tensor other", "Tensor input, int dim, bool keepdim=False"),
    keepdims=True,
)
def min(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001  (PyTorch's own name for the op)
    return _maxmin("min", a, dim, keepdim)


class MaximumBackward0(Function):
    """elementwise max(a, b): the gradient goes to the larger (half each on ties)."""

    _saved_fields = ("self", "other")
    _pick = staticmethod(np.maximum)
    broadcasts = True
    templates = (
        "{grad} where {0} > {1} (half on ties), 0 elsewhere",
        "{grad} where {1} > {0} (half on ties), 0 elsewhere",
    )

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:  # type: ignore[override]
        ctx._save(self=a, other=b)
        return cls._pick(a, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b = s["self"], s["other"]
        first = a > b if type(ctx)._pick is np.maximum else a < b
        tie = a == b
        ga = k.where(first, g, 0) + k.where(tie, g * 0.5, 0)
        gb = k.where(~first & ~tie, g, 0) + k.where(tie, g * 0.5, 0)
        sa, sb = ctx._in_shapes
        return k.sum_to(ga, sa), k.sum_to(gb, sb)


class MinimumBackward0(MaximumBackward0):
    """elementwise min(a, b): the gradient goes to the smaller (half each on ties)."""

    templates = (
        "{grad} where {0} < {1} (half on ties), 0 elsewhere",
        "{grad} where {1} < {0} (half on ties), 0 elsewhere",
    )
    _pick = staticmethod(np.minimum)


@torch_op(
    "prod",
    signature=("Tensor input, *, dtype? dtype=None", "Tensor input, int dim, bool keepdim=False, *, dtype? dtype=None"),
    keepdims=True,
)
def prod(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is not None:
        return ProdBackward1.apply(a, dim=_dim(dim, a._data.ndim), keepdim=keepdim)
    return ProdBackward0.apply(a)


@torch_op("argmax", signature="Tensor input, int? dim=None, bool keepdim=False", keepdims=True)
def argmax(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if is_meta(a._data):
        return made(MetaArray(reduced(a._data.shape, dim, keepdim), np.int64))
    if dim is None:
        return made(np.asarray(np.argmax(a._data), dtype=np.int64))
    return made(np.asarray(np.argmax(a._data, axis=_dim(dim, a.dim()), keepdims=keepdim), dtype=np.int64))


@torch_op("argmin", signature="Tensor input, int? dim=None, bool keepdim=False", keepdims=True)
def argmin(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if is_meta(a._data):
        return made(MetaArray(reduced(a._data.shape, dim, keepdim), np.int64))
    if dim is None:
        return made(np.asarray(np.argmin(a._data), dtype=np.int64))
    return made(np.asarray(np.argmin(a._data, axis=_dim(dim, a.dim()), keepdims=keepdim), dtype=np.int64))


@torch_op("maximum", signature="Tensor input, Tensor other")
def maximum(a: Tensor, b: Tensor) -> Tensor:
    return binary(MaximumBackward0, a, b)


@torch_op("minimum", signature="Tensor input, Tensor other")
def minimum(a: Tensor, b: Tensor) -> Tensor:
    return binary(MinimumBackward0, a, b)

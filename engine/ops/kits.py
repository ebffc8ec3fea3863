"""The two kits an op's one ``_backward`` runs with: ``ARRAYS`` (plain backward, on numpy arrays) and ``TENSORS``
(``create_graph=True``, on tensors, through the engine's own differentiable ops).

A backward formula uses Python's operators (``g * (1 - r * r)``, the same on arrays and tensors) and, for
everything else, the kit's functions, which have the same names and meaning in both kits. ``ARRAYS`` computes
exactly what the numpy formulas always computed (the same float operations in the same order, so the results
stay bit-exact); ``TENSORS`` records a graph, so that the gradient can be differentiated again.

Example::

    >>> def _backward(ctx, k, g, s):                 # TanhBackward0: d/da tanh(a) = 1 - tanh²(a)
    ...     r = s["result"]
    ...     return (g * (1 - r * r),)
    >>> def _backward(ctx, k, g, s):                 # MaskedFillBackward0: 0 where values were replaced
    ...     return (k.sum_to(k.where(s["mask"], 0, g), ctx._in_shapes[0]),)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import dtypes, numerics
from engine.ops import arith, elementwise, indexing, linalg, ordering, reduce, shape
from engine.ops.elementwise import mkl
from engine.ops.function import Unsupported, use_kits
from engine.ops.linalg import product
from engine.ops.operands import made, unbroadcast
from engine.ops.summation import torch_mean
from engine.tensor import Tensor


def _array(x: Any) -> Any:
    return x._data if isinstance(x, Tensor) else x


class _Kit:
    """What both kits compose from their primitives."""

    def expand_back(self, g: Any, target: tuple[int, ...], dims: tuple[int, ...] | None, keepdim: bool) -> Any:
        """A reduced gradient given its reduced dimensions back (size 1), then broadcast to ``target``."""
        if dims is not None and not keepdim and len(target) > 0:
            g = self.unsqueeze(g, dims)  # type: ignore[attr-defined]
        return self.expand(g, target)  # type: ignore[attr-defined]


def _one_minus_square(r: np.ndarray) -> np.ndarray:
    """``1 - r * r`` as PyTorch's CPU tanh backward computes it for float32 and float64: one fused multiply-add
    (the compiler contracts its vectorised ``one - b * b``), so rounded once."""
    if r.dtype == np.float32:
        return np.asarray(numerics.fma32(-r, r, np.float32(1)), np.float32)
    if r.dtype == np.float64:
        return np.asarray(numerics.fma64(-r, r, 1.0), np.float64)
    return 1 - r * r


def _product_of_others(a: np.ndarray) -> np.ndarray:
    """For each element, the product of all the others, without dividing (safe when some element is 0)."""
    flat = a.reshape(-1)
    left = np.concatenate([[1], np.cumprod(flat[:-1])]).astype(a.dtype)
    right = np.concatenate([np.cumprod(flat[::-1][:-1])[::-1], [1]]).astype(a.dtype)
    return (left * right).reshape(a.shape)


class ArrayKit(_Kit):
    """Backward on numpy arrays: numpy's own functions, ``sin``/``cos`` in double precision (as the forward ops)."""

    # values and constants
    const = staticmethod(lambda x: x)
    zeros_like = staticmethod(np.zeros_like)
    cast = staticmethod(lambda x, dtype: x.astype(dtype))
    like = staticmethod(lambda x, other: x.astype(other.dtype))
    where = staticmethod(np.where)
    count = staticmethod(
        lambda mask, dims, keepdim, like: np.asarray(mask.sum(axis=dims, keepdims=keepdim), dtype=like.dtype)
    )
    copy = staticmethod(np.copy)
    # elementwise
    exp, log, sign, abs, tanh = (staticmethod(f) for f in (np.exp, np.log, np.sign, np.abs, np.tanh))
    maximum, power = staticmethod(np.maximum), staticmethod(np.power)
    sin = staticmethod(lambda x: mkl(np.sin, numerics.sin, x))
    cos = staticmethod(lambda x: mkl(np.cos, numerics.cos, x))
    sinh = staticmethod(lambda x: elementwise.precise(np.sinh, x))
    cosh = staticmethod(lambda x: elementwise.precise(np.cosh, x))
    pow = staticmethod(lambda x, n: arith.pow_scalar(x, n))
    erf = staticmethod(lambda x: np.vectorize(math.erf)(x) if x.size else x)
    log_of = staticmethod(lambda number, like: np.log(np.asarray(number, dtype=like.dtype)))
    product_of_others = staticmethod(lambda a, result: _product_of_others(a))
    one_minus_square = staticmethod(_one_minus_square)
    # shapes
    sum_to = staticmethod(unbroadcast)
    expand = staticmethod(lambda g, shape: np.broadcast_to(g, shape))
    unsqueeze = staticmethod(lambda g, dims: np.expand_dims(g, dims))
    squeeze = staticmethod(lambda g, dim: np.squeeze(g, dim))
    reshape = staticmethod(lambda g, shape: g.reshape(shape))
    permute = staticmethod(np.transpose)
    transpose = staticmethod(np.swapaxes)
    t = staticmethod(lambda x: x.T)
    flip = staticmethod(lambda g, dims: np.flip(g, axis=dims).copy())
    triu = staticmethod(np.triu)
    tril = staticmethod(np.tril)
    # reductions (numpy's order; the forward ops use PyTorch's)
    sum = staticmethod(lambda x, dims, keepdim: x.sum(axis=dims, keepdims=keepdim))
    mean = staticmethod(torch_mean)
    cumsum = staticmethod(lambda x, dim: np.cumsum(x.astype(np.float64), axis=dim).astype(x.dtype))
    # products
    mm = staticmethod(product)
    matmul = staticmethod(product)
    mv = staticmethod(lambda m, v: m @ v)
    outer = staticmethod(np.outer)
    # picking and placing
    take = staticmethod(lambda g, key: g[key])

    @staticmethod
    def embed(shape: tuple[int, ...], key: Any, g: np.ndarray) -> np.ndarray:
        """Zeros of ``shape`` with ``g`` written at ``key``."""
        out = np.zeros(shape, dtype=g.dtype)
        out[key] = g
        return out

    @staticmethod
    def index_add(shape: tuple[int, ...], key: Any, g: np.ndarray) -> np.ndarray:
        """Zeros of ``shape`` with ``g`` added at ``key`` (an index picked twice gets both)."""
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, key, g)
        return out

    @staticmethod
    def zero_at(g: np.ndarray, key: Any) -> np.ndarray:
        """``g`` with zeros written at ``key``."""
        out = g.copy()
        out[key] = 0
        return out


class TensorKit(_Kit):
    """Backward on tensors, with the engine's differentiable ops (the result has a graph)."""

    @staticmethod
    def const(x: Any) -> Any:
        return Tensor._make(x) if isinstance(x, np.ndarray) else x

    zeros_like = staticmethod(lambda x: made(np.zeros_like(x._data)))

    @staticmethod
    def cast(x: Tensor, dtype: Any) -> Tensor:
        return x if x._data.dtype == dtype else shape.to_dtype(x, dtypes.from_numpy(np.dtype(dtype)))

    like = staticmethod(lambda x, other: TensorKit.cast(x, other._data.dtype))

    @staticmethod
    def where(c: Any, a: Any, b: Any) -> Tensor:
        cond = c if isinstance(c, Tensor) else Tensor._make(np.asarray(c))
        return elementwise.where(cond, a, b)

    @staticmethod
    def count(mask: Any, dims: Any, keepdim: bool, like: Tensor) -> Tensor:
        return Tensor._make(np.asarray(_array(mask).sum(axis=dims, keepdims=keepdim), dtype=like._data.dtype))

    copy = staticmethod(lambda x: x)
    one_minus_square = staticmethod(lambda r: 1 - r * r)
    exp, log, sign, abs, sin, cos, sinh, cosh, tanh, erf = (
        staticmethod(f)
        for f in (
            elementwise.exp,
            elementwise.log,
            elementwise.sign,
            elementwise.abs,
            elementwise.sin,
            elementwise.cos,
            elementwise.sinh,
            elementwise.cosh,
            elementwise.tanh,
            elementwise.erf,
        )
    )
    maximum = staticmethod(lambda a, b: reduce.maximum(a, b) if isinstance(b, Tensor) else elementwise.clamp(a, min=b))
    pow = power = staticmethod(arith.pow)
    log_of = staticmethod(lambda number, like: float(np.log(np.asarray(number, dtype=like._data.dtype))))

    @staticmethod
    def product_of_others(a: Tensor, result: Tensor) -> Tensor:
        if not a._data.all():
            raise Unsupported("the product of the others, where an element is 0")
        return result / a  # ∏_{j≠i} a_j = ∏ a / a_i

    @staticmethod
    def sum_to(g: Tensor, target: tuple[int, ...]) -> Tensor:
        """Sum a gradient back to an input's shape (``unbroadcast`` on tensors)."""
        if g._data.shape == tuple(target):
            return g
        extra = g._data.ndim - len(target)
        dims = list(range(extra)) + [
            i + extra for i, s in enumerate(target) if s == 1 and g._data.shape[i + extra] != 1
        ]
        out = reduce.sum(g, dim=dims, keepdim=True) if dims else g
        return shape.reshape(out, *target) if out._data.shape != tuple(target) else out

    expand = staticmethod(lambda g, target: g if g._data.shape == tuple(target) else shape.expand(g, *target))

    @staticmethod
    def unsqueeze(g: Tensor, dims: Any) -> Tensor:
        for d in sorted(dims) if isinstance(dims, (tuple, list)) else (dims,):
            g = shape.unsqueeze(g, d)
        return g

    squeeze = staticmethod(shape.squeeze)
    reshape = staticmethod(lambda g, target: shape.reshape(g, *target))
    permute = staticmethod(lambda g, dims: shape.permute(g, *[int(d) for d in dims]))
    transpose = staticmethod(shape.transpose)
    t = staticmethod(shape.t)
    flip = staticmethod(lambda g, dims: ordering.flip(g, *dims))
    triu = staticmethod(ordering.triu)
    tril = staticmethod(ordering.tril)
    sum = staticmethod(lambda x, dims, keepdim: reduce.sum(x, dim=dims, keepdim=keepdim))
    mean = staticmethod(lambda x, dims, keepdim: reduce.mean(x, dim=dims, keepdim=keepdim))
    cumsum = staticmethod(ordering.cumsum)
    mm = staticmethod(linalg.mm)
    matmul = staticmethod(linalg.matmul)
    mv = staticmethod(linalg.mv)
    outer = staticmethod(lambda g, v: arith.mul(shape.unsqueeze(g, 1), v))
    take = staticmethod(indexing.getitem)

    @staticmethod
    def embed(target: tuple[int, ...], key: Any, g: Tensor) -> Tensor:
        out = made(np.zeros(target, dtype=g._data.dtype))
        indexing.setitem(out, key, g)
        return out

    @staticmethod
    def index_add(target: tuple[int, ...], key: Any, g: Tensor) -> Tensor:
        return indexing.IndexPutBackward0.apply(g, key=key, shape=tuple(target))

    @staticmethod
    def zero_at(g: Tensor, key: Any) -> Tensor:
        out = shape.clone(g)
        indexing.setitem(out, key, 0)
        return out


ARRAYS = ArrayKit()
TENSORS = TensorKit()
use_kits(ARRAYS, TENSORS)

__all__ = ["ARRAYS", "TENSORS", "ArrayKit", "TensorKit", "Unsupported"]

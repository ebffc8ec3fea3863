"""``torch.linalg.norm`` and ``torch.linalg.matrix_norm``, composed as PyTorch 2.13 composes them
(aten/src/ATen/native/LinearAlgebra.cpp), so that the graph has PyTorch's nodes: a vector norm is one
``LinalgVectorNormBackward0``; a matrix norm of order ±1/±inf is a 1-norm over one dimension, then ``amax``/``amin``
over the other; of order ±2 the largest/smallest singular value; ``'nuc'`` their sum; ``'fro'`` a vector 2-norm over
both dimensions."""

from __future__ import annotations

import math
from typing import Any

from engine.ops.argcheck import dtype_name
from engine.ops.decompositions import linalg_svdvals, linalg_vector_norm
from engine.ops.pieces import amax, amin
from engine.ops.reduce import _dim
from engine.ops.reduce import sum as reduce_sum
from engine.ops.shape import permute, unsqueeze
from engine.tensor import Tensor


def _dim_list(dim: Any) -> list[int]:
    return [int(d) for d in dim] if isinstance(dim, (tuple, list)) else [int(dim)]


def _matrix_checks(A: Tensor, dims: list[int]) -> list[int]:
    if A._data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if A._data.dtype.kind != "f":
        raise RuntimeError(
            f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {dtype_name(A)}"
        )
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    d0, d1 = (_dim(d, A._data.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
    return [d0, d1]


def _backshift(d0: int, d1: int, ndim: int) -> list[int]:
    """PyTorch's create_dim_backshift_permutation: the two dims moved to the end, the rest in order."""
    return [d for d in range(ndim) if d not in (d0, d1)] + [d0, d1]


def _reverse(perm: list[int]) -> list[int]:
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return out


def linalg_matrix_norm(
    A: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *, dtype: Any = None
) -> Tensor:
    """``torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1))``."""
    if dtype is not None:
        A = A.to(dtype)
    dims = _dim_list(dim)
    keepdim = bool(keepdim)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        d0, d1 = _matrix_checks(A, dims)
        if ord == "fro":
            return linalg_vector_norm(A, 2, (d0, d1), keepdim)
        return _singular(A, d0, d1, keepdim, lambda s: reduce_sum(s, -1, keepdim))
    order = float(ord)
    if abs(order) not in (1.0, 2.0, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_order_text(ord)} not supported.")
    d0, d1 = _matrix_checks(A, dims)
    extreme = amax if order > 0 else amin
    if abs(order) == 2.0:
        return _singular(A, d0, d1, keepdim, lambda s: extreme(s, -1))
    if abs(order) == math.inf:  # the inf norm is the 1 norm of the transposed matrix
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    return extreme(linalg_vector_norm(A, 1.0, d0, keepdim), d1, keepdim)


def _singular(A: Tensor, d0: int, d1: int, keepdim: bool, reduce: Any) -> Tensor:
    perm = _backshift(d0, d1, A._data.ndim)
    result = reduce(linalg_svdvals(permute(A, *perm)))
    if keepdim:
        result = permute(unsqueeze(result, -1), *_reverse(perm))
    return result


def _order_text(ord: Any) -> str:
    return str(ord) if not isinstance(ord, float) or not ord.is_integer() else str(int(ord))


def linalg_norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """``torch.linalg.norm(A, ord=None, dim=None)``: a vector norm, or a matrix norm when ``ord`` is given and the
    input is 2-D (or ``dim`` names two dimensions)."""
    dims = None if dim is None else _dim_list(dim)
    if dims is not None:
        if len(dims) not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got [{', '.join(map(str, dims))}]"
            )
    elif ord is not None and A._data.ndim not in (1, 2):
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A._data.ndim}D."
        )
    if isinstance(ord, str):
        return linalg_matrix_norm(A, ord, dims if dims is not None else (0, 1), keepdim, dtype=dtype)
    if ord is not None and ((dims is not None and len(dims) == 2) or (dims is None and A._data.ndim == 2)):
        return linalg_matrix_norm(A, ord, dims if dims is not None else (0, 1), keepdim, dtype=dtype)
    return linalg_vector_norm(A, 2 if ord is None else ord, None if dims is None else tuple(dims), keepdim, dtype=dtype)


# torch.linalg's norms beside decompositions.LINALG
LINALG_NORMS = {"norm": linalg_norm, "matrix_norm": linalg_matrix_norm}

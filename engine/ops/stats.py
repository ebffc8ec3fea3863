"""Statistics and friends: var, std, norm, logsumexp, all/any, and the piecewise-constant functions (sign,
round, floor, ceil, whose derivative is 0), plus masked_fill and repeat.

Example::

    >>> x = torch.tensor([1., 2., 4.], requires_grad=True)
    >>> x.std()
    tensor(1.5275, grad_fn=<StdBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ops.base import Function, check_scalar, made
from engine.ops.reduce import _dims, _expand_back
from engine.ops.summation import torch_mean, torch_sum
from engine.tensor import Tensor, _dim


def _correction(unbiased: Any, correction: Any) -> float:
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased is None or unbiased else 0.0


class VarBackward0(Function):
    """variance = Σ(x - mean)² / (n - correction): d/dx = 2 (x - mean) / (n - correction)."""

    _saved_fields = ("self", "dim", "correction", "keepdim")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, dim: Any = None, correction: float = 1.0, keepdim: bool = False
    ) -> np.ndarray:
        ctx._save(self=a, dim=dim, correction=correction, keepdim=keepdim)
        mean = torch_mean(a, dim, True)
        d = a - mean
        n = a.size if dim is None else int(np.prod([a.shape[i] for i in dim]))
        s = torch_sum(d * d, dim, keepdim)
        return np.asarray(s / a.dtype.type(max(n - correction, 0)))

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, dim, corr, keep = (ctx._saved[k] for k in ("self", "dim", "correction", "keepdim"))
        n = a.size if dim is None else int(np.prod([a.shape[i] for i in dim]))
        g = _expand_back(g, a.shape, dim, keep) if dim is not None else g
        return ((a.dtype.type(2.0 / max(n - corr, 0)) * g) * (a - torch_mean(a, dim, True)),)


class StdBackward0(Function):
    """standard deviation = √variance: d/dx = (x - mean) / ((n - correction) · std)."""

    _saved_fields = ("self", "dim", "correction", "keepdim", "result")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, dim: Any = None, correction: float = 1.0, keepdim: bool = False
    ) -> np.ndarray:
        var = VarBackward0._forward(_Plain(), a, dim, correction, keepdim)
        r = np.sqrt(var)
        ctx._save(self=a, dim=dim, correction=correction, keepdim=keepdim, result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, dim, corr, keep, r = (ctx._saved[k] for k in ("self", "dim", "correction", "keepdim", "result"))
        n = a.size if dim is None else int(np.prod([a.shape[i] for i in dim]))
        gr = g / (r * a.dtype.type(max(n - corr, 0)))
        gr = _expand_back(gr, a.shape, dim, keep) if dim is not None else gr
        return (gr * (a - torch_mean(a, dim, True)),)


class _Plain:
    def _save(*args: Any, **kwargs: Any) -> None:
        pass


class LinalgVectorNormBackward0(Function):
    """p-norm (‖x‖₂ = √Σx² by default): d/dx = x / ‖x‖ for p = 2."""

    _saved_fields = ("self", "ord", "dim", "keepdim", "result")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, ord: float = 2.0, dim: Any = None, keepdim: bool = False  # noqa: A002
    ) -> np.ndarray:
        absa = np.abs(a)
        if ord == 2:
            r = np.sqrt(torch_sum(absa * absa, dim, keepdim))
        elif ord == 1:
            r = torch_sum(absa, dim, keepdim)
        elif ord == float("inf"):
            r = np.asarray(absa.max(axis=dim, keepdims=keepdim))
        else:
            r = np.asarray(np.power(torch_sum(np.power(absa, ord), dim, keepdim), 1.0 / ord)).astype(a.dtype)
        ctx._save(self=a, ord=ord, dim=dim, keepdim=keepdim, result=r)
        return np.asarray(r)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, p, dim, keep, r = (ctx._saved[k] for k in ("self", "ord", "dim", "keepdim", "result"))
        if dim is not None:
            g, r = _expand_back(g, a.shape, dim, keep), _expand_back(r, a.shape, dim, keep)
        if p == 2:
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(r == 0, 0, a * (g / r))
        elif p == 1:
            out = np.sign(a) * g
        elif p == float("inf"):
            mask = np.abs(a) == r
            out = np.sign(a) * g * mask / mask.sum(axis=dim, keepdims=True)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(r == 0, 0, a * np.power(np.abs(a), p - 2) * g / np.power(r, p - 1))
        return (np.asarray(out, dtype=a.dtype),)


class LogsumexpBackward0(Function):
    """log Σ exp(x): d/dx = softmax(x)."""

    _saved_fields = ("self", "dim", "keepdim", "result")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False) -> np.ndarray:
        m = a.max(axis=dim, keepdims=True)
        m = np.where(np.isinf(m), 0, m).astype(a.dtype)
        r = np.log(torch_sum(np.exp(a - m), dim, True)) + m
        ctx._save(self=a, dim=dim, keepdim=keepdim, result=r)
        return np.asarray(r if keepdim else np.squeeze(r, dim))

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, dim, keep, r = (ctx._saved[k] for k in ("self", "dim", "keepdim", "result"))
        g = _expand_back(g, a.shape, dim, keep)
        return (g * np.exp(a - r),)


def _zero_grad_op(name: str, fn: Any) -> type[Function]:
    return type(name, (Function,), {
        "__doc__": f"{name[:-9].lower()}(x): piecewise constant, so its gradient is 0.",
        "_forward": staticmethod(lambda ctx, a: fn(a)),
        "_backward": lambda ctx, g: (np.zeros_like(g),),
        "__module__": __name__,
    })


SignBackward0 = _zero_grad_op("SignBackward0", np.sign)
RoundBackward0 = _zero_grad_op("RoundBackward0", np.round)
FloorBackward0 = _zero_grad_op("FloorBackward0", np.floor)
CeilBackward0 = _zero_grad_op("CeilBackward0", np.ceil)


class MaskedFillBackward0(Function):
    """masked_fill(mask, value): the gradient passes where the mask is False, is 0 where values were replaced."""

    _saved_fields = ("mask",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, mask: Any = None, value: Any = 0) -> np.ndarray:
        ctx._save(mask=mask)
        return np.where(mask, np.asarray(value, dtype=a.dtype), a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        from engine.ops.base import unbroadcast

        m = ctx._saved["mask"]
        return (unbroadcast(np.where(m, np.zeros((), g.dtype), g), ctx._shape),)


class RepeatBackward0(Function):
    """repeat(*sizes): tile the tensor; each original element's gradient is the sum over its copies."""

    _saved_fields = ("repeats", "self_sym_sizes")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, repeats: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(repeats=repeats, self_sym_sizes=tuple(a.shape))
        lead = len(repeats) - a.ndim
        return np.tile(a.reshape((1,) * lead + a.shape), repeats)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        reps, shape = ctx._saved["repeats"], ctx._saved["self_sym_sizes"]
        lead = len(reps) - len(shape)
        full = (1,) * lead + shape
        split = []
        for r, s in zip(reps, full):
            split += [r, s]
        return (g.reshape(split).sum(axis=tuple(range(0, 2 * len(reps), 2))).reshape(shape),)


# ---- functions --------------------------------------------------------------------------------------------------
def _dim_arg(a: Tensor, dim: Any) -> tuple[int, ...] | None:
    if dim is None:
        return None
    return _dims(dim, a._data.ndim)


def _floating_std(a: Tensor) -> None:
    if a._data.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")


def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool):  # x.var(False): the old positional ``unbiased``
        dim, unbiased = None, dim
    _floating_std(a)
    return VarBackward0.apply(a, dim=_dim_arg(a, dim), correction=_correction(unbiased, correction), keepdim=keepdim)


def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    _floating_std(a)
    return StdBackward0.apply(a, dim=_dim_arg(a, dim), correction=_correction(unbiased, correction), keepdim=keepdim)


def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Tensor:
    if not isinstance(a, Tensor):  # PyTorch's Python norm reads input.layout first
        raise AttributeError(f"'{type(a).__name__}' object has no attribute 'layout'")
    if p not in ("fro", None) and not isinstance(p, (int, float, str)):
        from engine.ops.argcheck import must_be

        raise must_be("linalg_vector_norm", "ord", 2, "Number", p)
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if p == "nuc":
        if a._data.ndim < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
        raise NotImplementedError("norm(p='nuc') is not supported by gradtrace's engine")
    if a._data.dtype.kind != "f":
        from engine.ops.argcheck import dtype_name

        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{dtype_name(a)}")
    ord_ = 2.0 if p in ("fro", None) else float(p)
    return LinalgVectorNormBackward0.apply(a, ord=ord_, dim=_dim_arg(a, dim), keepdim=keepdim)


def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return LogsumexpBackward0.apply(a, dim=_dims(dim, a._data.ndim), keepdim=keepdim)


def all(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    axis = None if dim is None else _dim(int(dim), a._data.ndim)
    return made(np.asarray(np.all(a._data, axis=axis, keepdims=keepdim)))


def any(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    axis = None if dim is None else _dim(int(dim), a._data.ndim)
    return made(np.asarray(np.any(a._data, axis=axis, keepdims=keepdim)))


def sign(a: Tensor) -> Tensor:
    return SignBackward0.apply(a)


def round(a: Tensor) -> Tensor:  # noqa: A001
    return RoundBackward0.apply(a)


def floor(a: Tensor) -> Tensor:
    return FloorBackward0.apply(a)


def ceil(a: Tensor) -> Tensor:
    return CeilBackward0.apply(a)


def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        value = value.item()
    check_scalar(value)
    from engine.ops.base import broadcast_shape

    if mask._data.dtype != np.bool_:
        from engine.ops.linalg import _C_NAMES

        name = mask._data.dtype.name
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {_C_NAMES.get(name, name)}"
        )

    if broadcast_shape(mask._data.shape, a._data.shape) != a._data.shape:
        raise RuntimeError(f"The size of tensor a ({mask._data.shape[0]}) must match the size of tensor b "
                           f"({a._data.shape[0]}) at non-singleton dimension 0")
    out = MaskedFillBackward0.apply(a, mask=np.broadcast_to(mask._data.astype(bool), a._data.shape), value=value)
    if out._grad_fn is not None:
        out._grad_fn._shape = a._data.shape
    return out


def repeat(a: Tensor, *sizes: Any) -> Tensor:
    reps = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else tuple(sizes)
    if len(reps) < a._data.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    from engine.ops.base import check_alloc

    reps_numel = math.prod(int(r) for r in reps)  # exact: np.prod wraps around (2**32 * 2**32 == 0)
    check_alloc(max(reps_numel * a._data.size, reps_numel))  # numpy's work grows with the repeats even when empty
    return RepeatBackward0.apply(a, repeats=tuple(int(r) for r in reps))

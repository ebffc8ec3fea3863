"""Statistics and friends: var, std, norm, logsumexp, all/any, plus masked_fill and repeat.

Example::

    >>> x = torch.tensor([1., 2., 4.], requires_grad=True)
    >>> x.std()
    tensor(1.5275, grad_fn=<StdBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import dtypes
from engine.ops import variance
from engine.ops.api import torch_op
from engine.ops.argcheck import dtype_name, must_be
from engine.ops.function import Function, number
from engine.ops.operands import broadcast_shape, check_alloc, check_scalar, made
from engine.ops.reduce import _dims
from engine.ops.summation import torch_sum
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
        return variance.spread(a, dim, correction, keepdim)  # accumulated in double, as PyTorch's kernels

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, dim, keep = s["self"], s["dim"], s["keepdim"]
        g = k.expand_back(g, ctx._in_shapes[0], dim, keep) if dim is not None else g
        return ((2.0 / _dof(ctx)) * g * (a - k.mean(a, dim, True)),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} · 2·({{0}} − mean) / {number(_dof(self))}",)


class StdBackward0(Function):
    """standard deviation = √variance: d/dx = (x - mean) / ((n - correction) · std)."""

    _saved_fields = ("self", "dim", "correction", "keepdim", "result")

    @staticmethod
    def _forward(
        ctx: Any, a: np.ndarray, dim: Any = None, correction: float = 1.0, keepdim: bool = False
    ) -> np.ndarray:
        r = variance.spread(a, dim, correction, keepdim, take_sqrt=True)  # the root taken in double
        ctx._save(self=a, dim=dim, correction=correction, keepdim=keepdim, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, dim, keep = s["self"], s["dim"], s["keepdim"]
        gr = g / (s["result"] * _dof(ctx))
        gr = k.expand_back(gr, ctx._in_shapes[0], dim, keep) if dim is not None else gr
        return (gr * (a - k.mean(a, dim, True)),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} · ({{0}} − mean) / ({number(_dof(self))}·{{out}})",)


def _dof(ctx: Any) -> float:
    """n - correction: the divisor of var/std (n the number of elements reduced)."""
    shape, dim = ctx._in_shapes[0], ctx._saved["dim"]
    n = math.prod(shape) if dim is None else math.prod(shape[i] for i in dim)
    return max(n - ctx._saved["correction"], 0)


class LinalgVectorNormBackward0(Function):
    """p-norm (‖x‖₂ = √Σx² by default): d/dx = x / ‖x‖ for p = 2."""

    _saved_fields = ("self", "ord", "dim", "keepdim", "result")

    @staticmethod
    def _forward(
        ctx: Any,
        a: np.ndarray,
        ord: float = 2.0,
        dim: Any = None,
        keepdim: bool = False,
    ) -> np.ndarray:
        absa = np.abs(a)
        if ord == 2:
            r = np.sqrt(torch_sum(absa * absa, dim, keepdim))
        elif ord == 1:
            r = torch_sum(absa, dim, keepdim)
        elif ord == float("inf"):
            r = np.asarray(absa.max(axis=dim, keepdims=keepdim))
        elif ord == -float("inf"):
            r = np.asarray(absa.min(axis=dim, keepdims=keepdim))
        elif ord == 0:  # the number of nonzero elements
            r = np.asarray(torch_sum((absa != 0).astype(a.dtype), dim, keepdim))
        else:
            r = np.asarray(np.power(torch_sum(np.power(absa, ord), dim, keepdim), 1.0 / ord)).astype(a.dtype)
        ctx._save(self=a, ord=ord, dim=dim, keepdim=keepdim, result=r)
        return np.asarray(r)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, p, dim, keep, r = (s[key] for key in ("self", "ord", "dim", "keepdim", "result"))
        if p == 0:  # PyTorch gives no gradient at all for a count of nonzeros: .grad stays None
            return (None,)
        if dim is not None:
            shape = ctx._in_shapes[0]
            g, r = k.expand_back(g, shape, dim, keep), k.expand_back(r, shape, dim, keep)
        if p == 2:
            out = k.where(r == 0, 0, a * (g / r))
        elif p == 1:
            out = k.sign(a) * g
        elif p in (float("inf"), -float("inf")):
            mask = k.abs(a) == r
            out = k.sign(a) * g * mask / k.sum(mask, dim, True)
        else:
            out = k.where(r == 0, 0, a * k.power(k.abs(a), p - 2) * g / k.power(r, p - 1))
        return (k.like(out, a),)

    def _templates(self) -> tuple[str | None, ...]:
        p = self._saved["ord"]
        if p == 2:
            return ("{grad} · {0} / {out}",)
        if p == 1:
            return ("{grad} · sign({0})",)
        if p in (float("inf"), -float("inf")):
            return ("{grad} · sign({0}) where |{0}| = {out} (shared among ties), 0 elsewhere",)
        if p == 0:
            return ("0 (a count of nonzeros has no slope)",)
        return (f"{{grad}} · {{0}}·|{{0}}|^{number(p - 2)} / {{out}}^{number(p - 1)}",)


class LogsumexpBackward0(Function):
    """log Σ exp(x): d/dx = softmax(x)."""

    _saved_fields = ("self", "dim", "keepdim", "result")
    templates = ("{grad} · e^({0} − {out})",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: tuple[int, ...] = (), keepdim: bool = False) -> np.ndarray:
        m = a.max(axis=dim, keepdims=True)
        m = np.where(np.isinf(m), 0, m).astype(a.dtype)
        r = np.log(torch_sum(np.exp(a - m), dim, True)) + m
        ctx._save(self=a, dim=dim, keepdim=keepdim, result=r)
        return np.asarray(r if keepdim else np.squeeze(r, dim))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        g = k.expand_back(g, ctx._in_shapes[0], s["dim"], s["keepdim"])
        return (g * k.exp(s["self"] - s["result"]),)


class MaskedFillBackward0(Function):
    """masked_fill(mask, value): the gradient passes where the mask is False, is 0 where values were replaced."""

    _saved_fields = ("mask",)
    templates = ("{grad} where the mask is False, 0 where values were replaced",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, mask: Any = None, value: Any = 0) -> np.ndarray:
        ctx._save(mask=mask)
        return np.where(mask, np.asarray(value, dtype=a.dtype), a)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.sum_to(k.where(s["mask"], 0, g), ctx._in_shapes[0]),)


class RepeatBackward0(Function):
    """repeat(*sizes): tile the tensor; each original element's gradient is the sum over its copies."""

    _saved_fields = ("repeats", "self_sym_sizes")
    templates = ("{grad} summed over the copies",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, repeats: tuple[int, ...] = ()) -> np.ndarray:
        ctx._save(repeats=repeats, self_sym_sizes=tuple(a.shape))
        lead = len(repeats) - a.ndim
        return np.tile(a.reshape((1,) * lead + a.shape), repeats)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        reps, shape = s["repeats"], s["self_sym_sizes"]
        full = (1,) * (len(reps) - len(shape)) + shape
        split: list[int] = []
        for r, n in zip(reps, full):
            split += [r, n]
        return (k.reshape(k.sum(k.reshape(g, split), tuple(range(0, 2 * len(reps), 2)), False), shape),)


# ---- functions --------------------------------------------------------------------------------------------------
_LOGICAL = (
    "Tensor input",
    "Tensor input, int[1]? dim=None, bool keepdim=False",
    "Tensor input, int dim, bool keepdim=False",
)
VAR_SIGNATURES = (
    "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False",
    "Tensor input, int[1]? dim=None, *, Number? correction=None, bool keepdim=False",
    "Tensor input, bool unbiased=True",
)


def _dim_arg(a: Tensor, dim: Any) -> tuple[int, ...] | None:
    if dim is None:
        return None
    return _dims(dim, a._data.ndim)


def _floating_std(a: Tensor) -> None:
    if a._data.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")


@torch_op("var", signature=VAR_SIGNATURES, keepdims=True)
def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool):  # x.var(False): the old positional ``unbiased``
        dim, unbiased = None, dim
    _floating_std(a)
    return VarBackward0.apply(a, dim=_dim_arg(a, dim), correction=_correction(unbiased, correction), keepdim=keepdim)


@torch_op("std", signature=VAR_SIGNATURES, keepdims=True)
def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    _floating_std(a)
    return StdBackward0.apply(a, dim=_dim_arg(a, dim), correction=_correction(unbiased, correction), keepdim=keepdim)


@torch_op("norm", keepdims=True, python_method=True)
def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Tensor:
    if not isinstance(a, Tensor):  # PyTorch's Python norm reads input.layout first
        raise AttributeError(f"'{type(a).__name__}' object has no attribute 'layout'")
    if p not in ("fro", None) and not isinstance(p, (int, float, str)):
        raise must_be("linalg_vector_norm", "ord", 2, "Number", p)
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if p == "nuc":
        if a._data.ndim < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
        raise NotImplementedError("norm(p='nuc') is not supported by gradtrace's engine")
    if a._data.dtype.kind != "f":
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {dtype_name(a)}"
        )
    ord_ = 2.0 if p in ("fro", None) else float(p)
    return LinalgVectorNormBackward0.apply(a, ord=ord_, dim=_dim_arg(a, dim), keepdim=keepdim)


@torch_op("logsumexp", signature="Tensor input, int[1] dim, bool keepdim=False", keepdims=True)
def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return LogsumexpBackward0.apply(a, dim=_dims(dim, a._data.ndim), keepdim=keepdim)


@torch_op("all", signature=_LOGICAL, keepdims=True)
def all(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001  (PyTorch's own name for the op)
    axis = None if dim is None else _dim(int(dim), a._data.ndim)
    return made(np.asarray(np.all(a._data, axis=axis, keepdims=keepdim)))


@torch_op("any", signature=_LOGICAL, keepdims=True)
def any(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001  (PyTorch's own name for the op)
    axis = None if dim is None else _dim(int(dim), a._data.ndim)
    return made(np.asarray(np.any(a._data, axis=axis, keepdims=keepdim)))


@torch_op(
    "masked_fill",
    signature=("Tensor input, Tensor mask, Tensor value", "Tensor input, Tensor mask, Number value"),
    inplace="masked_fill_",
)
def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value._data.ndim} dimension(s)."
            )
        value = value.item()
    check_scalar(value)
    if mask._data.dtype != np.bool_:
        name = mask._data.dtype.name
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {dtypes.C_NAMES.get(name, name)}"
        )

    if broadcast_shape(mask._data.shape, a._data.shape) != a._data.shape:
        raise RuntimeError(
            f"The size of tensor a ({mask._data.shape[0]}) must match the size of tensor b "
            f"({a._data.shape[0]}) at non-singleton dimension 0"
        )
    return MaskedFillBackward0.apply(a, mask=np.broadcast_to(mask._data.astype(bool), a._data.shape), value=value)


@torch_op("repeat", function=False, signature="Tensor input, int[]* repeats")
def repeat(a: Tensor, *sizes: Any) -> Tensor:
    reps = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else tuple(sizes)
    if len(reps) < a._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    reps_numel = math.prod(int(r) for r in reps)  # exact: np.prod wraps around (2**32 * 2**32 == 0)
    check_alloc(max(reps_numel * a._data.size, reps_numel), a)  # numpy's work grows with the repeats even when empty
    return RepeatBackward0.apply(a, repeats=tuple(int(r) for r in reps))

"""Elementwise functions of one tensor (exp, log, sqrt, tanh, sigmoid, relu, abs, sin, cos, clamp) and their
derivatives.

Example::

    >>> x = torch.tensor(0., requires_grad=True)
    >>> torch.sigmoid(x).backward(); x.grad     # σ'(0) = σ(0)(1 - σ(0)) = 0.25
    tensor(0.2500)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import numerics
from engine.ops.base import Function, check_scalar
from engine.tensor import Tensor


def _float(a: np.ndarray) -> np.ndarray:
    return a if a.dtype.kind == "f" else a.astype(np.float32)


def _mkl(fn: Any, exact: Any, a: np.ndarray) -> np.ndarray:
    """float32 through ``engine.numerics``' model of PyTorch's kernel, other dtypes through ``_precise``."""
    a = _float(a)
    return exact(a) if a.dtype == np.float32 else _precise(fn, a)


def _precise(fn: Any, a: np.ndarray) -> np.ndarray:
    """fn(a) evaluated in double precision and rounded once: PyTorch's CPU math library is accurate to the last
    bit far more often than numpy's fast float32 versions."""
    a = _float(a)
    if a.dtype == np.float32:
        return fn(a.astype(np.float64)).astype(np.float32)
    return fn(a)


class ExpBackward0(Function):
    """e^a: its own derivative, so backward reuses the result."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _precise(np.exp, a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g * ctx._saved["result"],)


class LogBackward0(Function):
    """ln(a): d/da = 1/a."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return _precise(np.log, a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        with np.errstate(divide="ignore", invalid="ignore"):
            return (g / ctx._saved["self"],)


class SqrtBackward0(Function):
    """√a: d/da = 1 / (2√a)."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            r = _mkl(np.sqrt, numerics.sqrt, a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        with np.errstate(divide="ignore", invalid="ignore"):
            return (g / (2 * ctx._saved["result"]),)


class TanhBackward0(Function):
    """tanh(a): d/da = 1 - tanh²(a)."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _precise(np.tanh, a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (g * (1 - r * r),)


class SigmoidBackward0(Function):
    """σ(a) = 1/(1+e^-a): d/da = σ(a)(1 - σ(a))."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        a = _float(a)
        one = a.dtype.type(1)
        r = numerics.sigmoid(a) if a.dtype == np.float32 else (one / (one + _precise(np.exp, -a))).astype(a.dtype)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (g * (1 - r) * r,)


class ReluBackward0(Function):
    """max(a, 0): the gradient passes where the result is positive, is 0 elsewhere."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = np.maximum(a, np.zeros((), dtype=a.dtype))
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (np.where(ctx._saved["result"] > 0, g, np.zeros((), dtype=g.dtype)),)


class AbsBackward0(Function):
    """|a|: d/da = sign(a) (0 at 0)."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return np.abs(a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g * np.sign(ctx._saved["self"]),)


class SinBackward0(Function):
    """sin(a): d/da = cos(a)."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return _mkl(np.sin, numerics.sin, a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g * _mkl(np.cos, numerics.cos, ctx._saved["self"]),)


class CosBackward0(Function):
    """cos(a): d/da = -sin(a)."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return _mkl(np.cos, numerics.cos, a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g * -_mkl(np.sin, numerics.sin, ctx._saved["self"]),)


class ClampBackward1(Function):
    """clamp(a, min, max): the gradient passes where a lies inside [min, max], is 0 where it was clipped."""

    _saved_fields = ("self", "min", "max")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, min: Any = None, max: Any = None) -> np.ndarray:  # noqa: A002
        ctx._save(self=a, min=min, max=max)
        out = a
        if min is not None:
            out = np.maximum(out, np.asarray(min, dtype=a.dtype))
        if max is not None:
            out = np.minimum(out, np.asarray(max, dtype=a.dtype))
        return out if out is not a else a.copy()

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, lo, hi = ctx._saved["self"], ctx._saved["min"], ctx._saved["max"]
        mask = np.ones(a.shape, dtype=bool)
        if lo is not None:
            mask &= a >= lo
        if hi is not None:
            mask &= a <= hi
        return (np.where(mask, g, np.zeros((), dtype=g.dtype)),)


class LeakyReluBackward0(Function):
    """a if a > 0 else slope * a."""

    _saved_fields = ("self", "negative_slope")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, negative_slope: float = 0.01) -> np.ndarray:
        ctx._save(self=a, negative_slope=negative_slope)
        return np.where(a > 0, a, a * np.asarray(negative_slope, dtype=a.dtype))

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, s = ctx._saved["self"], ctx._saved["negative_slope"]
        return (np.where(a > 0, g, g * np.asarray(s, dtype=g.dtype)),)


def exp(a: Tensor) -> Tensor:
    return ExpBackward0.apply(a)


def log(a: Tensor) -> Tensor:
    return LogBackward0.apply(a)


def sqrt(a: Tensor) -> Tensor:
    return SqrtBackward0.apply(a)


def tanh(a: Tensor) -> Tensor:
    return TanhBackward0.apply(a)


def sigmoid(a: Tensor) -> Tensor:
    return SigmoidBackward0.apply(a)


def relu(a: Tensor) -> Tensor:
    return ReluBackward0.apply(a)


def abs(a: Tensor) -> Tensor:  # noqa: A001
    return AbsBackward0.apply(a)


def sin(a: Tensor) -> Tensor:
    return SinBackward0.apply(a)


def cos(a: Tensor) -> Tensor:
    return CosBackward0.apply(a)


def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    check_scalar(min, max)
    if a._data.dtype.kind != "f":  # an int/bool tensor takes the bounds' dtype category (i.clamp(0.5) is float)
        from engine.ops.base import binary_operands

        for bound in (min, max):
            if bound is not None:
                a = binary_operands(a, bound)[0]
    return ClampBackward1.apply(a, min=min, max=max)


def leaky_relu(a: Tensor, negative_slope: float = 0.01) -> Tensor:
    return LeakyReluBackward0.apply(a, negative_slope=negative_slope)

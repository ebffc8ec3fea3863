"""More elementwise functions, each with its derivative: ``log1p``, ``rsqrt``, ``tan``, ``softplus``, ``log2``,
``exp2`` (the rest live in ``unary.py``).

Example::

    >>> x = torch.tensor(0., requires_grad=True)
    >>> torch.log1p(x).backward(); x.grad     # d/dx ln(1 + x) = 1 / (1 + x)
    tensor(1.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops.base import Function
from engine.ops.unary import _float, _precise
from engine.tensor import Tensor


class Log1PBackward0(Function):
    """ln(1 + a), precise for small a: d/da = 1 / (1 + a)."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return _precise(np.log1p, a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (g / (ctx._saved["self"] + 1),)


class RsqrtBackward0(Function):
    """1/√a: d/da = -1 / (2 a√a) = -r³/2."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _precise(lambda v: 1.0 / np.sqrt(v), a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (-0.5 * g * r * r * r,)


class TanBackward0(Function):
    """tan(a): d/da = 1 + tan²(a)."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _precise(np.tan, a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (g * (1 + r * r),)


class SoftplusBackward0(Function):
    """ln(1 + e^(βa)) / β, and a itself past ``threshold``: d/da = σ(βa)."""

    _saved_fields = ("self", "beta", "threshold")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
        ctx._save(self=a, beta=beta, threshold=threshold)
        a = _float(a)
        z = a.astype(np.float64) * beta
        out = np.where(z > threshold, a.astype(np.float64), np.log1p(np.exp(z)) / beta)
        return out.astype(a.dtype)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        s = ctx._saved
        z = s["self"].astype(np.float64) * s["beta"]
        d = np.where(z > s["threshold"], 1.0, 1.0 / (1.0 + np.exp(-z)))
        return ((g * d).astype(g.dtype),)


class Log2Backward0(Function):
    """log₂(a): d/da = 1 / (a ln 2)."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return _precise(np.log2, a)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a = ctx._saved["self"]
        return (g / (a * a.dtype.type(np.log(2.0))),)


class Exp2Backward0(Function):
    """2^a: d/da = 2^a ln 2."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _precise(np.exp2, a)
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (g * r * r.dtype.type(np.log(2.0)),)


class EluBackward0(Function):
    """a if a > 0 else α(eᵃ - 1): d/da = 1 above 0, αeᵃ below."""

    _saved_fields = ("self", "alpha")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, alpha: float = 1.0) -> np.ndarray:
        ctx._save(self=a, alpha=alpha)
        a = _float(a)
        d = a.astype(np.float64)
        return np.where(d > 0, d, np.expm1(d) * alpha).astype(a.dtype)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, alpha = ctx._saved["self"].astype(np.float64), ctx._saved["alpha"]
        return (np.where(a > 0, g, g * (alpha * np.exp(a))).astype(g.dtype),)


class SiluBackward0(Function):
    """a · σ(a): d/da = σ(a) (1 + a (1 - σ(a)))."""

    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        a = _float(a)
        d = a.astype(np.float64)
        return (d / (1.0 + np.exp(-d))).astype(a.dtype)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a = ctx._saved["self"].astype(np.float64)
        s = 1.0 / (1.0 + np.exp(-a))
        return ((g * (s * (1.0 + a * (1.0 - s)))).astype(g.dtype),)


def elu(a: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return EluBackward0.apply(a, alpha=alpha)


def silu(a: Tensor, inplace: bool = False) -> Tensor:
    return SiluBackward0.apply(a)


def log1p(a: Tensor) -> Tensor:
    return Log1PBackward0.apply(a)


def rsqrt(a: Tensor) -> Tensor:
    return RsqrtBackward0.apply(a)


def tan(a: Tensor) -> Tensor:
    return TanBackward0.apply(a)


def softplus(a: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return SoftplusBackward0.apply(a, beta=beta, threshold=threshold)


def log2(a: Tensor) -> Tensor:
    return Log2Backward0.apply(a)


def exp2(a: Tensor) -> Tensor:
    return Exp2Backward0.apply(a)


__all__ = ["log1p", "rsqrt", "tan", "softplus", "log2", "exp2", "elu", "silu"]

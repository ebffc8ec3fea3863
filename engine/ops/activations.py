"""The activations with parameters (leaky_relu, hardtanh/relu6, logsigmoid, softplus, elu, GELU) and dropout, the
random zeroing used while training.

Example::

    >>> F.gelu(torch.tensor([1.]))
    tensor([0.8413])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import random
from engine.meta import MetaArray, is_meta
from engine.ops.argcheck import cannot_cast
from engine.ops.arith import mul
from engine.ops.elementwise import as_float
from engine.ops.function import Function, number
from engine.tensor import Tensor

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


class LeakyReluBackward0(Function):
    """a if a > 0 else slope * a."""

    _saved_fields = ("self", "negative_slope")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, negative_slope: float = 0.01) -> np.ndarray:
        ctx._save(self=a, negative_slope=negative_slope)
        return np.where(a > 0, a, a * np.asarray(negative_slope, dtype=a.dtype))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.where(s["self"] > 0, g, g * s["negative_slope"]),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} · (1 if {{0}} > 0 else {number(self._saved['negative_slope'])})",)


def leaky_relu(a: Tensor, negative_slope: float = 0.01) -> Tensor:
    return LeakyReluBackward0.apply(a, negative_slope=negative_slope)


class HardtanhBackward0(Function):
    """a clipped to [min_val, max_val] (``relu6`` is [0, 6]): the gradient passes strictly inside, is 0 outside."""

    _saved_fields = ("self", "min_val", "max_val")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, min_val: float = -1.0, max_val: float = 1.0) -> np.ndarray:
        ctx._save(self=a, min_val=min_val, max_val=max_val)
        return np.minimum(np.maximum(a, np.asarray(min_val, a.dtype)), np.asarray(max_val, a.dtype))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a = s["self"]
        return (k.where((a > s["min_val"]) & (a < s["max_val"]), g, 0),)

    def _templates(self) -> tuple[str | None, ...]:
        low, high = number(self._saved["min_val"]), number(self._saved["max_val"])
        return (f"{{grad}} · ({low} < {{0}} < {high})",)


def hardtanh(a: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return HardtanhBackward0.apply(a, min_val=min_val, max_val=max_val)


def relu6(a: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(a, 0.0, 6.0)


class LogSigmoidBackward0(Function):
    """ln σ(a) = min(a, 0) - ln(1 + e^(-|a|)) (stable both ways): d/da = 1 - σ(a) = 1 / (1 + e^a)."""

    _saved_fields = ("self",)
    templates = ("{grad} / (1 + e^{0})",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        ctx._save(self=a)
        return np.minimum(a, np.zeros((), a.dtype)) - np.log1p(np.exp(-np.abs(a)))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g / (k.exp(s["self"]) + 1),)


def logsigmoid(a: Tensor) -> Tensor:
    return LogSigmoidBackward0.apply(a)


class SoftplusBackward0(Function):
    """ln(1 + e^(βa)) / β, and a itself past ``threshold``: d/da = σ(βa)."""

    _saved_fields = ("self", "beta", "threshold")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
        ctx._save(self=a, beta=beta, threshold=threshold)
        a = as_float(a)
        z = a.astype(np.float64) * beta
        out = np.where(z > threshold, a.astype(np.float64), np.log1p(np.exp(z)) / beta)
        return out.astype(a.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        z = k.cast(s["self"], np.float64) * s["beta"]
        d = k.where(z > s["threshold"], 1.0, 1.0 / (1.0 + k.exp(-z)))
        return (k.like(g * d, g),)

    def _templates(self) -> tuple[str | None, ...]:
        beta = self._saved["beta"]
        return (f"{{grad}} · σ({'' if beta == 1 else number(beta) + '·'}{{0}})",)


def softplus(a: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return SoftplusBackward0.apply(a, beta=beta, threshold=threshold)


class EluBackward0(Function):
    """a if a > 0 else α(eᵃ - 1): d/da = 1 above 0, αeᵃ below."""

    _saved_fields = ("self", "alpha")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, alpha: float = 1.0) -> np.ndarray:
        ctx._save(self=a, alpha=alpha)
        a = as_float(a)
        d = a.astype(np.float64)
        return np.where(d > 0, d, np.expm1(d) * alpha).astype(a.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a = k.cast(s["self"], np.float64)
        return (k.like(k.where(a > 0, g, g * (s["alpha"] * k.exp(a))), g),)

    def _templates(self) -> tuple[str | None, ...]:
        alpha = self._saved["alpha"]
        return (f"{{grad}} · (1 if {{0}} > 0 else {'' if alpha == 1 else number(alpha) + '·'}e^{{0}})",)


def elu(a: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return EluBackward0.apply(a, alpha=alpha)


class GeluBackward0(Function):
    """GELU(x) = x·Φ(x) (Φ the standard normal CDF)."""

    _saved_fields = ("self", "approximate")

    @staticmethod
    def _forward(ctx: Any, x: np.ndarray, approximate: str = "none") -> np.ndarray:
        ctx._save(self=x, approximate=approximate)
        xd = x.astype(np.float64)
        if approximate == "tanh":
            return (0.5 * xd * (1 + np.tanh(_SQRT_2_OVER_PI * (xd + 0.044715 * xd**3)))).astype(x.dtype)
        cdf = 0.5 * (1 + np.vectorize(math.erf)(xd / math.sqrt(2))) if xd.size else xd
        return (xd * cdf).astype(x.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        x = s["self"]
        xd = k.cast(x, np.float64)
        if s["approximate"] == "tanh":
            th = k.tanh(_SQRT_2_OVER_PI * (xd + 0.044715 * xd**3))
            d = 0.5 * (1 + th) + 0.5 * xd * (1 - th**2) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * xd**2)
        else:
            cdf = 0.5 * (1 + k.erf(xd / math.sqrt(2)))
            pdf = k.exp(-0.5 * xd * xd) / math.sqrt(2 * math.pi)
            d = cdf + xd * pdf
        return (k.like(g * d, x),)

    def _templates(self) -> tuple[str | None, ...]:
        if self._saved["approximate"] == "tanh":
            return ("{grad} · d/d{0} ½{0}(1 + tanh(√(2/π)·({0} + 0.044715·{0}³)))",)
        return ("{grad} · (Φ({0}) + {0}·φ({0}))",)


def gelu(x: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return GeluBackward0.apply(x, approximate=approximate)


def dropout(x: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, feature: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p) (identity when not training), with
    PyTorch's CPU mask: ``noise.bernoulli_(1 - p)`` (one 53-bit uniform per element, kept when below 1 - p), then
    ``noise / (1 - p)`` and ``x * noise``. ``feature``: whole channels at once (``dropout1d``/``dropout2d``: one
    draw per (sample, channel), the noise of shape (N, C, 1, …))."""
    if p < 0.0 or p > 1.0:  # PyTorch's comparison (its TypeError for a str p names 'float')
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or x._data.size == 0:
        return x
    if x._data.dtype.kind != "f":  # the mask is float: PyTorch cannot write x * mask back into x's dtype
        raise cannot_cast("Float", x)
    dt = x._data.dtype
    if p == 1:
        return mul(x, Tensor._make(np.zeros((), dtype=dt)))
    shape = x._data.shape[:2] + (1,) * (x._data.ndim - 2) if feature else x._data.shape
    if is_meta(x._data):  # a meta mask: nothing drawn from the generator
        return mul(x, Tensor._make(MetaArray(shape, dt)))
    keep = random.generator()._unit(math.prod(shape), np.float64).reshape(shape) < 1 - p
    noise = keep.astype(dt) / np.asarray(1 - p, dtype=dt)
    return mul(x, Tensor._make(noise))


__all__ = ["GeluBackward0", "dropout", "elu", "gelu", "leaky_relu", "softplus"]

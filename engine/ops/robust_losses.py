"""Losses that are quadratic near 0 and linear far from it, so that outliers pull less: ``F.smooth_l1_loss``
(``SmoothL1LossBackward0``) and ``F.huber_loss`` (``HuberLossBackward0``).

With d = input − target: smooth L1 is ½d²/β where |d| < β and |d| − ½β elsewhere; Huber is ½d² where |d| < δ and
δ·(|d| − ½δ) elsewhere (Huber = δ · smooth L1 with β = δ). Elementwise values are computed in float32 in
PyTorch's order, and the mean uses PyTorch's summation order.

Example::

    >>> F.smooth_l1_loss(torch.tensor([0.5, 3.]), torch.zeros(2))
    tensor(1.3125)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ops import nnops, shape
from engine.ops.function import Function, number
from engine.ops.operands import binary_operands, broadcast_shape, check_alloc
from engine.run_state import state
from engine.tensor import Tensor

_ENUM = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction


class _Robust(Function):
    """The shared part: d = input − target, a loss of |d| per element, reduced; the gradient of d is
    clip-like: d/β (or d) near 0, ±1 (or ±δ) far from it, divided by n for the mean."""

    family = True
    broadcasts = True
    _saved_fields = ("self", "target", "reduction")
    _param = "beta"

    @staticmethod
    def _elementwise(z: np.ndarray, c: Any) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray, b: np.ndarray, reduction: str = "mean", c: float = 1.0) -> np.ndarray:
        ctx._save(self=a, target=b, reduction=_ENUM[reduction], **{cls._param: c})  # PyTorch shows the enum's int
        z = np.abs(a - b)
        return nnops._reduce(cls._elementwise(z, a.dtype.type(c)), reduction)

    def _slope(self, k: Any, d: Any, c: float, norm: Any, g: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b = s["self"], s["target"]
        c = ctx._saved[type(ctx)._param]
        norm = 1.0 / math.prod(np.broadcast_shapes(*ctx._in_shapes)) if ctx._saved["reduction"] == 1 else 1.0
        if isinstance(a, np.ndarray):
            norm = a.dtype.type(norm)  # PyTorch's kernel: norm · d · grad / β, in float32
        gi = ctx._slope(k, a - b, c, norm, g)
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        return (k.sum_to(gi, sa) if na else None, k.sum_to(-gi, sb) if nb else None)

    def _templates(self) -> tuple[str | None, ...]:
        c = number(float(self._saved[type(self)._param]))
        mean = f" / {math.prod(np.broadcast_shapes(*self._in_shapes))}" if self._saved["reduction"] == 1 else ""
        near = self._near(c)
        return (
            f"{{grad}} · ({near} where |{{0}} − {{1}}| < {c}, else ±{self._far(c)}){mean}",
            f"−{{grad}} · ({near} where |{{0}} − {{1}}| < {c}, else ±{self._far(c)}){mean}",
        )


class SmoothL1LossBackward0(_Robust):
    """½d²/β where |d| < β, |d| − ½β elsewhere: d/dinput = d/β near 0, sign(d) far from it."""

    family = False
    _saved_fields = ("self", "target", "reduction", "beta")

    @staticmethod
    def _elementwise(z: np.ndarray, c: Any) -> np.ndarray:
        half = z.dtype.type(0.5)
        return np.where(z < c, half * z * z / c, z - half * c)

    def _slope(self, k: Any, d: Any, c: float, norm: Any, g: Any) -> Any:
        return k.where(k.abs(d) < c, norm * d * g / c, k.sign(d) * (norm * g))

    @staticmethod
    def _near(c: str) -> str:
        return f"({{0}} − {{1}}) / {c}"

    @staticmethod
    def _far(c: str) -> str:
        return "1"


class HuberLossBackward0(_Robust):
    """½d² where |d| < δ, δ·(|d| − ½δ) elsewhere: d/dinput = d near 0, δ·sign(d) far from it."""

    family = False
    _saved_fields = ("self", "target", "reduction", "delta")
    _param = "delta"

    @staticmethod
    def _elementwise(z: np.ndarray, c: Any) -> np.ndarray:
        half = z.dtype.type(0.5)
        return np.where(z < c, half * z * z, c * (z - half * c))

    def _slope(self, k: Any, d: Any, c: float, norm: Any, g: Any) -> Any:
        return k.where(k.abs(d) < c, norm * d * g, k.sign(d) * (norm * g * c))

    @staticmethod
    def _near(c: str) -> str:
        return "({0} − {1})"

    @staticmethod
    def _far(c: str) -> str:
        return c


def _robust(cls: type[_Robust], name: str, input: Any, target: Any, reduction: str, c: float) -> Tensor:
    nnops._sized(target, input)
    nnops._check_reduction(reduction)
    if input._data.shape != target._data.shape:
        obs = state().observer
        if obs is not None:
            obs.warning(
                f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                "same size."
            )
    full = broadcast_shape(input._data.shape, target._data.shape)
    check_alloc(math.prod(full))
    a, b = binary_operands(input, target)
    # PyTorch's Python code broadcasts both first (torch.broadcast_tensors): an ExpandBackward0 for each one grown
    a, b = (t if t._data.shape == full else shape.expand(t, *full) for t in (a, b))
    return cls.apply(a, b, reduction=reduction, c=c)


def smooth_l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:  # PyTorch's Python code turns to the L1 loss
        nnops._sized(target, input)
        return nnops.l1_loss(input, target, reduction)
    return _robust(SmoothL1LossBackward0, "smooth_l1_loss", input, target, reduction, beta)


def huber_loss(
    input: Any,
    target: Any,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
) -> Tensor:
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        raise NotImplementedError("huber_loss's weight is not supported by gradtrace's engine")
    return _robust(HuberLossBackward0, "huber_loss", input, target, reduction, delta)


__all__ = ["HuberLossBackward0", "SmoothL1LossBackward0", "huber_loss", "smooth_l1_loss"]

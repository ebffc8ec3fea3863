"""``F.binary_cross_entropy_with_logits`` / ``nn.BCEWithLogitsLoss``: binary cross-entropy on raw scores, with an
optional ``weight`` per element and ``pos_weight`` per class (``BinaryCrossEntropyWithLogitsBackward0``).

PyTorch 2.13 computes it as ``(1 − t)·x − lw·log σ(x)`` with ``lw = (pos_weight − 1)·t + 1`` (1 without
pos_weight), times ``weight``, then the reduction: each step a float32 op of its own, ``log σ`` ATen's vectorised
kernel (SLEEF's exp and log1p: engine/numerics/sleef.py), so that the loss is PyTorch's bit for bit. The gradients
are PyTorch's formulas in its order: d/dx = ((pos_weight·t + 1 − t)·σ(x) − pos_weight·t)·grad·weight (/ n for
``'mean'``), d/dt = (log σ(−x) − log σ(x)·pos_weight)·grad·weight (−x without pos_weight).

Example::

    >>> x = torch.full([2], 1.5, requires_grad=True)
    >>> F.binary_cross_entropy_with_logits(x, torch.ones(2), pos_weight=torch.ones(2))
    tensor(0.2014, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.numerics import sleef
from engine.ops.argcheck import cannot_cast, dtype_name, floating, must_be
from engine.ops.function import Function
from engine.ops.operands import binary_operands, broadcast_shape
from engine.ops.summation import torch_mean, torch_sum
from engine.tensor import Tensor

_ENUM = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction, as the node's _saved_reduction shows it


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return sleef.log_sigmoid(x)
    with np.errstate(all="ignore"):
        return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return sleef.sigmoid(np.ascontiguousarray(x))
    with np.errstate(all="ignore"):
        return 1 / (1 + np.exp(-x))


def _shape(s: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, s)) + "]"


def _in_place(out: np.ndarray, other: np.ndarray, op: Any) -> np.ndarray:
    """``out.op_(other)``: computed in the promoted dtype, written back in out's dtype; other may not widen out."""
    shape = broadcast_shape(out.shape, other.shape)
    if shape != out.shape:
        raise RuntimeError(f"output with shape {_shape(out.shape)} doesn't match the broadcast shape {_shape(shape)}")
    return np.asarray(op(out, other)).astype(out.dtype)


class BinaryCrossEntropyWithLogitsBackward0(Function):
    """BCE on raw scores x: (1 − t)·x − lw·log σ(x), lw = (pos_weight − 1)·t + 1; d/dx = σ(x) − t without weights."""

    _saved_fields = ("self", "target", "weight", "pos_weight", "reduction")

    @staticmethod
    def _forward(
        ctx: Any, x: np.ndarray, t: np.ndarray, reduction: str = "mean", weight: Any = None, pos_weight: Any = None
    ) -> np.ndarray:
        with np.errstate(all="ignore"):
            ls = _log_sigmoid(x)
            if pos_weight is not None:
                broadcast_shape((pos_weight - 1).shape, t.shape)  # PyTorch's message when they don't broadcast
                lw = (pos_weight - pos_weight.dtype.type(1)) * t + 1
                ls = lw * ls
            loss = _in_place((1 - t) * x, ls, np.subtract)
            if weight is not None:
                broadcast_shape(loss.shape, weight.shape)
                loss = _in_place(loss, weight, np.multiply)
        ctx._save(self=x, target=t, weight=weight, pos_weight=pos_weight, reduction=_ENUM[reduction])
        ctx._weights = (weight, pos_weight, reduction)
        if reduction == "mean":
            return torch_mean(loss, None, False)
        return torch_sum(loss, None, False) if reduction == "sum" else loss

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        x, t = s["self"], s["target"]
        weight, pos_weight, reduction = ctx._weights
        n = math.prod(ctx._in_shapes[0])
        nx, nt = ctx._needs_input_grad
        tensors = isinstance(g, Tensor)
        w = None if weight is None else k.const(weight)
        pw = None if pos_weight is None else k.const(pos_weight)
        gx = gt = None
        if nx:
            sig = k.like(1 / (1 + k.exp(-x)), x) if tensors else _sigmoid(x)
            if pw is None:
                gx = sig - t
            else:
                tt = pw * t
                gx = (tt + 1 - t) * sig - tt
            gx = gx * g
            gx = gx if w is None else gx * w
            gx = k.like(gx / n if reduction == "mean" else gx, x)
        if nt:
            if pw is None:
                gt = -x
            elif tensors:
                gt = k.log(1 + k.exp(-x)) * pw - k.log(1 + k.exp(x))
            else:
                gt = _log_sigmoid(-x) - _log_sigmoid(x) * pos_weight
            gt = gt * g
            gt = gt if w is None else gt * w
            gt = k.like(gt / n if reduction == "mean" else gt, t)
        return gx, gt

    def _templates(self) -> tuple[str | None, ...]:
        mean = f" / {math.prod(self._in_shapes[0])}" if self._saved["reduction"] == 1 else ""
        if self._weights[1] is not None:
            return (
                f"{{grad}} · ((pos_weight·{{1}} + 1 − {{1}})·σ({{0}}) − pos_weight·{{1}}){mean}",
                f"{{grad}} · (ln σ(−{{0}}) − pos_weight·ln σ({{0}})){mean}",
            )
        return (f"{{grad}} · (σ({{0}}) − {{1}}){mean}", f"−{{grad}} · {{0}}{mean}")


def _weights(weight: Any, pos_weight: Any) -> tuple[Any, Any]:
    """The argument parser's checks, then autograd's: neither weight is differentiated."""
    for pos, (name, v) in enumerate((("weight", weight), ("pos_weight", pos_weight)), 3):
        if v is not None and not isinstance(v, Tensor):
            raise must_be("binary_cross_entropy_with_logits", name, pos, "Tensor", v)
    for name, v in (("weight", weight), ("pos_weight", pos_weight)):
        if v is not None and v._requires_grad:
            raise RuntimeError(
                f"The function 'binary_cross_entropy_with_logits' is not differentiable with respect to argument "
                f"'{name}'. This input cannot have requires_grad True."
            )
    return (None if weight is None else weight._data), (None if pos_weight is None else pos_weight._data)


def binary_cross_entropy_with_logits(
    x: Tensor, t: Tensor, weight: Any = None, reduction: str = "mean", pos_weight: Any = None
) -> Tensor:
    """Called after the caller's size and reduction checks (``nnops``)."""
    if x._data.shape != t._data.shape:
        raise ValueError(f"Target size ({t.shape}) must be the same as input size ({x.shape})")
    w, pw = _weights(weight, pos_weight)
    floating("log_sigmoid_cpu", x)
    if t._data.dtype.kind != "f":  # the loss is written into a tensor of the target's dtype
        raise cannot_cast(dtype_name(x), t)
    x, t = binary_operands(x, t)
    return BinaryCrossEntropyWithLogitsBackward0.apply(x, t, reduction=reduction, weight=w, pos_weight=pw)


__all__ = ["BinaryCrossEntropyWithLogitsBackward0", "binary_cross_entropy_with_logits"]

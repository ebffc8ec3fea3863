"""Cross-entropy beyond class indices: class-probability targets and ``label_smoothing``, built from the ops
PyTorch itself composes (``log_softmax``, ``*``, ``sum``, a division by a count), plus ``F.one_hot``.

Example::

    >>> logits = torch.tensor([[1., 2., 0.5]])
    >>> F.cross_entropy(logits, torch.tensor([[0.1, 0.8, 0.1]]))     # -Σ p · log_softmax(logits)
    tensor(0.7144)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops import arith, reduce
from engine.ops.function import Function, number
from engine.ops.operands import check_alloc, made
from engine.ops.stats import masked_fill
from engine.tensor import Tensor


class DivBackward1(Function):
    """a / s for a number s given as a C++ Scalar (PyTorch's internal formulas): d/da = 1/s."""

    _saved_fields = ("other",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, other: float = 1.0) -> np.ndarray:
        ctx._save(other=other)
        return a / a.dtype.type(other)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g / s["other"],)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} / {number(self._saved['other'])}",)


class MulBackward1(Function):
    """a * s for a number s given as a C++ Scalar: d/da = s."""

    _saved_fields = ("other",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, other: float = 1.0) -> np.ndarray:
        ctx._save(other=other)
        return a * a.dtype.type(other)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (g * s["other"],)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} · {number(self._saved['other'])}",)


def cross_entropy_probs(log_p: Tensor, target: Tensor, reduction: str, label_smoothing: float) -> Tensor:
    """``-Σ target · log_softmax(input)`` over the class dimension, then the reduction."""
    class_dim = 0 if log_p._data.ndim == 1 else 1
    n_classes = log_p._data.shape[class_dim]
    if label_smoothing > 0:
        target = arith.add(arith.mul(target, 1 - label_smoothing), label_smoothing / n_classes)
    prod = arith.mul(log_p, target)
    if reduction == "none":
        return arith.neg(reduce.sum(prod, dim=class_dim))
    total = arith.neg(reduce.sum(prod))
    if reduction == "sum":
        return total
    return DivBackward1.apply(total, other=log_p._data.size / n_classes)


def label_smoothed(
    log_p: Tensor, target: Tensor, nll: Tensor, reduction: str, ignore_index: int, label_smoothing: float
) -> Tensor:
    """``(1 - ε) · nll + ε / C · smooth`` where ``smooth = -Σ log_softmax`` (PyTorch's formula, class targets)."""
    class_dim = 0 if log_p._data.ndim == 1 else 1
    n_classes = log_p._data.shape[class_dim]
    ignore = target._data == ignore_index
    smooth = arith.neg(reduce.sum(log_p, dim=class_dim))
    if ignore.any():
        smooth = masked_fill(smooth, made(ignore), 0.0)
    if reduction == "mean":
        ret = arith.div(reduce.sum(smooth), made(np.asarray((~ignore).sum())))
    elif reduction == "sum":
        ret = reduce.sum(smooth)
    else:
        ret = smooth
    return arith.add(
        MulBackward1.apply(nll, other=1 - label_smoothing), MulBackward1.apply(ret, other=label_smoothing / n_classes)
    )


def one_hot(t: Tensor, num_classes: int = -1) -> Tensor:
    """``F.one_hot(labels, num_classes)``: an int64 tensor with a 1 at each label's position along a new last dim."""
    if t._data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = t._data
    if num_classes == -1:
        if data.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    check_alloc(data.size * num_classes)
    return made((data[..., None] == np.arange(num_classes)).astype(np.int64))


__all__ = ["cross_entropy_probs", "label_smoothed", "one_hot", "DivBackward1", "MulBackward1"]

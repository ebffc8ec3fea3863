"""NLL over maps: ``F.nll_loss``/``nn.NLLLoss`` on an input of K ≥ 2 dimensions after the classes, (N, C, d1, …, dk),
as in segmentation, where every position of every sample has its own target class (``NllLoss2DBackward0``).

PyTorch sends a 4-D input (N, C, H, W) to ``nll_loss2d`` as it is; a 3-D or ≥ 5-D one is viewed as (N, C, 1, -1)
first, its target as (N, 1, -1), and an unreduced loss is viewed back (so those graphs have ``ViewBackward0`` nodes
around the loss). The loss at each position is −input[n, target, position]·weight[target] (0 where the target is
``ignore_index``); the reduced loss adds them up in ``nll_loss2d``'s order (the 8-level cascade of
``nll_cascade``, positions in (N, H·W) order) and ``'mean'`` divides by the summed weights of the counted positions.

Example::

    >>> x = torch.zeros(1, 2, 1, 2, requires_grad=True)
    >>> F.nll_loss(x - 1, torch.tensor([[[0, 1]]]))
    tensor(1., grad_fn=<NllLoss2DBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ops import shape as shape_ops
from engine.ops.function import Function
from engine.tensor import _TYPE_NAMES, Tensor

_ENUM = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction, as the node's _saved_reduction shows it


def nll_cascade(losses: np.ndarray, weights: np.ndarray, valid: np.ndarray, weighted: bool) -> tuple[Any, Any]:
    """PyTorch's NLL reduction: a running sum cascaded through 8 levels (so that long batches stay accurate); the
    position index (ignored positions counted) decides when a level is carried into the next."""
    dt = losses.dtype.type
    levels = 8
    n = losses.shape[0]
    power = max(4, (1 if n <= 2 else (n - 1).bit_length()) // levels)
    mask = (1 << power) - 1
    loss_acc = [dt(0)] * levels
    w_acc = [dt(0)] * levels
    for b in range(n):
        if not valid[b]:
            continue
        loss_acc[0] = dt(loss_acc[0] + losses[b])
        w_acc[0] = dt(w_acc[0] + weights[b])
        for j in range(levels - 1):
            if b & (mask << (j * power)):
                break
            loss_acc[j + 1] = dt(loss_acc[j + 1] + loss_acc[j])
            w_acc[j + 1] = dt(w_acc[j + 1] + w_acc[j])
            loss_acc[j] = w_acc[j] = dt(0)
    total = dt(0)
    for v in loss_acc:
        total = dt(total + v)
    if weighted:
        total_w = dt(0)
        for v in w_acc:
            total_w = dt(total_w + v)
    else:
        total_w = dt(int(valid.sum()))
    return total, total_w


class NllLoss2DBackward0(Function):
    """−input[n, target[n, h, w], h, w]·weight[target]: the gradient is −weight[target] (over the summed weights
    for ``'mean'``) at each target's log-probability, 0 elsewhere and at ignored positions."""

    _saved_fields = ("self", "target", "weight", "reduction", "ignore_index", "total_weight")

    @staticmethod
    def _forward(
        ctx: Any,
        a: np.ndarray,
        target: Any = None,
        reduction: str = "mean",
        ignore_index: int = -100,
        weight: Any = None,
    ) -> np.ndarray:
        n, c, h, w = a.shape
        t = target.reshape(n, h * w)
        valid = t != ignore_index
        safe = np.where(valid, t, 0)
        picked = np.take_along_axis(a.reshape(n, c, h * w), safe[:, None, :], axis=1)[:, 0, :]
        wt = np.ones(c, a.dtype) if weight is None else weight.reshape(-1)
        wt = np.where(valid, wt[safe], 0).astype(a.dtype)
        losses = np.where(valid, -picked * wt, 0).astype(a.dtype)  # ignored positions: +0
        if reduction == "none":
            out, total_w = losses.reshape(n, h, w), np.zeros((), a.dtype)
        elif t.size == 0:  # nothing to add up: mean of nothing is nan
            out = np.full((), np.nan if reduction == "mean" else 0, a.dtype)
            total_w = np.zeros((), a.dtype)
        else:
            total, total_w = nll_cascade(losses.reshape(-1), wt.reshape(-1), valid.reshape(-1), weight is not None)
            out = np.asarray(total / total_w if reduction == "mean" else total, a.dtype)
        ctx._save(
            self=a,
            target=target,
            weight=weight,
            reduction=_ENUM[reduction],
            ignore_index=ignore_index if ignore_index >= 0 else 2**64 + ignore_index,  # PyTorch's, unsigned
            total_weight=np.asarray(total_w, a.dtype),
        )
        ctx._picked = (valid, safe, wt, reduction, np.asarray(total_w, a.dtype))
        return out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        valid, safe, wt, reduction, total_w = ctx._picked
        shape = ctx._in_shapes[0]
        n, c, h, w = shape
        rows, cols = np.nonzero(valid)
        wv = k.const(wt[rows, cols])
        if reduction == "none":  # −weight · grad at each position
            value = -wv * k.take(k.reshape(g, (-1,)), (rows * (h * w) + cols,))
        else:  # weight · (−grad / total weight): PyTorch divides first
            scaled = -(g / k.const(total_w)) if reduction == "mean" else -g
            value = wv * k.reshape(scaled, ())
        grid = k.embed((n, c, h * w), (rows, safe[rows, cols], cols), value)
        return (k.reshape(grid, shape),)

    def _templates(self) -> tuple[str | None, ...]:
        if self._saved["reduction"] == 1:
            total = float(self._picked[4])
            return (f"−{{grad}} · weight / {total:g} at each position's target log-probability, 0 elsewhere",)
        return ("−{grad} · weight at each position's target log-probability, 0 elsewhere",)


def _sizes(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def nll_loss_nd(a: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int, reduction: str) -> Tensor:
    """``nll_loss_nd`` for inputs of 3 or more dimensions (the caller checked the batch sizes), with PyTorch's
    checks in PyTorch's order."""
    x, t = a._data, target._data
    n, c = x.shape[:2]
    if x.ndim != 4:
        if tuple(t.shape[1:]) != tuple(x.shape[2:]):
            raise RuntimeError(f"Expected target size {_sizes((n, *x.shape[2:]))}, got {_sizes(t.shape)}")
    elif t.ndim != 3:
        raise RuntimeError(
            f"only batches of spatial targets supported (3D tensors) but got targets of dimension: {t.ndim}"
        )
    if t.dtype.name not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_TYPE_NAMES[t.dtype.name]}")
    if weight is not None and weight._data.size != c:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if x.ndim == 4 and (t.shape[0], *t.shape[1:]) != (x.shape[0], *x.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {_sizes(x.shape)} , target: {_sizes(t.shape)}")
    if weight is not None and weight._data.dtype != x.dtype:
        raise RuntimeError(
            f"expected scalar type {_TYPE_NAMES[x.dtype.name]} but found {_TYPE_NAMES[weight._data.dtype.name]}"
        )
    if t.dtype != np.int64:
        raise RuntimeError("expected scalar type Long but found Byte")
    bad = t[(t != ignore_index) & ((t < 0) | (t >= c))]
    if bad.size:
        raise IndexError(f"Target {int(bad.reshape(-1)[0])} is out of bounds.")
    if weight is not None and weight._requires_grad:
        raise RuntimeError(
            "The function 'nll_loss2d_forward' is not differentiable with respect to argument 'weight'. This input "
            "cannot have requires_grad True."
        )
    flat = x.ndim != 4
    if flat:  # (N, C, 1, -1); PyTorch makes the input contiguous first when it has elements
        src = shape_ops.contiguous(a) if x.size else a
        a = shape_ops.view(src, n, c, 1, math.prod(x.shape[2:]))
        t = t.reshape(n, 1, -1)
    out = NllLoss2DBackward0.apply(
        a,
        target=np.ascontiguousarray(t),
        reduction=reduction,
        ignore_index=ignore_index,
        weight=None if weight is None else weight._data,
    )
    if flat and reduction == "none":
        out = shape_ops.view(out, n, *x.shape[2:])
    return out


__all__ = ["NllLoss2DBackward0", "nll_cascade", "nll_loss_nd"]

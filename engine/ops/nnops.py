"""Neural-network ops: the losses (MSE, NLL, cross-entropy, BCE, L1); softmax and log_softmax are in ``softmax.py``.

Example::

    >>> pred = torch.tensor([1., 2.], requires_grad=True)
    >>> F.mse_loss(pred, torch.tensor([0., 0.]))
    tensor(2.5000, grad_fn=<MseLossBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.meta import check_devices, is_meta
from engine.ops import arith, bce_logits, reduce, soft_targets
from engine.ops.argcheck import class_loss_args, floating, must_be
from engine.ops.elementwise import abs, precise  # noqa: A004 - torch.abs, the op (with its backward)
from engine.ops.function import Function, number
from engine.ops.operands import binary_operands, broadcast_shape, check_alloc
from engine.ops.softmax import LogSoftmaxBackward0, SoftmaxBackward0, log_softmax, softmax  # noqa: F401 - F.softmax
from engine.ops.spatial_nll import nll_cascade, nll_loss_nd
from engine.ops.summation import torch_mean, torch_sum
from engine.run_state import state
from engine.tensor import _TYPE_NAMES, Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _reduce(x: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return torch_mean(x, None, False)
    if reduction == "sum":
        return torch_sum(x, None, False)
    return x


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


class MseLossBackward0(Function):
    """mean((input - target)²): d/dinput = 2 (input - target) / n."""

    broadcasts = True
    _saved_fields = ("self", "target", "reduction")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, reduction: str = "mean") -> np.ndarray:
        ctx._save(self=a, target=b, reduction=reduction)
        d = a - b
        return _reduce(d * d, reduction)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        sa, sb = ctx._in_shapes
        gi = ctx._norm() * (s["self"] - s["target"]) * g
        na, nb = ctx._needs_input_grad
        return (k.sum_to(gi, sa) if na else None, k.sum_to(-gi, sb) if nb else None)

    def _norm(self) -> float:
        return 2.0 / math.prod(np.broadcast_shapes(*self._in_shapes)) if self._saved["reduction"] == "mean" else 2.0

    def _templates(self) -> tuple[str | None, ...]:
        norm = number(self._norm())
        return (f"{{grad}} · {norm}·({{0}} − {{1}})", f"−{{grad}} · {norm}·({{0}} − {{1}})")


class NllLossBackward0(Function):
    """-mean(input[i, target[i]]): the gradient is -1/n at each picked log-probability."""

    _saved_fields = ("self", "target", "reduction", "ignore_index")

    @staticmethod
    def _forward(
        ctx: Any,
        a: np.ndarray,
        target: Any = None,
        reduction: str = "mean",
        ignore_index: int = -100,
        weight: Any = None,
    ) -> np.ndarray:
        x2 = a if a.ndim == 2 else a.reshape(1, -1)
        t = target.reshape(-1)
        valid = t != ignore_index
        safe = np.where(valid, t, 0)
        w = np.ones(x2.shape[1], dtype=a.dtype) if weight is None else weight.astype(a.dtype)
        wt = np.where(valid, w[safe], 0).astype(a.dtype)
        picked = -x2[np.arange(x2.shape[0]), safe] * wt
        ctx._save(self=a, target=target, reduction=reduction, ignore_index=ignore_index)
        ctx._wt = wt
        if reduction == "none":
            return picked if a.ndim == 2 else picked.reshape(())
        total, total_w = nll_cascade(picked, wt, valid, weight is not None)
        if reduction == "sum":
            return np.asarray(total)
        return np.asarray(total / total_w, dtype=a.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        saved, wt = ctx._saved, ctx._wt  # the targets and weights as arrays: they pick, they are not differentiated
        shape = ctx._in_shapes[0]
        rows = shape if len(shape) == 2 else (1, shape[0])
        target = saved["target"].reshape(-1)
        t = np.where(target != saved["ignore_index"], target, 0)
        scale = -k.const(wt) * (k.reshape(g, (-1,)) if saved["reduction"] == "none" else g)
        if saved["reduction"] == "mean":
            scale = scale / k.const(np.asarray(wt.sum(dtype=wt.dtype)))
        return (k.reshape(k.embed(rows, (np.arange(rows[0]), t), scale), shape),)

    def _templates(self) -> tuple[str | None, ...]:
        red = self._saved["reduction"]
        if red == "mean":
            return (f"−{{grad}} / {number(float(self._wt.sum()))} at each target's log-probability, 0 elsewhere",)
        return ("−{grad} at each target's log-probability, 0 elsewhere",)


class BinaryCrossEntropyBackward0(Function):
    """-(t log p + (1-t) log(1-p)): d/dp = (p - t) / (p (1 - p))."""

    _saved_fields = ("self", "target", "reduction")

    @staticmethod
    def _forward(ctx: Any, p: np.ndarray, t: np.ndarray, reduction: str = "mean") -> np.ndarray:
        if ((p < 0) | (p > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        ctx._save(self=p, target=t, reduction=reduction)
        floor = p.dtype.type(-100)  # log(0) is clamped so that a confident mistake costs 100, not infinity
        lp = np.maximum(precise(np.log, p), floor)
        l1p = np.maximum(precise(np.log1p, -p), floor)
        return _reduce(((t - p.dtype.type(1)) * l1p - t * lp).astype(p.dtype), reduction)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        p, t = s["self"], s["target"]
        na, nt = ctx._needs_input_grad
        gi = g * (p - t) / k.maximum((1 - p) * p, 1e-12) if na else None
        # d/dt = log(1 - p) - log(p), both logs clamped at -100 as in the forward
        gt = g * (k.maximum(k.log(1 - p), -100) - k.maximum(k.log(p), -100)) if nt else None
        if s["reduction"] == "mean":
            n = math.prod(ctx._in_shapes[0])
            gi, gt = (None if gi is None else gi / n), (None if gt is None else gt / n)
        return (None if gi is None else k.like(gi, p)), gt

    def _templates(self) -> tuple[str | None, ...]:
        mean = f" / {math.prod(self._in_shapes[0])}" if self._saved["reduction"] == "mean" else ""
        return (
            f"{{grad}} · ({{0}} − {{1}}) / ({{0}}·(1 − {{0}})){mean}",
            f"{{grad}} · (ln(1 − {{0}}) − ln {{0}}){mean}",
        )


def _sized(*values: Any) -> None:
    """PyTorch's losses start by comparing ``target.size()`` with ``input.size()``: a non-tensor fails right there."""
    for v in values:
        if not isinstance(v, Tensor):
            raise AttributeError(f"'{type(v).__name__}' object has no attribute 'size'")


def _tensor_args(op: str, input: Any, target: Any) -> None:
    """The ATen loss ``op`` refuses a non-tensor input or target in its argument parser's words."""
    for pos, (name, v) in enumerate((("input", input), ("target", target)), 1):
        if not isinstance(v, Tensor):
            raise must_be(op, name, pos, "Tensor", v)


def binary_cross_entropy_with_logits(
    x: Tensor, t: Tensor, weight: Any = None, reduction: str = "mean", pos_weight: Any = None
) -> Tensor:
    _sized(t, x)
    _check_reduction(reduction)
    return bce_logits.binary_cross_entropy_with_logits(x, t, weight, reduction, pos_weight)


def mse_loss(a: Tensor, b: Tensor, reduction: str = "mean") -> Tensor:
    _sized(b, a)
    _check_reduction(reduction)
    if a._data.dtype.kind != "f" and b._data.dtype.kind != "f":  # the promoted dtype has no mse kernel
        floating("mse_cpu", a if a._data.dtype.itemsize >= b._data.dtype.itemsize else b)
    if a._data.shape != b._data.shape:
        obs = state().observer
        if obs is not None:
            obs.warning(
                f"Using a target size ({b.shape}) that is different to the input size ({a.shape}). This will likely "
                "lead to incorrect results due to broadcasting. Please ensure they have the same size."
            )
    check_alloc(math.prod(broadcast_shape(a._data.shape, b._data.shape)))  # before the difference is made
    a, b = binary_operands(a, b)
    return MseLossBackward0.apply(a, b, reduction=reduction)


def l1_loss(a: Tensor, b: Tensor, reduction: str = "mean") -> Tensor:
    _sized(b, a)
    _check_reduction(reduction)
    d = abs(arith.sub(a, b))
    return reduce.mean(d) if reduction == "mean" else reduce.sum(d) if reduction == "sum" else d


def nll_loss(
    a: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean"
) -> Tensor:
    _tensor_args("nll_loss_nd", a, target)
    _check_reduction(reduction)
    class_loss_args("nll_loss_nd", weight, ignore_index)
    if a._data.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if a._data.ndim >= 3:  # (N, C, d1, ..., dk): a target class at every position
        if target._data.ndim == 0 or target._data.shape[0] != a._data.shape[0]:
            got = target._data.shape[0] if target._data.ndim else 0
            raise ValueError(f"Expected input batch_size ({a._data.shape[0]}) to match target batch_size ({got}).")
        return nll_loss_nd(a, target, weight, ignore_index, reduction)
    if target._data.dtype.name not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_TYPE_NAMES[target._data.dtype.name]}")
    n_cls = a._data.shape[-1] if a._data.ndim else 0
    check_devices([(target._data, False), (a._data, False)])
    t = target._data if not is_meta(target._data) else np.zeros(0, np.int64)  # (a meta target has no values to check)
    bad = t[(t != ignore_index) & ((t < 0) | (t >= n_cls))]
    if bad.size:
        raise IndexError(f"Target {int(bad.reshape(-1)[0])} is out of bounds.")
    if target._data.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if a._data.ndim == 2 and target._data.shape[0] != a._data.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({a._data.shape[0]}) to match target batch_size ({target._data.shape[0]})."
        )
    return NllLossBackward0.apply(
        a,
        target=target._data,
        reduction=reduction,
        ignore_index=ignore_index,
        weight=None if weight is None else weight._data,
    )


def cross_entropy(
    a: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    _tensor_args("cross_entropy_loss", a, target)
    _check_reduction(reduction)
    class_loss_args("cross_entropy_loss", weight, ignore_index, label_smoothing)
    log_p = lambda: log_softmax(a, 1 if a._data.ndim >= 2 else 0)
    if target._data.dtype.name not in ("int64", "uint8"):
        if target._data.shape == a._data.shape and target._data.dtype.kind == "f":
            if weight is not None:
                raise NotImplementedError("cross_entropy with probabilities and weight is not supported here")
            return soft_targets.cross_entropy_probs(log_p(), target, reduction, label_smoothing)
        name = _TYPE_NAMES[target._data.dtype.name]
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {name}")
    if label_smoothing > 0:
        if weight is not None:
            raise NotImplementedError("cross_entropy with label_smoothing and weight is not supported here")
        lp = log_p()
        nll = nll_loss(lp, target, weight, ignore_index, reduction)
        return soft_targets.label_smoothed(lp, target, nll, reduction, ignore_index, label_smoothing)
    return nll_loss(log_p(), target, weight, ignore_index, reduction)


def binary_cross_entropy(p: Tensor, t: Tensor, reduction: str = "mean") -> Tensor:
    _sized(t, p)
    _check_reduction(reduction)
    if p._data.shape != t._data.shape:
        raise ValueError(
            f"Using a target size ({t.shape}) that is different to the input size ({p.shape}) is deprecated. "
            "Please ensure they have the same size."
        )
    if t._data.dtype != p._data.dtype:
        raise RuntimeError(
            f"Found dtype {_TYPE_NAMES[t._data.dtype.name]} but expected {_TYPE_NAMES[p._data.dtype.name]}"
        )
    p, t = binary_operands(p, t)
    return BinaryCrossEntropyBackward0.apply(p, t, reduction=reduction)

"""softmax and log_softmax along a dim, with the sums in the order of PyTorch's vectorised kernels.

Example::

    >>> torch.softmax(torch.tensor([0., 0.]), dim=0)
    tensor([0.5000, 0.5000])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import numerics
from engine.numerics import softmax_dim
from engine.ops.api import torch_op
from engine.ops.argcheck import floating
from engine.ops.elementwise import precise
from engine.ops.function import Function
from engine.run_state import state
from engine.tensor import Tensor, _dim


def _row_sums(e: np.ndarray) -> np.ndarray:
    """Sums over the last axis in the order of PyTorch's vectorised softmax kernel (16 float lanes: whole vectors
    added lane by lane, the tail into the first lanes, then the lanes halved pairwise; short rows one by one)."""
    lanes = 16 if e.dtype == np.float32 else 8
    n = e.shape[-1]
    if n < lanes:
        acc = e[..., 0]
        for i in range(1, n):
            acc = acc + e[..., i]
        return acc[..., None]
    full = (n // lanes) * lanes
    acc = e[..., :lanes]
    for i in range(lanes, full, lanes):
        acc = acc + e[..., i : i + lanes]
    if full < n:
        acc = acc.copy()
        acc[..., : n - full] += e[..., full:]
    w = lanes
    while w > 1:
        w //= 2
        acc = acc[..., :w] + acc[..., w : 2 * w]
    return acc


def _exp_shifted(a: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x - max, exp(x - max), sum of those exps) along ``dim``."""
    shifted = a - a.max(axis=dim, keepdims=True)
    exact = a.dtype == np.float32 and a.size <= numerics.EXACT_MAX_ELEMENTS  # SLEEF's exp costs; see there
    e = numerics.expf(shifted) if exact else precise(np.exp, shifted)
    if a.dtype.kind == "f" and (dim == a.ndim - 1) and a.size:
        s = _row_sums(e)
    else:
        s = e.sum(axis=dim, keepdims=True)
    return shifted, e, s


class SoftmaxBackward0(Function):
    """softmax along dim: d/dx = y ⊙ (g - Σ g⊙y)."""

    _saved_fields = ("dim", "result")
    templates = ("{out} · ({grad} − Σ({grad} · {out}))",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = -1) -> np.ndarray:
        if softmax_dim.inner_f32(a, dim):  # not the last dim: PyTorch's kernel for that
            r = softmax_dim.softmax_dim(a, dim)
            ctx._save(dim=dim, result=r)
            return r
        _, e, s = _exp_shifted(a, dim)
        r = e * (a.dtype.type(1) / s)  # PyTorch multiplies by the reciprocal of the sum
        ctx._save(dim=dim, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        r, d = s["result"], s["dim"]
        if numerics.lastdim_f32(r, d, g):
            return (numerics.softmax_backward_lastdim(g, r),)
        if softmax_dim.inner_f32(r, d, g):
            return (softmax_dim.softmax_backward_dim(g, r, d),)
        return (r * (g - k.sum(g * r, d, True)),)


class LogSoftmaxBackward0(Function):
    """log(softmax) along dim: d/dx = g - softmax ⊙ Σ g."""

    _saved_fields = ("dim", "result")

    templates = ("{grad} − e^{out} · Σ{grad}",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, dim: int = -1) -> np.ndarray:
        if softmax_dim.inner_f32(a, dim):  # not the last dim: PyTorch's kernel for that
            r = softmax_dim.log_softmax_dim(a, dim)
            ctx._save(dim=dim, result=r)
            return r
        shifted, _, s = _exp_shifted(a, dim)
        r = shifted - (numerics.logf(s) if numerics.lastdim_f32(a, dim) else precise(np.log, s))
        ctx._save(dim=dim, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        r, d = s["result"], s["dim"]
        if numerics.lastdim_f32(r, d, g):
            return (numerics.log_softmax_backward_lastdim(g, r),)
        if softmax_dim.inner_f32(r, d, g):
            return (softmax_dim.log_softmax_backward_dim(g, r, d),)
        return (g - k.exp(r) * k.sum(g, d, True),)


def _softmax_dim(a: Tensor, dim: int | None, name: str) -> int:
    if dim is None:
        obs = state().observer
        if obs is not None:
            obs.warning(
                f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an "
                "argument."
            )
        dim = 0 if a._data.ndim in (0, 1, 3) else 1  # PyTorch's legacy choice
    d = _dim(dim, a._data.ndim)  # floating dtypes only; the kernel for the last dim has its own name
    floating(f"{name}_lastdim_kernel_impl" if d == max(a._data.ndim, 1) - 1 else f"{name}_kernel_impl", a)
    return d


@torch_op("softmax", signature="Tensor input, int dim, dtype? dtype=None", keepdims=True)
def softmax(a: Tensor, dim: int | None = None) -> Tensor:
    return SoftmaxBackward0.apply(a, dim=_softmax_dim(a, dim, "softmax"))


@torch_op("log_softmax", signature="Tensor input, int dim, dtype? dtype=None", keepdims=True)
def log_softmax(a: Tensor, dim: int | None = None) -> Tensor:
    return LogSoftmaxBackward0.apply(a, dim=_softmax_dim(a, dim, "log_softmax"))

"""softmax / log_softmax over a dimension other than the last, and their backward, as ATen's CPU kernels compute
them for float32 (SoftMaxKernel.cpp's ``_vec_softmax``, ``_vec_softmax_backward``, ``_vec_log_softmax_backward``
and LogSoftmaxKernelImpl.h's ``serial_vec_logsoftmax_range``), on one thread.

The tensor is seen as (outer, dim, inner): every inner position has its own softmax over ``dim``. The kernels walk
the inner positions in vectors of ``cpu.vec_lanes()`` floats (log_softmax and the backward ones in chunks of at
most 128 KiB / dim / 4 positions, each chunk with its own vector part); the positions past the last whole vector go
through the scalar code, whose ``std::exp`` is the C library's (engine/numerics/libm.py) where the vectors use
SLEEF's. The sums over ``dim`` run in order; the compiler fuses ``sum += g·y`` and ``g − exp(y)·sum`` into FMAs.
softmax divides by the sum (the last-dim kernel multiplies by its reciprocal); log_softmax is
(x − max) − log(sum), the log SLEEF's on every position.

Example::

    >>> log_softmax_dim(np.zeros((2, 2), np.float32), 0).tolist()
    [[-0.6931471824645996, -0.6931471824645996], [-0.6931471824645996, -0.6931471824645996]]
"""

from __future__ import annotations

import numpy as np

from engine.numerics import libm
from engine.numerics.cpu import vec_lanes
from engine.numerics.fma import F32, fma32
from engine.numerics.sleef import expf, logf
from engine.numerics.softmax import EXACT_MAX_ELEMENTS


def inner_f32(a: np.ndarray, dim: int, g: object = None) -> bool:
    """Whether these kernels apply: a float32 array (and float32 array gradient, if given) over a dimension that is
    not the last, of at most EXACT_MAX_ELEMENTS elements."""
    return (
        a.dtype == F32
        and 0 < a.size <= EXACT_MAX_ELEMENTS
        and a.ndim > 1
        and dim % a.ndim != a.ndim - 1
        and (g is None or (isinstance(g, np.ndarray) and g.dtype == F32))
    )


def _three(a: np.ndarray, dim: int) -> np.ndarray:
    d = dim % a.ndim
    return np.ascontiguousarray(a).reshape(int(np.prod(a.shape[:d])), a.shape[d], -1)


def _chunks(inner: int, dim_size: int) -> list[tuple[int, int]]:
    lanes = vec_lanes()
    most = max(128 * 1024 // dim_size // 4, lanes) // lanes * lanes
    size = min(most, inner)
    return [(lo, min(lo + size, inner)) for lo in range(0, inner, size)]


def _exp(x: np.ndarray, cut: int) -> np.ndarray:
    """e^x on the last axis: SLEEF's for the first ``cut`` positions, the C library's for the rest."""
    out = np.empty_like(x)
    out[..., :cut] = expf(x[..., :cut])
    out[..., cut:] = libm.expf(x[..., cut:])
    return out


def _cut(size: int) -> int:
    return size - size % vec_lanes()


def _sum_over_dim(v: np.ndarray) -> np.ndarray:
    total = v[:, 0]
    for j in range(1, v.shape[1]):
        total = total + v[:, j]
    return total


def softmax_dim(a: np.ndarray, dim: int) -> np.ndarray:
    x = _three(a, dim)
    shifted = (x - x.max(axis=1, keepdims=True)).astype(F32)
    e = _exp(shifted, _cut(x.shape[2]))
    return (e / _sum_over_dim(e)[:, None, :]).astype(F32).reshape(a.shape)


def log_softmax_dim(a: np.ndarray, dim: int) -> np.ndarray:
    x = _three(a, dim)
    out = np.empty_like(x)
    for lo, hi in _chunks(x.shape[2], x.shape[1]):
        part = x[:, :, lo:hi]
        shifted = (part - part.max(axis=1, keepdims=True)).astype(F32)
        total = _sum_over_dim(_exp(shifted, _cut(hi - lo)))
        out[:, :, lo:hi] = shifted - logf(total)[:, None, :]
    return out.reshape(a.shape)


def softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """y · (g − Σ g·y), the sum fused."""
    g3, y3 = _three(g, dim), _three(y, dim)
    out = np.empty_like(g3)
    for lo, hi in _chunks(g3.shape[2], g3.shape[1]):
        gp, yp = g3[:, :, lo:hi], y3[:, :, lo:hi]
        total = np.zeros((gp.shape[0], hi - lo), F32)
        for j in range(gp.shape[1]):
            total = fma32(gp[:, j], yp[:, j], total)
        out[:, :, lo:hi] = yp * (gp - total[:, None, :])
    return out.reshape(g.shape)


def log_softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """g − exp(y) · Σ g, one FMA."""
    g3, y3 = _three(g, dim), _three(y, dim)
    out = np.empty_like(g3)
    for lo, hi in _chunks(g3.shape[2], g3.shape[1]):
        gp, yp = g3[:, :, lo:hi], y3[:, :, lo:hi]
        total = np.broadcast_to(_sum_over_dim(gp)[:, None, :], gp.shape)
        out[:, :, lo:hi] = fma32(-_exp(yp, _cut(hi - lo)), total, gp)
    return out.reshape(g.shape)


__all__ = ["inner_f32", "softmax_dim", "log_softmax_dim", "softmax_backward_dim", "log_softmax_backward_dim"]

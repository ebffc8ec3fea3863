"""softmax / log_softmax over the last dimension and their backward, as ATen's vectorised CPU kernels compute them
for float32 (SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h): SLEEF's exp and log, row sums in ``vec::reduce_all``'s
order, and the FMA that GCC contracts ``grad - exp(out) * sum`` into.

``vec::reduce_all`` over a row of n floats with vectors of ``cpu.vec_lanes()`` lanes (16 on AVX512, 8 on AVX2;
measured bit for bit on both): whole vectors are added lane by lane, the last
partial vector's lanes into the first lanes, then the lanes are folded by halves (lane i + lane i+8 on AVX512, then +4,
+2, +1); a row shorter than a vector is added one element after another.

Example::

    >>> softmax_lastdim(np.zeros((1, 4), np.float32))
    array([[0.25, 0.25, 0.25, 0.25]], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics.cpu import vec_lanes
from engine.numerics.fma import F32, fma32
from engine.numerics.sleef import expf, logf

# Emulating SLEEF's exp costs ~0.2 µs an element (numpy's own exp ~0.01 µs): past this size the engine keeps its
# plain kernels (torch's to a relative 2e-6), so that a program of big tensors meets its memory limit before its time
# limit. Courses print softmaxes of a batch (64 x 10), not of a million elements.
EXACT_MAX_ELEMENTS = 1 << 18


def lastdim_f32(a: np.ndarray, dim: int, g: object = None) -> bool:
    """Whether these kernels apply: float32 arrays (and a float32 array gradient, if given) over the last dim, of
    at most EXACT_MAX_ELEMENTS elements."""
    return (
        a.dtype == F32
        and 0 < a.size <= EXACT_MAX_ELEMENTS
        and dim % a.ndim == a.ndim - 1
        and (g is None or (isinstance(g, np.ndarray) and g.dtype == F32))
    )


def row_sums(e: np.ndarray, lanes: int | None = None) -> np.ndarray:
    """Sums over the last axis in ``vec::reduce_all``'s order (keeps the axis, size 1); ``lanes``: this CPU's."""
    lanes = vec_lanes() if lanes is None else lanes
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


def softmax_lastdim(x: np.ndarray) -> np.ndarray:
    """exp(x - max) times the reciprocal of its row sum."""
    e = expf(x - x.max(axis=-1, keepdims=True))
    return (e * (F32(1) / row_sums(e))).astype(F32)


def log_softmax_lastdim(x: np.ndarray) -> np.ndarray:
    """(x - max) - log(sum of exp(x - max)), in that order (ATen keeps it, pytorch#11752)."""
    shifted = (x - x.max(axis=-1, keepdims=True)).astype(F32)
    return (shifted - logf(row_sums(expf(shifted)))).astype(F32)


def log_softmax_backward_lastdim(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """grad - exp(out) · Σ grad, one FMA."""
    return fma32(-expf(out), row_sums(grad), grad)


def softmax_backward_lastdim(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """out · (grad - Σ grad·out)."""
    return (out * (grad - row_sums((grad * out).astype(F32)))).astype(F32)


__all__ = [
    "EXACT_MAX_ELEMENTS",
    "lastdim_f32",
    "softmax_backward_lastdim",
    "row_sums",
    "softmax_lastdim",
    "log_softmax_lastdim",
    "log_softmax_backward_lastdim",
]

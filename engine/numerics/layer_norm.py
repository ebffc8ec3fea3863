"""PyTorch 2.13's CPU layer norm forward, bit for bit: each row's mean and variance as ``RowwiseMoments``
(ATen/native/cpu/moments_utils.h) takes them, then ``rstd`` and the affine step as ``layer_norm_kernel.cpp`` does.

``RowwiseMoments`` is Welford's algorithm, vectorised and cascaded (this machine: AVX2, 8 float32 or 4 float64
lanes):

* the row is read in vectors; every chunk of 16 vectors gets its own per-lane Welford run from zero
  (``m1 += (x − m1)/(j+1)`` and ``m2 += (x − m1_old)(x − m1_new)``, both fused multiply-adds, the 1/(j+1) rounded
  first); the chunk's moments are merged into a stack of partial moments that is cascaded like a binary counter
  (chunk i + 1 even: level j − 1 merges into level j), so that only moments of similar counts meet; the levels are
  merged into level 0 at the end;
* the scalar tail (N mod lanes elements) runs Welford on its own, unfused (``m1 += d/k``, ``m2 += d·(x − m1)``);
* then each lane's moments are merged into the tail's, one lane after the other (``AddMoments``: the fraction
  ``c = k_add / k`` rounded, ``m1 += c·δ`` and ``m2 += m2_add + δ²·c·k_old``, both fused as the compiler contracts
  them), and the variance is m2 / N.

Then ``rstd = 1 / √(var + eps)`` in the input's dtype, and y = (x − mean)·rstd, with the weight and bias:
``fma((x − mean)·rstd, w, b)`` when both are given, ``((x − mean)·rstd)·w`` with the weight alone,
``fma(x − mean, rstd, b)`` with the bias alone (measured against torch 2.13 over many shapes: tests/engine/
test_layer_norm_exact.py).

Example::

    >>> mean, rstd, y = layer_norm_rows(np.array([[1.0, 3.0]], np.float32), None, None, 1e-5)
    >>> y.tolist()
    [[-0.9999949932098389, 0.9999949932098389]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.numerics.fma import fma32, fma64

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # Vectorized<T>::size() on AVX2
_CHUNK = 16  # kChunkSize


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """a·b + c rounded once, in the dtype of ``c`` (an array)."""
    dt = c.dtype
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), c.shape)
    a, b, c = (np.broadcast_to(np.asarray(v, dt), shape) for v in (a, b, c))
    return np.asarray(fma32(a, b, c) if dt == np.float32 else fma64(a, b, c), dt)


def _add_moments_vec(k_add: int, m1_add: Any, m2_add: Any, k: int, m1: Any, m2: Any) -> tuple[int, Any, Any]:
    """AddMomentsVec: merge (k_add, m1_add, m2_add) into (k, m1, m2), lane by lane."""
    dt = m1.dtype.type
    n = k + k_add
    c = dt(0) if n == 0 else dt(dt(k_add) / dt(n))
    delta = m1_add - m1
    m2_tmp = m2 + m2_add
    c_delta = c * delta
    return n, m1 + c_delta, _fma(delta * dt(k), c_delta, m2_tmp)


def _vector_moments(x: np.ndarray, n: int, lanes: int) -> tuple[np.ndarray, np.ndarray]:
    """The first n vectors of each row (x: (M, N)): per-lane (m1, m2), each (M, lanes)."""
    dt = x.dtype.type
    m = -(-n // _CHUNK)
    depth = _ceil_log2(m)
    zero = np.zeros((x.shape[0], lanes), x.dtype)
    k_stk, m1_stk, m2_stk = [0] * depth, [zero] * depth, [zero] * depth
    inv = [dt(dt(1) / dt(j + 1)) for j in range(_CHUNK)]
    vecs = x[:, : n * lanes].reshape(x.shape[0], n, lanes)
    for i in range(m):
        m1, m2 = zero, zero
        count = min(_CHUNK, n - i * _CHUNK)
        for j in range(count):
            v = vecs[:, i * _CHUNK + j]
            delta = v - m1
            m1 = _fma(inv[j], delta, m1)
            m2 = _fma(delta, v - m1, m2)
        k_stk[0], m1_stk[0], m2_stk[0] = _add_moments_vec(count, m1, m2, k_stk[0], m1_stk[0], m2_stk[0])
        mask = i + 1
        j = 1
        while j < depth and (mask & 1) == 0:  # a binary counter: level j − 1 is full, carry it into level j
            k_stk[j], m1_stk[j], m2_stk[j] = _add_moments_vec(
                k_stk[j - 1], m1_stk[j - 1], m2_stk[j - 1], k_stk[j], m1_stk[j], m2_stk[j]
            )
            k_stk[j - 1], m1_stk[j - 1], m2_stk[j - 1] = 0, zero, zero
            mask >>= 1
            j += 1
    for i in range(1, depth):
        k_stk[0], m1_stk[0], m2_stk[0] = _add_moments_vec(
            k_stk[i], m1_stk[i], m2_stk[i], k_stk[0], m1_stk[0], m2_stk[0]
        )
    return m1_stk[0], m2_stk[0]


def rowwise_moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x: (M, N) float32/float64 -> each row's mean and biased variance (M,), in x's dtype, as RowwiseMoments."""
    dt = x.dtype.type
    rows, size = x.shape
    lanes = _LANES[x.dtype]
    n = size // lanes
    lane_m1, lane_m2 = _vector_moments(x, n, lanes)
    k, m1, m2 = 0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)
    for i in range(n * lanes, size):  # the scalar tail: Welford, unfused
        v = x[:, i]
        delta = v - m1
        k += 1
        m1 = m1 + delta / dt(k)
        m2 = m2 + delta * (v - m1)
    for lane in range(lanes):  # AddMoments, one lane after another (the compiler fuses m1 += c·δ and the m2 term)
        n_all = k + n
        c = dt(0) if n_all == 0 else dt(dt(n) / dt(n_all))
        delta = lane_m1[:, lane] - m1
        m1 = _fma(c, delta, m1)
        m2 = m2 + _fma(delta * delta * c, dt(k), lane_m2[:, lane])
        k = n_all
    return m1, m2 / dt(size)


def layer_norm_rows(
    x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x: (M, N); w, b: (N,) or None -> (mean (M,), rstd (M,), y (M, N)) as PyTorch's CPU kernel computes them."""
    dt = x.dtype.type
    mean, var = rowwise_moments(x)
    rstd = dt(1) / np.sqrt(var + dt(eps))
    centred = x - mean[:, None]
    if b is None:
        y = centred * rstd[:, None]
        return mean, rstd, y if w is None else y * w
    if w is None:
        return mean, rstd, _fma(centred, rstd[:, None], b)
    return mean, rstd, _fma(centred * rstd[:, None], w, b)


def exact(x: np.ndarray) -> bool:
    """Whether ``layer_norm_rows`` knows PyTorch's order for this dtype."""
    return x.dtype in _LANES


__all__ = ["rowwise_moments", "layer_norm_rows", "exact"]

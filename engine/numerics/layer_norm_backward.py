"""PyTorch 2.13's CPU layer norm backward (``layer_norm_backward_frame``), bit for bit on one thread.

For each row, with a = rstd, the input gradient is dx = a·dy·w + b·x + c, where
b = (db·mean − ds)·a³/N and c = −b·mean − db·a/N take two sums over the row: ds = Σ dy·x·w and db = Σ dy·w
(w = 1 without a weight). Each sum is ``vec::map_reduce_all``: the first vector of products, then the following
vectors added lane by lane, the partial last vector fused into the lanes (the compiler contracts that add into an
FMA, not the loop's), then the lanes combined by a shuffle tree ((0+4)+(2+6)) + ((1+5)+(3+7)) for 8 float32
lanes, in order for float64's 4. The compiler also fuses ``db·mean − ds``, ``−b·mean − …`` and ``b·x + a·dy·w``.
The weight's and bias's gradients add each row's contribution in order: dw += dy·(a·x − a·mean) (both fused),
db += dy. All measured against torch (tests/engine/test_layer_norm_exact.py).

Example::

    >>> x = np.array([[1.0, 2.0, 4.0]], np.float32)
    >>> mean, rstd, _ = layer_norm_rows(x, None, None, 1e-5)
    >>> dx, dw, db = layer_norm_backward_rows(np.ones_like(x), x, mean, rstd, None)
    >>> dx.tolist()   # 0 in exact arithmetic: what is left is rounding, as in PyTorch
    [[5.960464477539063e-08, 5.960464477539063e-08, -5.960464477539063e-08]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.numerics.fma import fma32, fma64
from engine.numerics.layer_norm import layer_norm_rows  # noqa: F401 - the docstring's example

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _fma(a: Any, b: Any, c: Any, dt: np.dtype) -> np.ndarray:
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    a, b, c = (np.broadcast_to(np.asarray(v, dt), shape) for v in (a, b, c))
    return np.asarray(fma32(a, b, c) if dt == np.float32 else fma64(a, b, c), dt)


def _lanes_total(acc: np.ndarray) -> np.ndarray:
    """(M, lanes) -> (M,): ATen's ``vec_reduce_all`` of a full vector."""
    if acc.shape[1] == 8:  # AVX2's shuffle tree for float32
        half = acc[:, :4] + acc[:, 4:]
        quarter = half[:, :2] + half[:, 2:]
        return quarter[:, 0] + quarter[:, 1]
    total = acc[:, 0]
    for lane in range(1, acc.shape[1]):
        total = total + acc[:, lane]
    return total


def _reduce_all(left: np.ndarray, right: np.ndarray | None) -> np.ndarray:
    """Each row's Σ left·right (Σ left when right is None) in ``map_reduce_all``'s order."""
    dt = left.dtype
    rows, n = left.shape
    lanes = _LANES[dt]
    prod = left if right is None else left * right
    if n < lanes:  # one partial vector, its lanes added in order
        total = prod[:, 0]
        for j in range(1, n):
            total = total + prod[:, j]
        return total
    full = n - n % lanes
    acc = prod[:, :lanes].copy()
    for d in range(lanes, full, lanes):
        acc = acc + prod[:, d : d + lanes]
    if full < n:
        k = n - full
        if right is None:
            acc[:, :k] = acc[:, :k] + left[:, full:]
        else:
            acc[:, :k] = _fma(left[:, full:], right[:, full:], acc[:, :k], dt)
    return _lanes_total(acc)


def layer_norm_backward_rows(
    dy: np.ndarray,
    x: np.ndarray,
    mean: np.ndarray,
    rstd: np.ndarray,
    w: np.ndarray | None,
    need: tuple[bool, bool, bool] = (True, True, True),
) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """dy, x: (M, N); mean, rstd: (M,) as the forward saved them; w: (N,) or None -> (dx, dw, db), each None
    where ``need`` says it is not wanted."""
    dt = x.dtype
    rows, n = x.shape
    scale = dt.type(dt.type(1) / dt.type(n))
    dx = None
    if need[0]:
        if w is None:
            ds, db = _reduce_all(dy, x), _reduce_all(dy, None)
        else:
            ds, db = _reduce_all(dy * x, np.broadcast_to(w, x.shape)), _reduce_all(dy, np.broadcast_to(w, x.shape))
        a = rstd
        b = _fma(db, mean, -ds, dt) * a * a * a * scale
        c = _fma(-b, mean, -(db * a * scale), dt)
        ady = a[:, None] * dy if w is None else a[:, None] * dy * w
        dx = (_fma(b[:, None], x, ady, dt) + c[:, None]).astype(dt)
    dw = np.zeros(n, dt) if need[1] else None
    dbias = np.zeros(n, dt) if need[2] else None
    for i in range(rows if need[1] or need[2] else 0):  # one thread: the rows' contributions in order
        if dw is not None:
            dw = _fma(dy[i], _fma(rstd[i], x[i], -rstd[i] * mean[i], dt), dw, dt)
        if dbias is not None:
            dbias = dbias + dy[i]
    zero = dt.type(0)  # the second pass adds the buffer to 0
    return dx, None if dw is None else dw + zero, None if dbias is None else dbias + zero


__all__ = ["layer_norm_backward_rows"]

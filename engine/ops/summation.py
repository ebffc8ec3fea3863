"""Floating-point sums in PyTorch's exact order, so that ``loss.item()`` prints the same digits.

Float addition is not associative: summing the same numbers in another order changes the last bits. PyTorch's
CPU kernel (``cascade_sum`` in ATen's SumKernel.cpp, AVX2 build) adds 8-lane vectors, keeps 4 interleaved
partial sums, and cascades them through 4 levels of accumulators in chunks of 16, so only numbers of similar
size meet. This module repeats that order with numpy (vectorised across rows and lanes).

Example::

    >>> torch_sum(np.arange(5, dtype=np.float32), None, False)
    array(10., dtype=float32)
"""

from __future__ import annotations

import numpy as np

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # Vectorized<T>::size() with AVX2


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _multi_row_sum(m: np.ndarray) -> np.ndarray:
    """m: (size, nrows, ...) -> (nrows, ...): the 4-level cascade over the first axis."""
    size = m.shape[0]
    power = max(4, _ceil_log2(size) // 4)
    step = 1 << power
    mask = step - 1
    zero = np.zeros(m.shape[1:], dtype=m.dtype)
    acc = [zero, zero, zero, zero]
    i = 0
    while i + step <= size:
        s = acc[0]
        for r in m[i : i + step]:
            s = s + r
        acc[0] = s
        i += step
        for j in range(1, 4):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = zero
            if i & (mask << (j * power)):
                break
    s = acc[0]
    for r in m[i:]:
        s = s + r
    for j in range(1, 4):
        s = s + acc[j]
    return s


def _row_sum(x: np.ndarray) -> np.ndarray:
    """x: (size, ...) -> (...): 4 interleaved partial sums (instruction-level parallelism), then combined."""
    size = x.shape[0]
    si = size // 4
    part = _multi_row_sum(x[: si * 4].reshape((si, 4) + x.shape[1:]))
    p = part[0]
    for r in x[si * 4 :]:
        p = p + r
    for k in range(1, 4):
        p = p + part[k]
    return p


def _inner_sums(rows: np.ndarray) -> np.ndarray:
    """rows: (R, n) C-contiguous -> (R,): each row summed as PyTorch sums a contiguous run."""
    r, n = rows.shape
    lanes = _LANES[rows.dtype]
    if n < lanes:
        return _row_sum(np.ascontiguousarray(rows.T))
    vs = n // lanes
    vec = _row_sum(rows[:, : vs * lanes].reshape(r, vs, lanes).transpose(1, 0, 2))  # (R, lanes)
    acc = np.zeros(r, dtype=rows.dtype)
    for k in range(vs * lanes, n):  # the scalar tail first,
        acc = acc + rows[:, k]
    for k in range(lanes):  # then the vector lanes, one by one
        acc = acc + vec[:, k]
    return acc


def _outer_sums(block: np.ndarray) -> np.ndarray:
    """block: (O, size0, C) -> (O, C): reduce the middle axis, columns contiguous."""
    size0, c = block.shape[1], block.shape[2]
    lanes = _LANES[block.dtype]
    group = 4 * lanes if c >= lanes else 4
    cut = (c // group) * group
    x = block.transpose(1, 0, 2)  # (size0, O, C)
    out = np.empty(block.shape[0:1] + (c,), dtype=block.dtype)
    if cut:
        out[:, :cut] = _multi_row_sum(x[:, None, :, :cut])[0]
    if cut < c:
        out[:, cut:] = _row_sum(x[:, :, cut:])
    return out


def torch_sum(a: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    """``a.sum(axes)`` for float32/float64 in PyTorch's order (numpy's order where that is not modelled)."""
    if a.dtype not in _LANES or a.size == 0:
        return np.asarray(a.sum(axis=axes, keepdims=keepdims))
    nd = a.ndim
    if axes is None or len(axes) == nd:
        flat = a.ravel(order="K") if not a.flags.c_contiguous else a.reshape(-1)
        total = _inner_sums(flat.reshape(1, -1))[0] if nd else a
        out = np.asarray(total, dtype=a.dtype)
        return out.reshape((1,) * nd) if keepdims else out
    axes = tuple(sorted(axes))
    if not a.flags.c_contiguous or axes != tuple(range(axes[0], axes[-1] + 1)):
        return np.asarray(a.sum(axis=axes, keepdims=keepdims))
    lead = int(np.prod(a.shape[: axes[0]]))
    red = int(np.prod(a.shape[axes[0] : axes[-1] + 1]))
    tail = int(np.prod(a.shape[axes[-1] + 1 :]))
    if tail == 1:
        res = _inner_sums(a.reshape(lead, red))
    else:
        res = _outer_sums(a.reshape(lead, red, tail))
    kept = a.shape[: axes[0]] + ((1,) * len(axes) if keepdims else ()) + a.shape[axes[-1] + 1 :]
    return res.reshape(kept)


def torch_mean(a: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    """PyTorch's CPU mean: the sum above, divided by the count."""
    n = a.size if axes is None else int(np.prod([a.shape[d] for d in axes]))
    s = torch_sum(a, axes, keepdims)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(s / np.asarray(n, dtype=a.dtype))


__all__ = ["torch_sum", "torch_mean"]


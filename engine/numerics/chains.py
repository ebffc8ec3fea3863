"""Fast FMA chains for MKL's matrix products: every output element a chain ``acc = fma(a[i, t], b[t, j], acc)``
from +0 over each block of k, the blocks' results then added in order (rounded each time). The chains of all
blocks and all outputs run side by side, one numpy step per position in a block, on row chunks that stay in the
cache; the step forms the products in float64 (exact), adds them to the float32 accumulators in float64 and rounds
once to float32: MKL's FMA, unless the float64 sum is a float32 midpoint (then rounding twice may differ from
rounding once). Those sums are flagged as they come and redone with the careful FMA (``fma._fma32_careful``).

Example::

    >>> fma_blocks(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32), [3])
    array([[3., 3.],
           [3., 3.]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.numerics import native
from engine.numerics.fma import F32, F64, _fma32_careful, _needs_care, fma32

_LOW29 = np.uint64((1 << 29) - 1)
_HALF29 = np.uint64(1 << 28)
_SMALL = 200_000  # products below which all are formed at once (``_run_small``)
_CHUNK = 40_000  # accumulators per step (float64 buffers of ~320 KB: in the cache)
_TINY_INPUT = 2.0**-60  # smaller non-zero inputs: products below 2^-120, where float32 results may be subnormal


def _tiny(x: np.ndarray) -> bool:
    t = np.abs(x)
    return bool(((t < _TINY_INPUT) & (t != 0)).any())


def fma_blocks(a: np.ndarray, b: np.ndarray, blocks: Sequence[int], start: np.ndarray | None = None) -> np.ndarray:
    """``a @ b`` (float32, (n, k) @ (k, m)) as MKL's blocked FMA chains; ``blocks``: the lengths of the blocks of
    k, in order (summing to k). A block's chain starts from +0 (products of -0 give +0), shorter blocks are padded
    with zeros at their end (adding +0 leaves a non-zero float32 unchanged, and the chains never hold -0).
    ``start`` (broadcast to (n, m), float32): what the blocks are added to, first (``addmm``'s bias: MKL starts
    from C); without it the first block's result is the start."""
    compiled = native.fma_blocks(a, b, blocks, start)  # fma_chain.c: the same bits, ~40 times faster
    if compiled is not None:
        return compiled
    n, k = a.shape
    m = b.shape[1]
    nb, length = len(blocks), max(blocks)
    if _tiny(a) or _tiny(b):  # subnormal float32 sums: the careful FMA for every step
        return _careful_blocks(a, b, blocks, start)
    starts = np.cumsum([0, *blocks[:-1]])
    A = np.zeros((length, nb, n), F64)  # A[t, j] = a[:, start_j + t]
    B = np.zeros((length, nb, m), F64)
    for j, (s, size) in enumerate(zip(starts, blocks)):
        A[:size, j] = a[:, s : s + size].T
        B[:size, j] = b[s : s + size]
    full_start = None if start is None else np.broadcast_to(start, (n, m))
    if length * nb * n * m <= _SMALL:
        return _run_small(A, B, nb, full_start)
    out = np.empty((n, m), F32)
    rows = max(1, min(n, _CHUNK // max(1, nb * m)))
    for r0 in range(0, n, rows):
        r1 = min(n, r0 + rows)
        out[r0:r1] = _run(A[:, :, r0:r1], B, nb, None if full_start is None else full_start[r0:r1])
    return out


def _run_small(A: np.ndarray, B: np.ndarray, nb: int, start: np.ndarray | None) -> np.ndarray:
    """Small products, where numpy's per-call cost dominates: every product formed at once, one numpy call a step
    (the float64 sum rounded into the float32 history), the midpoints checked once at the end over the whole
    history (then, rarely, the checked stepping of ``_run``)."""
    length = A.shape[0]
    P = A[:, :, :, None] * B[:, :, None, :]  # (length, nb, n, m), exact
    hist = np.empty(P.shape, F32)
    with np.errstate(all="ignore"):
        np.add(P[0], 0.0, out=hist[0], casting="unsafe")  # from +0: -0 products give +0
        for t in range(1, length):
            np.add(P[t], hist[t - 1], out=hist[t], casting="unsafe")
    if length > 1 and _needs_care(P[1:] + hist[:-1]):
        return _run(A, B, nb, start)
    return _combine(list(hist[-1]), start)


def _run(A: np.ndarray, B: np.ndarray, nb: int, start: np.ndarray | None) -> np.ndarray:
    """The chains of one row chunk: A (length, nb, rows), B (length, nb, m) -> (rows, m), blocks combined."""
    length, _, rows = A.shape
    m = B.shape[2]
    shape = (nb, rows, m)
    P = np.empty(shape, F64)
    S = np.empty(shape, F64)
    U = np.empty(shape, np.uint64)
    acc = np.zeros(shape, F32)
    with np.errstate(all="ignore"):
        for t in range(length):
            np.multiply(A[t][:, :, None], B[t][:, None, :], out=P)
            np.add(P, acc, out=S)
            np.bitwise_and(S.view(np.uint64), _LOW29, out=U)
            if (U == _HALF29).any():  # a float32 midpoint: rounding the float64 sum may not be the FMA's rounding
                mask = U == _HALF29
                fixed = _fma32_careful(P[mask], np.ones(1, F64), acc[mask].astype(F64))
                np.copyto(acc, S, casting="unsafe")
                acc[mask] = fixed
            else:
                np.copyto(acc, S, casting="unsafe")
    return _combine(list(acc), start)


def _combine(parts: list[np.ndarray], start: np.ndarray | None) -> np.ndarray:
    """The blocks' results added in order to ``start`` (or to the first of them), each sum rounded to float32."""
    res = parts[0] if start is None else np.add(start, parts[0], dtype=F32)
    for p in parts[1:]:
        res = np.add(res, p, dtype=F32)
    return res + F32(0)


def _careful_blocks(a: np.ndarray, b: np.ndarray, blocks: Sequence[int], start: np.ndarray | None) -> np.ndarray:
    parts = []
    s = 0
    for size in blocks:
        acc = np.zeros((a.shape[0], b.shape[1]), F32)
        for t in range(s, s + size):
            acc = fma32(a[:, t : t + 1], b[t : t + 1, :], acc)
        parts.append(acc)
        s += size
    return _combine(parts, start)


def mkl_k_blocks(k: int, kc: int = 192) -> list[int]:
    """How MKL's sgemm (non-Intel AVX2 path, one thread) cuts k, measured: up to ``kc`` one block; below ``2 kc``
    two halves of ``k // 2`` and a last block of ``k % 2``; from ``2 kc`` blocks of ``kc`` and the rest."""
    if k <= kc:
        return [k]
    if k < 2 * kc:
        return [k // 2, k // 2] + ([1] if k % 2 else [])
    return [kc] * (k // kc) + ([k % kc] if k % kc else [])


__all__ = ["fma_blocks", "mkl_k_blocks"]

"""float32 matrix products in the order of MKL's sgemm/sdot as PyTorch 2.13 calls them on an Intel AVX512 machine
(2 intra-op threads; the "avx2" profile's orders are in ``mkl_avx2``, chosen here by ``cpu.mkl_path()``), for
the shapes where that order was established by experiment (docs/NUMERICS.md);
``None`` elsewhere, and the caller keeps numpy's BLAS.

MKL's source is closed: the orders below were measured, never read. Each output element is a chain of FMAs
over k, ``acc = fma(a[i, k], b[k, j], acc)``, starting from the first product:

* ``n x k @ k x m`` with 2 <= m and 2 <= k <= 255, and 16 <= n, or 2 <= n < 16 with b not a transposed view
  (the weight gradient ``gᵀ @ x`` of a layer with few outputs): one chain per element from k = 0 upwards; ``addmm``
  adds the bias afterwards, rounding once more (checked for both operands transposed or not);
* ``n x k @ k x 1`` (``nn.Linear(k, 1)``, ``x @ w`` with one column, x C-contiguous) for 16 <= n, 2 <= k <= 3:
products 0 and 1 chained, the last product added on its own;
* ``m x k @ k x 1`` (a transposed view) with k >= 256 and m <= 8 (the weight gradient of ``nn.Linear(·, 1)`` over a
batch of k):
  k is split in two halves (ceil(k/2) first) that MKL's two threads chain separately, then added; below 256 one
  chain;
* ``dot(x, y)``: 4 registers of 16 lanes, element i in register (i // 16) % 4, lane i % 16, each lane a chain;
  the last < 64 elements: a pair of vectors into registers 0 and 1 when 32 or more remain, every other vector
  (the last one zero-padded) into register 0; then (r0 + r1) + (r2 + r3) and a halving tree over the lanes
  (16 -> 8 -> 4), then (l0 + l1) + (l2 + l3). Up to 8,000 elements (at 8,192 MKL splits between threads).

Example::

    >>> gemm(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32))
    array([[3., 3.],
           [3., 3.]], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics import mkl_avx2
from engine.numerics.chains import fma_blocks
from engine.numerics.cpu import mkl_path
from engine.numerics.fma import F32, F64, _needs_care, fma32

MIN_ROWS = 16  # fewer rows times a transposed b go through other kernels
MAX_CHAIN_K = 255  # longest k checked for the plain chain
SPLIT_K = 256  # from here the k x 1 product is split between two threads
MAX_GEMV_ROWS = 8  # checked up to here (16 rows go another way)
MAX_DOT = 8000  # checked up to here; at 8,192 MKL splits between threads (order not modelled)


def _chain(a: np.ndarray, b: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """a: (n, K), b: (K, m) float32 -> (n, m): the FMA chain over k in [lo, hi) from +0 (``chains.fma_blocks``:
    one numpy step per k over all outputs, float32 midpoints of the float64 sums redone with the careful FMA)."""
    return fma_blocks(a[:, lo:hi], b[lo:hi], [hi - lo])


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """``a @ b`` for float32 matrices in MKL's order, or None where that order is not known."""
    profile = _mkl_profile()
    if profile != "avx512":
        return mkl_avx2.gemm(a, b) if profile == "avx2" else None
    if a.dtype != F32 or b.dtype != F32 or a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        return None
    n, k = a.shape
    m = b.shape[1]
    if n == 0 or m == 0 or k == 0:
        return None
    if m == 1 and not a.flags.c_contiguous:
        return gemv_t(a, b)
    if n == 1 and m >= 2 and a.T.flags.c_contiguous and b.flags.c_contiguous:
        # gᵀ @ x for the weight gradient of nn.Linear(m, 1) (torch's mm_mat2_backward for weight.t()): the engine
        # kept xᵀ @ g, as measured, before it followed torch's transposed form; the same per-element chain
        p = gemv_t(b.T, a.T)
        return None if p is None else np.ascontiguousarray(p.T)
    if k < 2 or n < 2 or (n < MIN_ROWS and not b.flags.c_contiguous):
        return None  # one row, one product per element, or few rows times a transposed b: other kernels
    if m >= 2 and k <= MAX_CHAIN_K:
        return _chain(a, b, 0, k)
    if m == 1 and k <= 3 and n >= MIN_ROWS and a.flags.c_contiguous:
        p = (a[:, :1].astype(F64) * b[:1, :] + 0.0).astype(F32)
        p = fma32(a[:, 1:2], b[1:2, :], p)
        if k == 2:
            return p
        return (p + (a[:, 2:3].astype(F64) * b[2:3, :] + 0.0).astype(F32)).astype(F32)
    return None


def _mkl_profile() -> str | None:
    """The profile whose MKL orders apply here, None when not measured for this CPU."""
    return mkl_path()


def gemv_t(a: np.ndarray, g: np.ndarray, allow_long: bool = False) -> np.ndarray | None:
    """``a @ g`` for a (m, k) transposed view (a.T C-contiguous) and g (k, 1): the weight gradient of
    ``nn.Linear(m, 1)`` over a batch of k rows. ``allow_long``: also k >= 256 (k sequential steps: slow)."""
    if a.dtype != F32 or g.dtype != F32 or a.ndim != 2 or g.ndim != 2 or g.shape[1] != 1 or a.shape[1] != g.shape[0]:
        return None
    profile = _mkl_profile()
    if profile != "avx512":  # on AVX2 one plain chain, fast at any k (mkl_avx2)
        return mkl_avx2.gemm(a, g) if profile == "avx2" else None
    m, k = a.shape
    if m == 0 or k < 2 or m > MAX_GEMV_ROWS or not a.T.flags.c_contiguous:
        return None
    if k < SPLIT_K:
        return _chain(a, g, 0, k)
    if not allow_long:
        return None  # k sequential numpy steps: ~15 us each, too slow for a training loop (see docs/NUMERICS.md)
    half = (k + 1) // 2
    return (_chain(a, g, 0, half) + _chain(a, g, half, k)).astype(F32)


MAX_SHORT_MV = 4  # reductions this short are measured (k = 5 and up take another, unmodelled order)


def mv(a: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """``torch.mv(a, v)`` (and ``matmul`` of a matrix and a vector) over at most 4 columns, on the "avx2" profile:
    MKL's gemv rounds each product and adds them left to right, no FMA (measured bit for bit for float32 and
    float64, 1 to 5,000 rows, C-contiguous and transposed matrices: d2l's ``torch.matmul(X, w)`` with ``w`` of 2
    values); None elsewhere."""
    if _mkl_profile() != "avx2" or a.ndim != 2 or v.ndim != 1 or a.shape[1] != v.shape[0]:
        return None
    if a.dtype != v.dtype or a.dtype not in (F32, F64) or not 1 <= a.shape[1] <= MAX_SHORT_MV:
        return None
    products = (a * v).astype(a.dtype)
    acc = products[:, 0].copy()
    for j in range(1, a.shape[1]):
        acc = (acc + products[:, j]).astype(a.dtype)
    return acc


def addmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """``bias + a @ b`` (nn.Linear) in MKL's order: the product first, the bias added after."""
    if _mkl_profile() == "avx2":
        return None if bias.dtype != F32 else mkl_avx2.gemm(a, b, bias)
    if b.ndim == 2 and b.shape[-1] == 1 and not a.flags.c_contiguous:
        return None  # the transposed k x 1 kernel starts from the bias (order not modelled)
    p = gemm(a, b)
    if p is None or bias.dtype != F32:
        return None
    return (p + bias).astype(F32)


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``torch.dot(x, y)`` for float32 vectors of up to 8,000 elements in MKL's sdot order, else None."""
    profile = _mkl_profile()
    if profile != "avx512":
        return mkl_avx2.dot(x, y) if profile == "avx2" else None
    n = x.shape[0]
    if x.dtype != F32 or y.dtype != F32 or n == 0 or n > MAX_DOT:
        return None
    lanes, regs = 16, 4
    main = (n // (lanes * regs)) * lanes * regs
    acc = np.zeros((regs, lanes), F32)
    if main:  # one numpy call a block (see _chain), the float32 midpoints checked at the end
        prods = (x[:main].astype(F64) * y[:main]).reshape(-1, regs, lanes)
        hist = np.empty(prods.shape, F32)
        np.add(prods[0], 0.0, out=hist[0], casting="unsafe")
        for t in range(1, prods.shape[0]):
            np.add(prods[t], hist[t - 1], out=hist[t], casting="unsafe")
        acc = hist[-1].copy()
        if prods.shape[0] > 1 and _needs_care(prods[1:] + hist[:-1]):
            acc = hist[0].copy()
            for t in range(1, prods.shape[0]):
                acc = fma32(prods[t], 1.0, acc)
    rest = n - main
    pos, reg = main, 0
    pair = rest >= 2 * lanes
    while pos < n:
        end = min(pos + lanes, n)
        xv = np.zeros(lanes, F32)
        yv = np.zeros(lanes, F32)
        xv[: end - pos] = x[pos:end]
        yv[: end - pos] = y[pos:end]
        acc[reg] = fma32(xv, yv, acc[reg])
        reg = 1 if (pair and pos == main) else 0
        pos = end
    v = ((acc[0] + acc[1]).astype(F32) + (acc[2] + acc[3]).astype(F32)).astype(F32)
    v = (v[:8] + v[8:]).astype(F32)
    v = (v[:4] + v[4:]).astype(F32)
    return np.asarray(((v[0] + v[1]).astype(F32) + (v[2] + v[3]).astype(F32)).astype(F32))


__all__ = ["gemm", "gemv_t", "addmm", "dot", "mv"]

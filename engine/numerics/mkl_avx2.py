"""MKL's float32 dot and matrix products as PyTorch 2.13 gets them on the "avx2" profile (measured on an AMD EPYC
with AVX2, 2 threads): MKL takes a 4-lane path there with a separate multiply and add (no FMA) for the shapes
below. Orders were measured (docs/NUMERICS.md, "AVX2"), never read; ``None`` where they are not known.

* ``dot(x, y)``: MKL first peels scalars until ``y`` is 16-byte aligned (so the order depends on the address, as
  in torch: a fresh tensor is aligned, a view may not be). The peeled products are summed one by one into lane 0.
  If ``x`` is then aligned too, 4 registers of 4 lanes take blocks of 16 (element i of a block in register i // 4,
  lane i % 4, each lane a chain of ``acc + x·y`` rounded twice); of the < 16 left, a pair of vectors goes into
  registers 0 and 1 when 8 or more remain, another vector into register 0, and the last < 4 products one by one
  into lane 0 of register 0. If ``x`` is not aligned with ``y``, one vector goes into register 0 and all the rest
  one by one into its lane 0. Then ``((r0 + r1) + r2) + r3`` and ``(l0 + l2) + (l1 + l3)``.

* ``a @ b`` (n x k @ k x m), where measured (2 threads up to k = 255; one thread for the course shapes beyond):
  each output a chain over k from +0, of separately rounded products and sums (``"plain"``) or of FMAs
  (``"fma"``, blocked along k by ``chains.mkl_k_blocks``: 192 at a time, two halves between 192 and 384):

  - n = 1 with a C-contiguous b, 2 <= m <= 1,000, k <= 3,000 (``gᵀ @ x``: the weight gradient of
    ``nn.Linear(m, 1)`` as torch's autograd computes it): plain;
  - m = 1: for a transposed view ``a`` (the gradient ``xᵀ @ g``) with n <= 1,000, any k: plain; for a C-contiguous
    ``a`` (``nn.Linear(k, 1)``, n >= 16): plain for k <= 4, ``"rows4"`` for k >= 8 divisible by 4;
  - 2 <= m <= 12, plain: for k <= 3 (any layout, n >= 16); for a C-contiguous b with m in {2, 3, 4, 8}
    (n >= 16, k <= 100); for the weight gradient (a transposed view, b C-contiguous) with m <= 2 (any n, k), or
    2 <= n <= 15 with m <= 4 (k <= 64) or with k <= 5 and m <= 10; for ``nn.Linear`` on a batch of n <= 15 (a
    C-contiguous a, a transposed b) with k <= 3 and m <= 11, or m <= 3 and k < 8 (``"rows8"`` for 8 <= k, n >= 2);
  - m = 10 with a C-contiguous b, n >= 16, 8 <= k <= 1,000: ``"split8"`` (plain, but the odd rows' first 2 columns
    in groups of 8);
  - 2 <= m <= 3, a C-contiguous a and a transposed b (``nn.Linear(k, 2 or 3)``, n >= 16): ``"rows8"``, each
    output an 8-lane plain dot over k (lane i takes k = i, i + 8, ...; the lanes folded by halves, 8 -> 4 -> 2
    -> 1; then the last k % 8 products one by one), measured for k <= 8 and every k divisible by 4 up to 784
    (also for 2 <= n <= 15);
  - 4 <= m <= 11 with the same layouts (``nn.Linear(k, 10)``, e.g. MNIST's 784 -> 10), k divisible by 4
    (8 <= k <= 784): ``"cols4"``, groups of 4 columns, each output a 4-lane plain dot (lane i takes k = i,
    i + 4, ...) folded as (l0 + l2) + (l1 + l3), the last m % 4 columns as ``"rows8"``;
  - 13 <= m: fma for 8 <= n, any k and layout (measured to k = 2,000); with a C-contiguous b: plain for n <= 3
    with 16 <= m, k <= 3,000 (``"split8"`` for 2-3 rows when m = 8j + 2), fma for n = 4 and k <= 64.

Example::

    >>> dot(np.ones(5, np.float32), np.ones(5, np.float32))
    array(5., dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics.chains import fma_blocks, mkl_k_blocks

F32 = np.float32
MAX_DOT = 8000  # checked up to here


def _address(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``torch.dot(x, y)`` for contiguous float32 vectors in MKL's order on this profile, else None."""
    n = x.shape[0]
    if x.dtype != F32 or y.dtype != F32 or n == 0 or n > MAX_DOT or x.strides[0] != 4 or y.strides[0] != 4:
        return None
    ax, ay = _address(x), _address(y)
    if ax % 4 or ay % 4:
        return None
    p = x * y  # float32 products, rounded (no FMA on this path)
    peel = min(((16 - ay % 16) % 16) // 4, n)
    acc = np.zeros((4, 4), F32)
    lane0: np.float32 | None = F32(0)
    for i in range(peel):
        lane0 = F32(lane0 + p[i])
    rest = p[peel:]
    m = rest.shape[0]
    if (ax - ay) % 16 == 0:
        main = (m // 16) * 16
        if main:
            blocks = rest[:main].reshape(-1, 4, 4).copy()
            blocks[0, 0, 0] = F32(lane0 + blocks[0, 0, 0])
            lane0 = None
            acc = np.add.accumulate(blocks, axis=0)[-1] if blocks.shape[0] > 1 else blocks[0]
            acc = acc.copy()
        nvec = (m - main) // 4
        pos = main
        for v in range(nvec):
            reg = 1 if (nvec >= 2 and v == 1) else 0
            acc[reg] = acc[reg] + rest[pos : pos + 4]
            pos += 4
    else:
        pos = 0
        if m >= 4:
            acc[0] = rest[:4]
            pos = 4
    if lane0 is not None:  # the peeled sum is lane 0's start
        acc[0, 0] = F32(lane0 + acc[0, 0]) if (pos or peel == 0) else lane0
    for i in range(pos, m):
        acc[0, 0] = F32(acc[0, 0] + rest[i])
    r = ((acc[0] + acc[1]) + acc[2]) + acc[3]
    return np.asarray(F32(F32(r[0] + r[2]) + F32(r[1] + r[3])))


def _serial(p: np.ndarray, axis: int) -> np.ndarray:
    """The float32 sum over ``axis``, one term after another. ``np.add.reduce`` over the first axis of a
    C-contiguous array with 4 or more elements per step adds row after row (numpy sums pairwise only along the
    innermost axis), without writing every prefix as ``accumulate`` does; otherwise ``accumulate``."""
    if p.shape[axis] == 1:
        return np.take(p, 0, axis=axis)
    q = np.ascontiguousarray(np.moveaxis(p, axis, 0))
    if q[0].size >= 4:
        return np.add.reduce(q, axis=0, dtype=F32)
    return np.add.accumulate(q, axis=0)[-1]


def _plain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The chain over k of float32 products, each rounded, added one after another from +0."""
    p = a.T[:, :, None] * b[:, None, :]  # (k, n, m) float32 products
    s = _serial(p, 0)
    return (s + F32(0)).astype(F32)  # from +0: -0 products give +0


def _rows8(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each output an 8-lane dot over k (plain), lanes folded by halves, then the k % 8 tail one by one."""
    n, k = a.shape
    m = b.shape[1]
    main = (k // 8) * 8
    if main:  # the products laid out (k // 8, n, m, 8): the chain's axis first, as _serial wants it
        av = a[:, :main].reshape(n, -1, 8).transpose(1, 0, 2)[:, :, None, :]
        bv = b[:main].T.reshape(m, -1, 8).transpose(1, 0, 2)[:, None, :, :]
        acc = _serial(av * bv, 0)
        for h in (4, 2, 1):
            acc = acc[..., :h] + acc[..., h : 2 * h]
        s = acc[..., 0]
    else:  # shorter than a vector: one by one
        s = np.zeros((n, m), F32)
    for i in range(main, k):
        s = s + a[:, i : i + 1] * b[i]
    return (s + F32(0)).astype(F32)


def _cols4(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Outputs in groups of 4 columns, each a 4-lane plain dot over k folded as (l0 + l2) + (l1 + l3); the last
    m % 4 columns by ``_rows8``. k divisible by 4."""
    n, k = a.shape
    m = b.shape[1]
    g = (m // 4) * 4
    out = np.empty((n, m), F32)
    p = a[:, None, :] * b.T[None, :g, :]  # (n, g, k) float32 products
    blocks = p.reshape(n, g, -1, 4)
    acc = _serial(blocks, 2)
    out[:, :g] = (acc[..., 0] + acc[..., 2]) + (acc[..., 1] + acc[..., 3]) + F32(0)
    if g < m:
        out[:, g:] = _rows8(a, b[:, g:])
    return out


def _rows4(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``x @ w`` with one column (nn.Linear(k, 1)), k divisible by 4: per row the first 4 products summed one by
    one, that sum added to the first product of lane 0, then 4 lanes (lane i takes k = 4 + i, 8 + i, ...) each a
    plain chain, folded as (l0 + l2) + (l1 + l3)."""
    n, k = a.shape
    p = a * b[:, 0][None, :]  # (n, k) float32 products
    s = ((p[:, 0] + p[:, 1]) + p[:, 2]) + p[:, 3]
    v = p[:, 4:].reshape(n, -1, 4).copy()
    v[:, 0, 0] = s + v[:, 0, 0]
    acc = _serial(v, 1)
    return (((acc[:, 0] + acc[:, 2]) + (acc[:, 1] + acc[:, 3])) + F32(0))[:, None]


def _split8(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """m = 8j + 2 columns (10; or 18, 50, ... for 2-3 rows): plain chains, except on odd rows the first 2 columns,
    where k goes in groups of 8: 4 products into the sum one by one, the next 4 chained apart and then added (the
    last group may be short)."""
    out = _plain(a, b)
    n, k = a.shape
    p = a[1::2, None, :] * b.T[None, :2, :]  # (odd rows, 2, k) float32 products
    acc = np.zeros(p.shape[:2], F32)
    for t in range(0, k, 8):
        for u in range(t, min(t + 4, k)):
            acc = acc + p[:, :, u]
        if t + 4 < k:
            acc = acc + np.add.accumulate(p[:, :, t + 4 : t + 8], axis=2)[:, :, -1]
    out[1::2, :2] = acc + F32(0)
    return out


def chain_kind(n: int, k: int, m: int, a_transposed: bool, b_contiguous: bool) -> str | None:
    """ "plain", "rows8", "cols4", "rows4", "split8", "fma" or None (not measured) for ``a @ b`` of these sizes and
    layouts. "fma" is blocked along k by ``chains.mkl_k_blocks``."""
    if k < 1 or n < 1:
        return None
    if n == 1 and 2 <= m <= 1000 and b_contiguous and k <= 3000:
        return "plain"  # gᵀ @ x, the weight gradient of nn.Linear(m, 1) as torch computes it
    if m == 1:
        if a_transposed:
            return "plain" if n <= 1000 else None  # xᵀ @ g
        if k <= 4 and n >= 16:
            return "plain"
        return "rows4" if n >= 16 and k >= 8 and k % 4 == 0 else None  # nn.Linear(k, 1): a 4-lane dot per row
    if m <= 12:
        if a_transposed and m <= 2 and b_contiguous:
            return "plain"  # the weight gradient of nn.Linear(2, ·) over a batch of k (measured to k = 3,000)
        if a_transposed and n < 16:
            return "plain" if b_contiguous and ((m <= 4 and k <= 64) or (k <= 5 and m <= 10)) else None
        if n >= 16 and (k <= 3 or (b_contiguous and m in (2, 3, 4, 8) and k <= 100)):
            return "plain"
        if n < 16 and not a_transposed and not b_contiguous:  # nn.Linear on a small batch: x @ wᵀ
            if (k <= 3 and m <= 11) or (m <= 3 and k < 8):
                return "plain"
            return "rows8" if 2 <= n and 2 <= m <= 3 and 8 <= k <= 784 and k % 4 == 0 else None
        if n >= 16 and b_contiguous and m == 10 and 8 <= k <= 1000:
            return "split8"  # nn.Linear(·, 10)'s h @ w2 and the gradient hᵀ @ g
        rows = n >= 16 and not b_contiguous and not a_transposed
        if rows and 8 <= k <= 784 and k % 4 == 0:
            return "rows8" if m <= 3 else ("cols4" if m <= 11 else None)
        rows = rows and m <= 3
        return "plain" if rows and k < 8 else None
    if n >= 8:
        return "fma"  # blocked along k from 193 (measured to k = 2,000, m to 1,000)
    if not b_contiguous:
        return None
    if n <= 3 and m >= 16 and k <= 3000:  # m = 8j + 2: the odd row's first 2 columns go in groups of 8
        return "plain" if m % 8 != 2 or n == 1 else ("split8" if k >= 8 else None)
    if k > 64:
        return None
    return "fma" if n == 4 else None


def gemm(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray | None:
    """``a @ b`` for float32 matrices in MKL's order on this profile (``bias + a @ b`` with ``bias``: addmm), or
    None. The FMA kernel starts from the bias and adds each block of k to it; the others add the bias last."""
    if a.dtype != F32 or b.dtype != F32 or a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        return None
    if 0 in a.shape + b.shape:
        return None
    n, k = a.shape
    m = b.shape[1]
    a_t = not a.flags.c_contiguous and a.T.flags.c_contiguous
    if not (a.flags.c_contiguous or a_t) or not (b.flags.c_contiguous or b.T.flags.c_contiguous):
        return None
    kind = chain_kind(n, k, m, a_t, b.flags.c_contiguous)
    if kind == "fma":
        return fma_blocks(a, b, mkl_k_blocks(k), bias)
    if bias is not None and kind == "split8":
        return None  # torch.addmm(bias, h, w) with a C-contiguous w: not measured (nn.Linear's transposed w is)
    p = _product(a, b, kind)
    return p if p is None or bias is None else (p + bias).astype(F32)


def _product(a: np.ndarray, b: np.ndarray, kind: str | None) -> np.ndarray | None:
    if kind == "plain":
        return _plain(a, b)
    if kind == "rows8":
        return _rows8(a, b)
    if kind == "cols4":
        return _cols4(a, b)
    if kind == "rows4":
        return _rows4(a, b)
    if kind == "split8":
        return _split8(a, b)
    return None


__all__ = ["dot", "gemm", "chain_kind"]

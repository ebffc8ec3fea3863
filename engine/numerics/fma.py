"""Fused multiply-add (``a * b + c`` rounded once), which numpy lacks, emulated exactly with float64.

PyTorch's CPU kernels, MKL and SLEEF use the FMA instruction; a separate multiply and add rounds twice and so
differs in the last bit now and then. For float32 the product is exact in float64 and the sum is rounded once to
float64 with its error recovered by Knuth's two-sum; rounding that float64 to float32 is wrong only when it lands
exactly on a float32 midpoint, which is then settled by the sign of the recovered error.

Example::

    >>> fma32(np.float32(1 + 2**-12), np.float32(1 - 2**-12), np.float32(-1))   # exact: -2**-24
    np.float32(-5.9604645e-08)
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.float32
F64 = np.float64


def fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """float32 ``a * b + c`` rounded once to nearest-even (finite, non-subnormal results exact)."""
    a, b, c = np.asarray(a, F64), np.asarray(b, F64), np.asarray(c, F64)
    with np.errstate(all="ignore"):
        p = a * b
        s = p + c
        bb = s - p
        err = (p - (s - bb)) + (c - bb)  # p + c == s + err exactly
        r = s.astype(F32)
        r64 = r.astype(F64)
        other = np.where(r64 > s, np.nextafter(r, F32(-np.inf)), np.nextafter(r, F32(np.inf)))
        tie = ((r64 + other.astype(F64)) * 0.5 == s) & (r64 != s) & (err != 0)
        if not np.any(tie):
            return r
        up = np.where(err > 0, np.maximum(r, other), np.minimum(r, other))
        return np.where(tie, up, r).astype(F32)


def fma64(a: Any, b: Any, c: Any) -> Any:
    """float64 ``a * b + c`` rounded once (Dekker's exact product, two-sum, then one rounding of the sum of the
    two error terms: exact except in rare double-rounding cases far below what float32 results can see)."""
    a, b, c = np.asarray(a, F64), np.asarray(b, F64), np.asarray(c, F64)
    with np.errstate(all="ignore"):
        p = a * b
        split = 134217729.0  # 2**27 + 1
        ah = a * split - (a * split - a)
        bh = b * split - (b * split - b)
        e = ((ah * bh - p) + ah * (b - bh) + (a - ah) * bh) + (a - ah) * (b - bh)
        s = p + c
        bb = s - p
        t = (p - (s - bb)) + (c - bb)
        out = s + (t + e)
    return np.where(np.isfinite(out), out, a * b + c)


__all__ = ["fma32", "fma64"]

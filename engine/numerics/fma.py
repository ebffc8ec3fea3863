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

from engine.numerics import native

F32 = np.float32
F64 = np.float64


_LOW29 = np.uint64((1 << 29) - 1)  # the float64 mantissa bits below float32's
_HALF29 = np.uint64(1 << 28)  # ... holding exactly half a float32 ulp: a float32 midpoint
_TINY = 2.0**-125  # below, float32 spacing is not float64's shifted (subnormal results): the careful path


def fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """float32 ``a * b + c`` rounded once to nearest-even."""
    compiled = native.fma32(a, b, c)  # float32 arrays: fmaf in fma_chain.c, the same bits
    if compiled is not None:
        return compiled
    a, b, c = np.asarray(a, F64), np.asarray(b, F64), np.asarray(c, F64)
    with np.errstate(all="ignore"):
        s = np.asarray(a * b + c)
        suspect = _suspects(s)
        out = s.astype(F32)
        if not suspect.any():  # the float64 sum is no float32 midpoint: rounding it is rounding the exact value
            return out
        if out.ndim == 0:
            return np.asarray(_fma32_careful(a, b, c), F32)
        # Only the suspects take the careful path.
        a, b, c = (np.broadcast_to(v, s.shape)[suspect] for v in (a, b, c))
        out[suspect] = _fma32_careful(a, b, c)
        return out


def _suspects(s: np.ndarray) -> np.ndarray:
    """Where rounding the float64 ``s`` to float32 may differ from rounding the exact value it stands for: a
    float32 midpoint, or a tiny non-zero value (an exact 0 is none: p + c rounds to 0 only when p == -c)."""
    with np.errstate(all="ignore"):
        t = np.abs(s)
        return ((s.view(np.uint64) & _LOW29) == _HALF29) | ((t < _TINY) & (t != 0))


def _needs_care(s: np.ndarray) -> bool:
    """Whether rounding the float64 ``s`` to float32 may differ from rounding the exact value it stands for."""
    return s.size > 0 and bool(_suspects(s).any())


def _fma32_careful(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The midpoint case: the float64 sum's error (two-sum) decides the direction."""
    p = a * b
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)  # p + c == s + err exactly
    r = s.astype(F32)
    r64 = r.astype(F64)
    other = np.where(r64 > s, np.nextafter(r, F32(-np.inf)), np.nextafter(r, F32(np.inf)))
    tie = ((r64 + other.astype(F64)) * 0.5 == s) & (r64 != s) & (err != 0)
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

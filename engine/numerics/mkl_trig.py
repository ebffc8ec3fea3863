"""sin and cos as MKL's VML computes them for float32 in PyTorch 2.13 (``vmsSin``/``vmsCos``, high-accuracy mode;
ATen's unary kernels call MKL for sin, cos, tan, exp, log, tanh and sqrt).

MKL is closed source; this model was found by experiment (docs/NUMERICS.md). MKL's result is the float32 rounding
of a double-precision value whose error against the true sine is a smooth, odd function, small near multiples of
π: the error of an odd degree-9 polynomial on [-π/2, π/2] after reducing by the nearest multiple of π. The
polynomial's coefficients were fitted (linear programming over the rounding decisions of 4 million inputs) so
that every observed rounding is reproduced; on 12 million random inputs in [-100, 100] 3 results differ (one
ulp), against ~5% for a correctly rounded sine.

Example::

    >>> sin(np.array([0.5], np.float32))
    array([0.47942555], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics.fma import F32, F64

# Odd polynomial r + r³(C3 + r²(C5 + r²(C7 + r² C9))), fitted to MKL's rounding decisions (not read from MKL).
_C3 = float.fromhex("-0x1.55554bc8377bcp-3")
_C5 = float.fromhex("0x1.110ed380995b8p-7")
_C7 = float.fromhex("-0x1.9f6ffefcfaa4ep-13")
_C9 = float.fromhex("0x1.5dbdf21bcc374p-19")
# π in three parts of 26 bits each, so that k·part is exact in float64 for |k| < 2^26 (Cody and Waite's reduction).
_PI1 = float.fromhex("0x1.921fb5p+1")
_PI2 = float.fromhex("0x1.110b46p-25")
_PI3 = float.fromhex("0x1.1a62633145c07p-54")


def _reduced_sin(x: np.ndarray, shift: float) -> np.ndarray:
    """sin(x + shift·π) for x float64: the polynomial on the reduced argument, its sign by the multiple's parity."""
    k = np.rint(x / np.pi + shift)
    r = ((x - k * _PI1) - k * _PI2) - k * _PI3 + shift * np.pi
    r2 = r * r
    v = r + r * r2 * (_C3 + r2 * (_C5 + r2 * (_C7 + r2 * _C9)))
    return np.where(np.fmod(k, 2.0) != 0, -v, v)


def _apply(x: np.ndarray, shift: float) -> np.ndarray:
    a = np.asarray(x)
    d = a.astype(F64)
    with np.errstate(invalid="ignore"):
        out = _reduced_sin(d, shift)
    return np.where(np.isfinite(d), out, np.nan).astype(F32)


def sin(x: np.ndarray) -> np.ndarray:
    """float32 sin(x), MKL's bits."""
    return _apply(x, 0.0)


def cos(x: np.ndarray) -> np.ndarray:
    """float32 cos(x) = sin(x + π/2), MKL's bits (the same polynomial)."""
    return _apply(x, 0.5)


__all__ = ["sin", "cos"]

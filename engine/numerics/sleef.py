"""SLEEF's float32 ``expf``, ``logf`` and ``log1pf`` (1-ulp variants, with FMA) and the sigmoid and log-sigmoid
PyTorch builds from them.

ATen's vectorised ``Vectorized<float>::exp()`` is ``Sleef_expf16_u10`` (AVX512) or ``Sleef_expf8_u10`` (AVX2): the
same algorithm and the same bits (measured on both: the sigmoid's vector part and log_softmax); only the vector
width, which sets where the sigmoid's scalar tail starts, differs; ``torch.sigmoid`` on float32 is
``1 / (1 + exp(-x))`` with that exp (measured: bit for bit on 10^6 inputs), unlike ``torch.exp`` itself, which
goes to MKL. The algorithm follows SLEEF's ``xexpf`` (src/libm/sleefsimdsp.c, github.com/shibatch/sleef):
reduce by the nearest multiple q of ln 2 (split in two constants), a degree-6 polynomial, scale by 2^q in two
steps; every multiply feeding an add is one FMA.

Example::

    >>> sigmoid(np.array([0.0], np.float32))
    array([0.5], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics import libm
from engine.numerics.cpu import vec_lanes
from engine.numerics.fma import F32, fma32

_R_LN2 = F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = F32(0.693145751953125)
_L2L = F32(1.428606765330187045e-06)
_POLY = [
    F32(v)
    for v in (
        0.000198527617612853646278381,
        0.00139304355252534151077271,
        0.00833336077630519866943359,
        0.0416664853692054748535156,
        0.166666671633720397949219,
        0.5,
    )
]


def _pow2i(q: np.ndarray) -> np.ndarray:
    return ((q + 127).astype(np.int32) << 23).view(F32)


def expf(d: np.ndarray) -> np.ndarray:
    """float32 e^d, SLEEF's bits."""
    d = np.asarray(d, F32)
    with np.errstate(all="ignore"):
        q = np.rint((d * _R_LN2).astype(F32))
        q = np.where(np.isfinite(q), q, 0).astype(np.int32)
        qf = q.astype(F32)
        s = fma32(qf, -_L2U, d)
        s = fma32(qf, -_L2L, s)
        u = np.full(d.shape, _POLY[0], F32)
        for c in _POLY[1:]:
            u = fma32(u, s, c)
        u = (F32(1) + fma32((s * s).astype(F32), u, s)).astype(F32)
        half = q >> 1
        u = ((u * _pow2i(half)).astype(F32) * _pow2i(q - half)).astype(F32)
        u = np.where(d < F32(-104), F32(0), u)
        u = np.where(d > F32(100), F32(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(F32)


def step() -> int:
    """ATen's vectorised loop takes 2 vectors at a time (32 floats on AVX512, 16 on AVX2); the rest goes through the
    scalar function."""
    return 2 * vec_lanes()


GRAIN = 32768  # at::internal::GRAIN_SIZE: longer loops are split in two between the 2 threads


def _chunks(n: int, threads: int = 2) -> list[tuple[int, int]]:
    """at::parallel_for's split of [0, n): ceil(n / t) elements a thread, t = min(threads, ceil(n / GRAIN))."""
    t = min(threads, -(-n // GRAIN)) if n else 1
    size = -(-n // t) if n else 0
    return [(b, min(b + size, n)) for b in range(0, n, size)] if n else []


def _getexp(x: np.ndarray) -> np.ndarray:
    """AVX512's getexp: floor(log2|x|) as a float (subnormals included)."""
    m, e = np.frexp(x)
    return (e - 1).astype(F32)


def logf(d: np.ndarray) -> np.ndarray:
    """float32 ln(d), SLEEF's ``xlogf_u1`` (AVX512 build): d = m·2^e with m in [0.75, 1.5), then
    ln d = e·ln 2 + 2·atanh((m - 1)/(m + 1)) in float-float arithmetic (a pair hi + lo)."""
    d = np.asarray(d, F32)
    with np.errstate(all="ignore"):
        scaled = (d * F32(1.0 / 0.75)).astype(F32)
        e = np.where(np.isinf(scaled), F32(128), _getexp(scaled)).astype(F32)
        m = np.ldexp(d, -_getexp(d).astype(np.int32)).astype(F32)  # mantissa in [1, 2)
        m = np.where(m >= F32(1.5), (m * F32(0.5)).astype(F32), m)  # getmant's [0.75, 1.5) interval
        lh, ll = F32(0.69314718246459960938), F32(-1.904654323148236017e-09)
        sx = (lh * e).astype(F32)
        sy = fma32(ll, e, fma32(lh, e, -sx))
        nx, ny = _add2(F32(-1), m)
        dx, dy = _add2(F32(1), m)
        t = (F32(1) / dx).astype(F32)
        xs = (nx * t).astype(F32)
        u = fma32(t, nx, -xs)
        v = fma32(-dy, t, fma32(-dx, t, F32(1)))
        xy = fma32(xs, v, fma32(ny, t, u))
        x2 = (xs * xs).astype(F32)
        p = fma32(fma32(np.full(d.shape, F32(0.3027294874), F32), x2, F32(0.3996108174)), x2, F32(0.6666694880))
        X, Y = (xs * F32(2)).astype(F32), (xy * F32(2)).astype(F32)
        S = (sx + X).astype(F32)
        sy = ((((sx - S).astype(F32) + X).astype(F32) + sy).astype(F32) + Y).astype(F32)
        sx = S
        w = ((x2 * xs).astype(F32) * p).astype(F32)
        S = (sx + w).astype(F32)
        sy = (((sx - S).astype(F32) + w).astype(F32) + sy).astype(F32)
        r = (S + sy).astype(F32)
        r = np.where(d == 0, F32(-np.inf), r)
        r = np.where(np.isposinf(d), F32(np.inf), r)
        return np.where((d < 0) | np.isnan(d), F32(np.nan), r).astype(F32)


def _add2(x: F32, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's two-sum in float32: s + t == x + y exactly."""
    s = (x + y).astype(F32)
    v = (s - x).astype(F32)
    return s, ((x - (s - v).astype(F32)).astype(F32) + (y - v).astype(F32)).astype(F32)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """float32 1 / (1 + e^-x) of a C-contiguous array, as ATen's sigmoid kernel computes it: SLEEF's exp over
    whole pairs of vectors, the scalar formula (the C library's expf: engine/numerics/libm.py) for the elements past
    the last pair of each thread's chunk."""
    x = np.asarray(x, F32)
    flat = x.reshape(-1)
    one = F32(1)
    width = step()
    with np.errstate(all="ignore"):
        out = np.empty(flat.shape, F32)
        for lo, hi in _chunks(flat.size):
            cut = lo + ((hi - lo) // width) * width
            out[lo:cut] = one / (one + expf(-flat[lo:cut]))
            out[cut:hi] = one / (one + libm.expf(-flat[cut:hi]))
    return out.astype(F32).reshape(x.shape)


def log1pf(d: np.ndarray) -> np.ndarray:
    """float32 ln(1 + d), SLEEF's ``xlog1pf`` (AVX2 build): 1 + d = 2^e·(1 + m) with 1 + m in [0.75, 1.5), m
    computed from d without rounding 1 + d (one FMA), then ln(1 + m) = 2·atanh(m / (2 + m)) in float-float
    arithmetic, as ``logf`` above."""
    d = np.asarray(d, F32)
    with np.errstate(all="ignore"):
        dp1 = (d + F32(1)).astype(F32)
        e = ((((dp1 * F32(1.0 / 0.75)).astype(F32).view(np.int32) >> 23) & 0xFF) - 0x7F).astype(np.int32)
        t = np.ldexp(F32(1), -e).astype(F32)
        m = fma32(d, t, (t - F32(1)).astype(F32))
        dx = (F32(2) + m).astype(F32)
        dy = ((F32(2) - dx).astype(F32) + m).astype(F32)
        rec = (F32(1) / dx).astype(F32)
        xs = (m * rec).astype(F32)
        u = fma32(rec, m, -xs)
        v = fma32(-dy, rec, fma32(-dx, rec, F32(1)))
        xy = fma32(xs, v, u)
        x2 = (xs * xs).astype(F32)
        p = fma32(fma32(np.full(d.shape, F32(0.3027294874), F32), x2, F32(0.3996108174)), x2, F32(0.6666694880))
        ef = e.astype(F32)
        lh, ll = F32(0.69314718246459960938), F32(-1.904654323148236017e-09)
        sx = (lh * ef).astype(F32)
        sy = fma32(ll, ef, fma32(lh, ef, -sx))
        X, Y = (xs * F32(2)).astype(F32), (xy * F32(2)).astype(F32)
        S = (sx + X).astype(F32)
        sy = ((((sx - S).astype(F32) + X).astype(F32) + sy).astype(F32) + Y).astype(F32)
        sx = S
        w = ((x2 * xs).astype(F32) * p).astype(F32)
        S = (sx + w).astype(F32)
        sy = (((sx - S).astype(F32) + w).astype(F32) + sy).astype(F32)
        r = (S + sy).astype(F32)
        r = np.where(d < F32(-1), np.array(-1, np.int32).view(F32), r)  # all bits set: a NaN with its sign bit
        r = np.where(np.isposinf(d), F32(np.inf), r)
        r = np.where(np.isnan(d), d, r)
        r = np.where(d == F32(-1), F32(-np.inf), r)
        return np.where((d == 0) & np.signbit(d), F32(-0.0), r).astype(F32)


def log_sigmoid(x: np.ndarray) -> np.ndarray:
    """float32 ln σ(x) as ATen's ``log_sigmoid`` CPU kernel computes it, every element through the vector path:
    min(x, 0) − log1p(e^(−|x|)), SLEEF's exp and log1p."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        return (np.minimum(x, F32(0)) - log1pf(expf(-np.abs(x)))).astype(F32)


__all__ = ["expf", "logf", "log1pf", "log_sigmoid", "sigmoid"]

"""SLEEF's float32 ``expf`` (1-ulp variant, AVX512 build with FMA) and the sigmoid PyTorch builds from it.

ATen's vectorised ``Vectorized<float>::exp()`` is ``Sleef_expf16_u10``; ``torch.sigmoid`` on float32 is
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

from engine.numerics.fma import F32, fma32

_R_LN2 = F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = F32(0.693145751953125)
_L2L = F32(1.428606765330187045e-06)
_POLY = [F32(v) for v in (0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
                          0.0416664853692054748535156, 0.166666671633720397949219, 0.5)]


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


STEP = 32  # ATen's vectorised loop takes 2 vectors of 16 at a time; the rest goes through the scalar function
GRAIN = 32768  # at::internal::GRAIN_SIZE: longer loops are split in two between the 2 threads


def _chunks(n: int, threads: int = 2) -> list[tuple[int, int]]:
    """at::parallel_for's split of [0, n): ceil(n / t) elements a thread, t = min(threads, ceil(n / GRAIN))."""
    t = min(threads, -(-n // GRAIN)) if n else 1
    size = -(-n // t) if n else 0
    return [(b, min(b + size, n)) for b in range(0, n, size)] if n else []


def sigmoid(x: np.ndarray) -> np.ndarray:
    """float32 1 / (1 + e^-x) of a C-contiguous array, as ATen's sigmoid kernel computes it: SLEEF's exp over
    whole pairs of vectors, the scalar formula (glibc's correctly rounded expf, computed here in double) for the
    elements past the last pair of each thread's chunk."""
    x = np.asarray(x, F32)
    flat = x.reshape(-1)
    one = F32(1)
    with np.errstate(all="ignore"):
        out = one / (one + np.exp(-flat.astype(np.float64)).astype(F32))
        for lo, hi in _chunks(flat.size):
            cut = lo + ((hi - lo) // STEP) * STEP
            out[lo:cut] = one / (one + expf(-flat[lo:cut]))
    return out.astype(F32).reshape(x.shape)


__all__ = ["expf", "sigmoid"]

"""SLEEF's float32 ``powf`` (``xpowf``, 1-ulp, with FMA), which ATen's ``Vectorized<float>::pow`` calls
(``Sleef_powf16_u10`` on AVX512, ``Sleef_powf8_u10`` on AVX2) for ``x ** e`` with a scalar exponent other than 2, 3,
-2, 0.5, -0.5 and -1 (``pow_tensor_scalar_optimized_kernel``): ``exp(y · log|x|)`` in float-float arithmetic
(``logkf``, ``expkf`` of src/libm/sleefsimdsp.c and the ``df*`` helpers of src/common/df.h, github.com/shibatch/sleef),
every multiply feeding an add one FMA, then the sign for odd integer exponents. The elements past the last pair of
vectors of each thread's chunk go through the scalar ``std::pow`` (glibc's ``powf``, modelled as correctly rounded).

Example::

    >>> pow_scalar(np.array([2.0, -3.0], np.float32), 4.0)
    array([16., 81.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics.cpu import capability
from engine.numerics.fma import F32, fma32
from engine.numerics.sleef import _chunks, _getexp, step

Pair = tuple[np.ndarray, np.ndarray]
_L2U, _L2L = F32(0.693145751953125), F32(1.428606765330187045e-06)
_EXPK_POLY = (
    0.00836596917361021041870117,
    0.0416710823774337768554688,
    0.166665524244308471679688,
    0.499999850988388061523438,
)
_R_LN2 = F32(1.442695040888963407359924681001892137426645954152985934135449406931)


def _f(x: object) -> np.ndarray:
    return np.asarray(x, F32)


def _add2_ff(x: np.ndarray, y: np.ndarray) -> Pair:  # dfadd2_vf2_vf_vf
    s = _f(x + y)
    v = _f(s - x)
    return s, _f(_f(x - _f(s - v)) + _f(y - v))


def _add2_pf(x: Pair, y: np.ndarray) -> Pair:  # dfadd2_vf2_vf2_vf
    s = _f(x[0] + y)
    v = _f(s - x[0])
    t = _f(_f(x[0] - _f(s - v)) + _f(y - v))
    return s, _f(t + x[1])


def _add2_pp(x: Pair, y: Pair) -> Pair:  # dfadd2_vf2_vf2_vf2
    s = _f(x[0] + y[0])
    v = _f(s - x[0])
    t = _f(_f(x[0] - _f(s - v)) + _f(y[0] - v))
    return s, _f(t + _f(x[1] + y[1]))


def _add_pp(x: Pair, y: Pair) -> Pair:  # dfadd_vf2_vf2_vf2 (|x| >= |y|)
    s = _f(x[0] + y[0])
    return s, _f(_f(_f(_f(x[0] - s) + y[0]) + x[1]) + y[1])


def _add_fp(x: np.ndarray, y: Pair) -> Pair:  # dfadd_vf2_vf_vf2
    s = _f(x + y[0])
    return s, _f(_f(_f(x - s) + y[0]) + y[1])


def _mul_pf(x: Pair, y: np.ndarray) -> Pair:  # dfmul_vf2_vf2_vf
    s = _f(x[0] * y)
    return s, fma32(x[1], y, fma32(x[0], y, -s))


def _mul_pp(x: Pair, y: Pair) -> Pair:  # dfmul_vf2_vf2_vf2
    s = _f(x[0] * y[0])
    return s, fma32(x[0], y[1], fma32(x[1], y[0], fma32(x[0], y[0], -s)))


def _squ(x: Pair) -> Pair:  # dfsqu_vf2_vf2
    s = _f(x[0] * x[0])
    return s, fma32(_f(x[0] + x[0]), x[1], fma32(x[0], x[0], -s))


def _div(n: Pair, d: Pair) -> Pair:  # dfdiv_vf2_vf2_vf2 (FMA)
    t = _f(F32(1) / d[0])
    s = _f(n[0] * t)
    u = fma32(t, n[0], -s)
    v = fma32(-d[1], t, fma32(-d[0], t, F32(1)))
    return s, fma32(s, v, fma32(n[1], t, u))


def _logk(d: np.ndarray) -> Pair:
    """logkf (AVX512 form: getexp/getmant; the same bits as AVX2's for normal inputs)."""
    scaled = _f(d * F32(1.0 / 0.75))
    e = _f(np.where(np.isinf(scaled), F32(128), _getexp(scaled)))
    m = _f(np.ldexp(d, -_getexp(d).astype(np.int32)))
    m = _f(np.where(m >= F32(1.5), _f(m * F32(0.5)), m))
    x = _div(_add2_ff(np.full_like(m, -1), m), _add2_ff(np.ones_like(m), m))
    x2 = _squ(x)
    t = fma32(np.full_like(m, 0.240320354700088500976562), x2[0], F32(0.285112679004669189453125))
    t = fma32(t, x2[0], F32(0.400007992982864379882812))
    c = (np.full_like(m, 0.66666662693023681640625), np.full_like(m, 3.69183861259614332084311e-09))
    s = _mul_pf((np.full_like(m, 0.69314718246459960938), np.full_like(m, -1.904654323148236017e-09)), e)
    s = _add_pp(s, (_f(x[0] * F32(2)), _f(x[1] * F32(2))))
    return _add_pp(s, _mul_pp(_mul_pp(x2, x), _add2_pp(_mul_pf(x2, t), c)))


def _expk(d: Pair) -> np.ndarray:
    u = _f(_f(d[0] + d[1]) * _R_LN2)
    q = np.rint(u)
    q = np.where(np.isfinite(q), q, 0).astype(np.int32)
    qf = q.astype(F32)
    s = _add2_pf(d, _f(qf * -_L2U))
    s = _add2_pf(s, _f(qf * -_L2L))
    hi = _f(s[0] + s[1])
    s = (hi, _f(_f(s[0] - hi) + s[1]))
    u = np.full_like(hi, 0.00136324646882712841033936)
    for c in _EXPK_POLY:
        u = fma32(u, s[0], F32(c))
    t = _add_pp(s, _mul_pf(_squ(s), u))
    t = _add_fp(np.ones_like(hi), t)
    r = _f(np.ldexp(_f(t[0] + t[1]), q))
    return _f(np.where(d[0] < F32(-104), F32(0), r))


def powf(x: np.ndarray, y: float) -> np.ndarray:
    """SLEEF's float32 x ** y for a scalar y, special cases as xpowf (zeros, infinities, nan, x = 1, y = 0)."""
    x = _f(x)
    yf = F32(y)
    with np.errstate(all="ignore"):
        yy = np.full_like(x, yf)
        r = _expk(_mul_pf(_logk(np.abs(x)), yy))
        r = _f(np.where(np.isnan(r), F32(np.inf), r))
        y_int = float(np.trunc(yf)) == float(yf) or abs(float(yf)) > 2**24
        y_odd = y_int and abs(float(yf)) < 2**24 and int(np.trunc(yf)) % 2 == 1
        sign = np.where(x > 0, F32(1), F32(-1) if y_odd else (F32(1) if y_int else F32(np.nan)))
        r = _f(r * sign)
        if np.isinf(yf):
            efx = (np.abs(x) - F32(1)) * np.sign(yf)
            r = _f(np.where(efx < 0, F32(0), np.where(efx == 0, F32(1), F32(np.inf))))
        zero_or_inf = np.isinf(x) | (x == 0)
        edge = np.copysign(np.where(np.signbit(yf) ^ (x == 0), F32(0), F32(np.inf)), x if y_odd else F32(1))
        r = np.where(zero_or_inf, edge, r)
        r = np.where(np.isnan(x) | np.isnan(yf), F32(np.nan), r)
        r = np.where((yf == 0) | (x == 1), F32(1), r)
    return _f(r)


def pow_scalar(x: np.ndarray, y: float) -> np.ndarray | None:
    """``x ** y`` of a float32 array as ATen's kernel computes it: SLEEF's powf over whole pairs of vectors of each
    thread's chunk, the scalar ``std::pow`` (correctly rounded here, in double) for the rest; ``y = -0.5`` is
    ATen's rsqrt. None on the "default" profile (no vectorised kernel: every element through std::pow)."""
    if isinstance(y, bool) or not isinstance(y, (int, float)) or x.dtype != F32:
        return None
    if y == -0.5:  # ATen's rsqrt kernel on every CPU: 1 / sqrt(x), rounded twice (measured: bit for bit)
        with np.errstate(all="ignore"):
            return _f(F32(1) / np.sqrt(x))
    if capability() == "default" or not x.flags.c_contiguous:
        return None
    x = _f(x)
    flat = x.reshape(-1)
    width = step()
    with np.errstate(all="ignore"):
        out = np.power(flat.astype(np.float64), float(y)).astype(F32)
        for lo, hi in _chunks(flat.size):
            cut = lo + ((hi - lo) // width) * width
            if cut > lo:
                out[lo:cut] = powf(flat[lo:cut], y)
    return out.reshape(x.shape)


def pow_tensors(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a ** b`` for two arrays. float32: ``std::pow(float, float)`` (glibc's powf: correctly rounded on every input
    tried), computed in double and rounded, as ATen's scalar loop does for a broadcast such as
    ``x.unsqueeze(-1).pow(p)`` (an inner dimension shorter than a vector); numpy's own float32 power is not correctly
    rounded (on AVX512 machines it differed on 427 of the 6,000 powers of ``polynomial_nn``). Same-shape contiguous
    operands go through SLEEF's vector powf in ATen: not modelled (correctly rounded here). Other dtypes: numpy."""
    if a.dtype == b.dtype == F32:
        with np.errstate(all="ignore"):
            return np.power(a.astype(np.float64), b).astype(F32)
    return np.asarray(np.power(a, b))


__all__ = ["powf", "pow_scalar", "pow_tensors"]

"""``vrsqrt14ps`` (AVX512's approximate 1/√x) as a table, and MKL's float32 sqrt built on it.

MKL's ``vmsSqrt`` in high-accuracy mode (what ``torch.sqrt`` calls) is not the correctly rounded ``sqrtps``:
measured bit for bit on 10^6 inputs, it is one Newton step with FMA from the 14-bit estimate,
``y = rsqrt14(x); s = x·y; h = y/2; sqrt = fma(fma(-s, s, x), h, s)`` (so 0.6% of results differ from the
correctly rounded square root by one ulp).

``rsqrt14`` of x = 4^k · 2^p · 1.f is 2^-k times an entry chosen by p and the top 15 bits of f (exactly 1 for
x = 4^k): 65,536 entries of 16 mantissa bits, read from the instruction on this CPU (Sapphire Rapids; the
instruction is specified to the bit, so every AVX512 CPU gives the same). They are stored below as zlib-compressed
differences (base64), a measured constant like a polynomial's coefficients.

Example::

    >>> sqrt(np.array([2.0], np.float32))
    array([1.4142135], dtype=float32)
"""

from __future__ import annotations

import base64
import zlib

import numpy as np

from engine.numerics.cpu import mkl_path
from engine.numerics.fma import F32, F64, fma32

_DELTAS = (
    "eNrt3Ylu2zAQBFD//ycXjVQEbeHIukiKlHg8F7ZF7u7szKwIF0nT/Jqnkz/zaUZabjnkvhnzDWOMnX+MMc6LPB/mlIq214czGHOGM/pg3Hqfr1"
    "Vk3t2JzSoRg841uswEOtfouo4+rzLLre7qQ8mISkyIEkqcf0piVvNib97pLtZrjCNiHDFxsVFjc/B++OqumnF5m5Gu3OKWGel6DWG5t/cMy7oH"
    "BRKPuM0jSDzi9jWkZc5+ZsxuvnyddcZUZ5115lGZzvFXaVXQx0PnB3Tozj/0etHfq/VraqynDCqooML5p4KK/lTsxUP3no9ghRVHsMIKK47ERl"
    "6vrcztytay2mTdszYToQ1rE6GtlqzXayt2dSc/Yts8OIQZhziEB2Y189i/jtmF3A4yvyBDdv4hj4m8F7OyGmHFCysr53/U1d+v/+95s70XstN7"
    "HcUUU8wpiiluuW75+X+EeC2WHxFLLCnAEkss+Zwa2/78j8HJkV++A0Y002wKGNHszns/wj7/n3hMc0+PiRZqaHGX0UJNRVrKfv63i4455pjzBX"
    "PM+z5FeXqHc4QIsR5E7kCE6PyPijidVj4fqZsdRRThTRFFFLXL+zzPXt97XLDHBVO3N97eZ+TuNQYYjMqA6xhg4Pw/s/6+XsbTVrVgjInIOTrN"
    "gnMQ6YxD/Pz8j7tOr3wevcdOHOOY2XBMJ46FXX9+/f8MMTxeIrNGJOz5gD322POhH/YlYmXRe9XFNTOBzjW6zCQ/+tdGZB+lbAQqxznOG6hUcP"
    "w+1HPc3t85QDkHOMABykd7vzuKDeewwQYbzmHzNJuf//5/Kzsev/yqx06cpZBCCjlL4Z19f//7H4Cnef5xdbaWKbOPTF7IlOn8j5o5Ldbr7P3X"
    "nnO5IZcbJi1Xbt8Ktz//t2tby2qT9WwitNFmIljTdlvW+/34KiyrDlQssMCiBRYcxgKLZ1lcvYYECVJrSLyBBGnk8z8fRqbojLZq+leoxp2hhi"
    "tqKFyv//8kwP7fCVJj+RHvjmGJJZbOP5ZY9s4yNmscDI6YLgx3CAzT7Q8jj4ftPpa/I9mDq1zlqQdXx3B1iRnboXT+iIxoxohmU6AZo/IdtnL2"
    "644QU6pqjuBNEUUU4U3RKIrC9kJ2WqkbTzGnKKbY+aeY4qP18XcGwnPHwKGEIxzhCCUcaQln2oi4HvOaEybv2l3g2uRTr8aq5hW1nOa0amrbdf"
    "rz9wcf7aTGSmY/1Zc7WHKHO/pi2Wrf79fP2Nl7fEV6pQoO8IzLKjjAs/wVr1doXl1ZWNNmIrRhTZuJpGN8fv7Xt6qdHyWU0EUJJZS0p2tdE4pW"
    "SwQrrHpjxRGssHL+74jEV11/bRWbMyYK290C20T7wD76GsBZ7OkaDKnCEEMMqcIwvSY0P/9ub32opFIfKqmkshWVcTxkypQ5YiYvZMrsMXOvNg"
    "75jis9e+jJUVPU052j5/M9j3LOUdrPGEEjrzkpgwu85uQ646w2dZUbz4oLnOWlFRc4m2919H2AnDt39aFpdE2mQgFN7jSa4nbWsTy7JbHH2+UF"
    "N3nMTbvczO/FeVSGjH4yeCJDhvM/asb75/9in2lVT1S2w3QEjaZBI6amQWMdTNM73v3ElK+YYoopXzHN8/wDpbjSQw=="
)


def _table() -> np.ndarray:
    deltas = np.frombuffer(zlib.decompress(base64.b64decode("".join(_DELTAS))), dtype=np.int16)
    mant = np.cumsum(deltas.astype(np.int64)) & 0xFFFF
    return ((126 << 23) | (mant << 7)).astype(np.int32).view(F32)  # values in [0.5, 1)


_TABLE = _table()


def rsqrt14(x: np.ndarray) -> np.ndarray:
    """float32 ``_mm512_rsqrt14_ps(x)`` (inf at ±0, 0 at inf, nan below 0)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        tiny = (x != 0) & (np.abs(x) < F32(2.0**-100))  # subnormals: 4^32 · x has the same table entry
        xs = np.where(tiny, (x.astype(F64) * 2.0**64).astype(F32), x)
        bits = xs.view(np.int32)
        e = ((bits >> 23) & 0xFF) - 127
        p = e & 1
        frac = bits & 0x7FFFFF
        y = _TABLE[(p << 15) | (frac >> 8)].view(np.int32)
        y = np.where((frac == 0) & (p == 0), np.int32(127 << 23), y)  # exactly 1 for powers of 4
        out = (y - (((e - p) >> 1) << 23)).astype(np.int32).view(F32)  # times 2^-k, k = (e - p) / 2
        out = np.where(tiny, (out.astype(F64) * 2.0**32).astype(F32), out)
        out = np.where(x == 0, F32(np.inf), out)
        out = np.where(np.isposinf(x), F32(0), out)
        return np.where((x < 0) | np.isnan(x), F32(np.nan), out).astype(F32)


def sqrt(x: np.ndarray) -> np.ndarray:
    """float32 √x, MKL's bits (±0, inf and nan as IEEE) on the "avx512" profile. Elsewhere MKL's sqrt is not
    modelled (on the AMD EPYC measured, "avx2", its results have up to 0.75 ulp of error and differ from the
    correctly rounded root on 17-20% of inputs, by one ulp): the correctly rounded root, within one ulp of MKL's."""
    x = np.asarray(x, F32)
    if mkl_path() != "avx512":
        with np.errstate(invalid="ignore"):
            return np.sqrt(x)
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < F32(2.0**-100)  # tiny values (measured: below ~2^-112) scaled up by 2^64, the root down
        xs = np.where(tiny, (x.astype(F64) * 2.0**64).astype(F32), x)
        y = rsqrt14(xs)
        s = (xs * y).astype(F32)
        h = (y * F32(0.5)).astype(F32)
        out = fma32(fma32(-s, s, xs), h, s)
        out = np.where(tiny, (out.astype(F64) * 2.0**-32).astype(F32), out)
        out = np.where(x == 0, x, out)
        out = np.where(np.isposinf(x), x, out)
        return np.where((x < 0) | np.isnan(x), F32(np.nan), out).astype(F32)


__all__ = ["rsqrt14", "sqrt"]

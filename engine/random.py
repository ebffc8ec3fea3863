"""A torch-compatible random generator: after ``torch.manual_seed(s)``, ``torch.rand``, ``torch.randn``,
``torch.randint``, ``normal_``, ``uniform_`` and ``nn.Linear``'s init give PyTorch's CPU numbers bit for bit.

Both PyTorch and numpy's legacy ``RandomState(seed)`` run the 32-bit Mersenne Twister seeded the same way, so
numpy supplies the raw 32-bit words and this module repeats PyTorch's recipes for turning them into numbers:

* float32 uniform: ``(u32 & 0xFFFFFF) * 2**-24`` (24 random bits, the float32 mantissa), scaled in double;
* float64 uniform: two words make 64 bits, ``& (2**53 - 1)`` then ``* 2**-53``;
* normal, 16 or more float32 values: fill with uniforms, then Box–Muller on blocks of 16, pairing element j
  with j + 8 (the tail block is redrawn at the end) using the AVX math PyTorch's CPU kernel uses;
* normal, fewer than 16 values: double-precision Box–Muller, one pair at a time, keeping the spare value for
  the next call (as PyTorch's generator does).

Example::

    >>> torch.manual_seed(0); torch.rand(2)
    tensor([0.4963, 0.7682])
"""

from __future__ import annotations

import math
import secrets
from typing import Any

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from engine.numerics import native
from engine.run_state import address_of, serial_hash, state
from engine.tensor import _TYPE_NAMES, Tensor

_F = np.float32


DEFAULT_SEED = 67280421310721  # what a fresh torch.Generator() starts from


class _NoSeed(ISeedSequence):
    """What numpy's MT19937 first fills its state from, before ``legacy_mersenne`` seeds it as ``RandomState(s)``
    does: a list of zeros (numpy's own unseeded path draws OS entropy and hashes it: ~100 times as long)."""

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> Any:
        return [0] * n_words


_NO_SEED = _NoSeed()


def legacy_mersenne(seed: Any) -> np.random.RandomState:
    """``np.random.RandomState(seed)``, the same state bit for bit, made without drawing entropy first."""
    bits = np.random.MT19937(_NO_SEED)
    bits._legacy_seeding(seed)
    return np.random.RandomState(bits)


class Generator:
    """One run's random state (PyTorch's default CPU generator).

    ``torch.Generator()`` in user code starts from PyTorch's fixed default seed; the run's own generator, when
    the code never seeds, from a random one (reported so that the run can be replayed)."""

    def __init__(self, seed: int | None = None) -> None:
        self.manual_seed(fresh_seed(32) if seed is None else seed)

    @classmethod
    def _user(cls, device: Any = "cpu") -> Generator:
        return cls(DEFAULT_SEED)

    def seed(self) -> int:
        s = fresh_seed(32)
        self.manual_seed(s)
        return s

    def manual_seed(self, seed: int) -> Generator:
        if not isinstance(seed, int):  # torch.Generator's C method (torch.manual_seed converts with int() first)
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        self._rs = legacy_mersenne(self._seed & 0xFFFFFFFF)
        self._raw = self._rs._bit_generator.random_raw  # the twister's next words, as randint(0, 2**32) draws them
        self._next_normal: float | None = None
        return self

    def initial_seed(self) -> int:
        return self._seed

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {address_of(self)}>"

    __hash__ = serial_hash

    # ---- raw words -------------------------------------------------------------------------------------------
    def _u32(self, n: int) -> np.ndarray:
        if n == 0:
            return np.zeros(0, dtype=np.uint32)
        return self._raw(n).astype(np.uint32)  # randint(0, 2**32, n, uint32)'s words, without its checks

    def _u64(self, n: int) -> np.ndarray:
        w = self._u32(2 * n).astype(np.uint64).reshape(n, 2)
        return (w[:, 0] << np.uint64(32)) | w[:, 1]

    # ---- distributions ---------------------------------------------------------------------------------------
    def _unit(self, n: int, dtype: Any) -> np.ndarray:
        """n uniforms in [0, 1) as float64 values, drawn the way PyTorch draws them for ``dtype``."""
        if np.dtype(dtype) == np.float64:
            return (self._u64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0**-53
        return (self._u32(n) & np.uint32(0xFFFFFF)).astype(np.float64) * 2.0**-24

    def _uniform(self, n: int, low: float, high: float, dtype: Any = np.float32) -> np.ndarray:
        dt = np.dtype(dtype)
        lo, hi = (float(_F(low)), float(_F(high))) if dt == np.float32 else (float(low), float(high))
        u = self._unit(n, dt)
        v = (_fma64(u, hi - lo, lo) if dt == np.float64 else u * (hi - lo) + lo).astype(dt)
        return np.where(v == dt.type(hi), dt.type(lo), v)

    def _normal(self, n: int, mean: float = 0.0, std: float = 1.0, dtype: Any = np.float32) -> np.ndarray:
        dt = np.dtype(dtype)
        if n >= 16:
            return _normal_fill(self, n, mean, std, dt)
        out = np.empty(n, dtype=dt)
        for i in range(n):
            out[i] = self._normal_double(mean, std)
        return out

    def _normal_double(self, mean: float, std: float) -> float:
        if self._next_normal is not None:
            z, self._next_normal = self._next_normal, None
            return float(_fma64(z, std, mean))
        u1, u2 = self._unit(2, np.float64)
        r = math.sqrt(-2.0 * math.log1p(-float(u2)))
        theta = 2.0 * math.pi * float(u1)
        self._next_normal = r * math.sin(theta)
        return float(_fma64(r * math.cos(theta), std, mean))

    def _randint(self, n: int, low: int, high: int) -> np.ndarray:
        rng = high - low
        if rng <= 0:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        raw = self._u64(n) if rng >= 1 << 28 else self._u32(n).astype(np.uint64)
        return (raw % np.uint64(rng)).astype(np.int64) + low


# ---- PyTorch's float32 Box–Muller over blocks of 16 (ATen's NormalFill16, AVX2 build) ----------------------------
def _fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """float32 a*b + c rounded once (the product is exact in float64)."""
    return (np.asarray(a, dtype=np.float64) * np.float64(b) + np.asarray(c, dtype=np.float64)).astype(_F)


def _fma64(a: Any, b: Any, c: Any) -> Any:
    """float64 a*b + c rounded once, as PyTorch's FMA-contracted C++ computes it: a*b = p + e exactly (Dekker's
    split), p + c = s + t exactly (Knuth's two-sum), then s + (t + e)."""
    a, b, c = np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64)
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


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.int32)


def _log256(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's log256_ps (cephes polynomial) in float32, operation for operation."""
    one = _F(1.0)
    invalid = x <= 0
    x = np.maximum(x, np.array(0x00800000, dtype=np.int32).view(_F))
    imm0 = (_bits(x).view(np.uint32) >> np.uint32(23)).astype(np.int32)
    x = ((_bits(x) & np.int32(~0x7F800000)) | _bits(np.array(0.5, dtype=_F))).view(_F)
    imm0 = imm0 - np.int32(0x7F)
    e = imm0.astype(_F) + one
    mask = x < _F(0.707106781186547524)
    tmp = np.where(mask, x, _F(0))
    x = x - one
    e = e - np.where(mask, one, _F(0))
    x = x + tmp
    z = x * x
    # The compiler fuses each multiply feeding an add into one FMA (-ffp-contract=fast): so do we.
    y = np.full(x.shape, 7.0376836292e-2, dtype=_F)
    for c in (
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    ):
        y = _fma(y, x, _F(c))
    y = y * x
    y = _fma(y, z, e * _F(-2.12194440e-4))
    y = _fma(-z, _F(0.5), y)
    x = x + y
    x = _fma(e, _F(0.693359375), x)
    return np.where(invalid, _F(np.nan), x).astype(_F)


def _sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun's sincos256_ps in float32, operation for operation."""
    sign_sin = _bits(x) & np.int32(-0x80000000)
    x = np.abs(x)
    y = x * _F(1.27323954473516)
    j = y.astype(np.int32)  # truncation, as _mm256_cvttps_epi32
    j = (j + 1) & ~np.int32(1)
    y = j.astype(_F)
    swap_sin = (j & 4) << 29
    poly = (j & 2) == 0
    x = _fma(y, _F(-0.78515625), x)
    x = _fma(y, _F(-2.4187564849853515625e-4), x)
    x = _fma(y, _F(-3.77489497744594108e-8), x)
    sign_cos = (~(j - 2) & 4) << 29
    sign_sin = sign_sin ^ swap_sin
    z = x * x
    yc = _fma(np.full(z.shape, 2.443315711809948e-005, dtype=_F), z, _F(-1.388731625493765e-003))
    yc = _fma(yc, z, _F(4.166664568298827e-002))
    yc = yc * z
    yc = _fma(yc, z, -(z * _F(0.5)))
    yc = yc + _F(1.0)
    ys = _fma(np.full(z.shape, -1.9515295891e-4, dtype=_F), z, _F(8.3321608736e-3))
    ys = _fma(ys, z, _F(-1.6666654611e-1))
    ys = ys * z
    ys = _fma(ys, x, x)
    s = np.where(poly, ys, yc).astype(_F)
    c = np.where(poly, yc, ys).astype(_F)
    s = (_bits(s) ^ sign_sin).view(_F)
    c = (_bits(c) ^ sign_cos.astype(np.int32)).view(_F)
    return s, c


def _box_muller16(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """blocks: (k, 16) float32 uniforms -> (k, 16) normals."""
    compiled = native.box_muller16_f32(blocks, float(_F(std)), float(_F(mean)))  # the same operations, compiled
    if compiled is not None:
        return compiled
    u1 = _F(1.0) - blocks[:, :8]
    u2 = blocks[:, 8:]
    with np.errstate(invalid="ignore", divide="ignore"):
        radius = np.sqrt(_F(-2.0) * _log256(u1))
    theta = _F(2.0 * math.pi) * u2
    s, c = _sincos256(theta)
    n1, n2 = radius * c, radius * s
    out = np.empty_like(blocks)
    # fused multiply-add n * std + mean, rounded once (exact for std=1, mean=0)
    out[:, :8] = (n1.astype(np.float64) * float(_F(std)) + float(_F(mean))).astype(_F)
    out[:, 8:] = (n2.astype(np.float64) * float(_F(std)) + float(_F(mean))).astype(_F)
    return out


def _box_muller16_double(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    u1 = 1.0 - blocks[:, :8]
    u2 = blocks[:, 8:]
    radius = np.sqrt(-2.0 * np.log(u1))
    theta = 2.0 * math.pi * u2
    out = np.empty_like(blocks)
    out[:, :8] = _fma64(radius * np.cos(theta), std, mean)
    out[:, 8:] = _fma64(radius * np.sin(theta), std, mean)
    return out


def _units(gen: Generator, n: int, is32: bool) -> np.ndarray:
    """``gen._unit(n, dtype)`` in the working dtype. float32's are made in float32 at once: 24 random bits times
    2**-24 is exact in float32 as in float64, so the values are the same."""
    if is32:
        return (gen._u32(n) & np.uint32(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)
    return gen._unit(n, np.float64)


def _normal_fill(gen: Generator, n: int, mean: float, std: float, dt: np.dtype) -> np.ndarray:
    is32 = dt != np.float64
    bm = _box_muller16 if is32 else _box_muller16_double
    data = _units(gen, n, is32)
    full = (n // 16) * 16
    if full:
        data[:full] = bm(data[:full].reshape(-1, 16), mean, std).reshape(-1)
    if n % 16:
        tail = _units(gen, 16, is32)
        data[n - 16 :] = bm(tail.reshape(1, 16), mean, std).reshape(-1)
    return data.astype(dt, copy=False)


# ---- the run's generator ---------------------------------------------------------------------------------------
def fresh_seed(bits: int) -> int:
    """A seed drawn at random, noted on the run: from here on its output may differ from one run to the next."""
    state().fresh_seed = True
    return secrets.randbits(bits)


def generator() -> Generator:
    """The current run's generator, created (with a random seed) on first use."""
    st = state()
    gen: Generator | None = st.generator
    if gen is None:
        gen = st.generator = Generator()
    return gen


def manual_seed(seed: int) -> Generator:
    """``torch.manual_seed(seed)``: make the run's random numbers reproducible."""
    seed = int(seed)
    st = state()
    gen: Generator | None = st.generator
    if gen is None:
        gen = st.generator = Generator(seed)
    else:
        gen.manual_seed(seed)
    return gen


def seed() -> int:
    """``torch.seed()``: reseed with a fresh random seed and return it."""
    s = fresh_seed(32)
    manual_seed(s)
    return s


def initial_seed() -> int:
    """The seed of the run's generator (the one the runner reports so the run can be replayed)."""
    return generator().initial_seed()


def _floating_kernel(kernel: str, dtype: Any) -> None:
    """Random fills PyTorch builds for floating dtypes only (``torch.rand(2, dtype=torch.long)``)."""
    if np.dtype(dtype._np).kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE_NAMES[np.dtype(dtype._np).name]}'")


def normal_fill(shape: tuple[int, ...], mean: float, std: float, dtype: Any) -> Any:
    """A tensor of ``shape`` with normal values (what ``tensor.normal_(mean, std)`` writes)."""
    _floating_kernel("normal_kernel_cpu", dtype)
    n = int(np.prod(shape)) if shape else 1
    return Tensor._make(generator()._normal(n, mean, std, dtype._np).reshape(shape))


def uniform_fill(shape: tuple[int, ...], low: float, high: float, dtype: Any) -> Any:
    """A tensor of ``shape`` with uniform values in [low, high) (what ``tensor.uniform_(a, b)`` writes)."""
    _floating_kernel("check_uniform_bounds", dtype)
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}")
    n = int(np.prod(shape)) if shape else 1
    return Tensor._make(generator()._uniform(n, low, high, dtype._np).reshape(shape))

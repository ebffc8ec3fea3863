"""Samplers beyond ``rand``/``randn``/``randint``: ``bernoulli``, ``exponential_``, ``random_`` and
``multinomial``, each drawing PyTorch's CPU stream (the same numbers for the same seed).

Example::

    >>> torch.manual_seed(5); torch.bernoulli(torch.full((4,), 0.3))
    tensor([0., 1., 0., 0.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import random
from engine.meta import is_meta
from engine.ops import inplace
from engine.ops.api import tensor_methods, torch_op
from engine.ops.argcheck import dtype_name, floating
from engine.ops.factories import _new
from engine.ops.operands import check_alloc
from engine.tensor import Tensor


@torch_op(
    "bernoulli",
    method=False,
    signature=("Tensor input, *, Generator? generator=None", "Tensor input, float p, *, Generator? generator=None"),
)
def bernoulli(p: Tensor, prob: Any = None, generator: Any = None) -> Tensor:
    """``torch.bernoulli(probs)``: 1 where a uniform draw falls below each probability (PyTorch's CPU stream: a
    24-bit uniform per element for float32 probabilities, 53-bit for float64); ``torch.bernoulli(x, 0.3)``: x's
    shape filled as ``x.new_empty(…).bernoulli_(0.3)`` fills it."""

    if prob is not None:
        return bernoulli_(_new(np.zeros_like(p._data)), prob, generator)
    floating("bernoulli_tensor_cpu_p_", p)

    gen = generator if generator is not None else random.generator()
    if not ((p._data >= 0) & (p._data <= 1)).all():  # NaN fails both comparisons
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If "
            "so, please report an enhancement request to PyTorch.)"
        )
    dt = p._data.dtype if p._data.dtype.kind == "f" else np.dtype(np.float32)
    u = gen._unit(p._data.size, dt).reshape(p._data.shape)
    return _new((u < p._data.astype(np.float64)).astype(dt))


def bernoulli_(t: Tensor, p: float = 0.5, generator: Any = None) -> Tensor:
    """``x.bernoulli_(p)``: fill with 1 (probability p) or 0, one 53-bit uniform per element."""
    if is_meta(t._data):  # nothing drawn: PyTorch's meta kernels leave the generator alone
        return t
    gen = generator if generator is not None else random.generator()
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    u = gen._unit(t._data.size, np.float64).reshape(t._data.shape)
    return inplace.copy_(t, _new((u < float(p)).astype(t._data.dtype)))


def exponential_(t: Tensor, lambd: float = 1.0, generator: Any = None) -> Tensor:
    """``x.exponential_(λ)``: -ln(1 - u) / λ from one 53-bit uniform per element (PyTorch's CPU stream)."""

    if t._data.dtype.kind != "f":
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {dtype_name(t)}"
        )
    if is_meta(t._data):
        return t
    gen = generator if generator is not None else random.generator()
    u = gen._unit(t._data.size, np.float64).reshape(t._data.shape)
    return inplace.copy_(t, _new((-1.0 / lambd * np.log1p(-u)).astype(t._data.dtype)))


def random_(t: Tensor, low: Any = None, high: Any = None, generator: Any = None) -> Tensor:
    """``x.random_(to)`` / ``x.random_(from, to)``: integers in [from, to); ``x.random_()``: PyTorch's full range."""
    if is_meta(t._data):
        return t

    gen = generator if generator is not None else random.generator()
    n, dt = t._data.size, t._data.dtype
    if low is not None and high is None:
        low, high = 0, low
    if low is not None:
        values = gen._randint(n, int(low), int(high))
    elif dt == np.int64 or dt == np.float64:
        span = (1 << 63) if dt == np.int64 else (1 << 53) + 1
        values = (gen._u64(n) % np.uint64(span)).astype(np.int64)
    else:
        span = {np.dtype(np.float32): (1 << 24) + 1, np.dtype(np.int32): 1 << 31}.get(dt, 1 << 31)
        values = (gen._u32(n).astype(np.uint64) % np.uint64(span)).astype(np.int64)
    return inplace.copy_(t, _new(values.reshape(t._data.shape).astype(dt)))


@torch_op(
    "multinomial", signature="Tensor input, int num_samples, bool replacement=False, *, Generator? generator=None"
)
def multinomial(p: Tensor, num_samples: int, replacement: bool = False, generator: Any = None) -> Tensor:
    """Indices drawn from the rows of ``p`` (weights, not necessarily normalised), as PyTorch's CPU kernel draws
    them: one sample (or none replaced) by ``argmax(p / Exp(1))``; with replacement, by inverting the cumulative
    distribution with one 53-bit uniform per sample."""

    gen = generator if generator is not None else random.generator()
    if isinstance(num_samples, bool) or not isinstance(num_samples, int):
        raise TypeError(
            f"multinomial(): argument 'num_samples' (position 2) must be int, not {type(num_samples).__name__}"
        )
    if p._data.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if p._data.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {p.type()[6:-6]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    probs = p._data if p._data.ndim == 2 else p._data.reshape(1, -1)
    rows, k = probs.shape
    check_alloc(rows * num_samples)
    if not replacement and num_samples > k:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if not np.isfinite(probs).all() or (probs < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (probs.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement or num_samples == 1:
        q = (-np.log1p(-gen._unit(probs.size, np.float64))).astype(probs.dtype).reshape(probs.shape)
        with np.errstate(divide="ignore"):
            scores = probs / q
        out = np.argsort(-scores, axis=1, kind="stable")[:, :num_samples]
    else:
        cum = np.cumsum(probs.astype(np.float64), axis=1)
        cum = cum / cum[:, -1:]
        out = np.empty((rows, num_samples), dtype=np.int64)
        for r in range(rows):
            u = gen._unit(num_samples, np.float64)
            out[r] = np.searchsorted(cum[r], u, side="left")
    out = out.astype(np.int64)
    return _new(out if p._data.ndim == 2 else out.reshape(-1))


def _normal_(self: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if is_meta(self._data):
        return self
    return inplace.copy_(self, random.normal_fill(self.shape, mean, std, self.dtype))


def _uniform_(self: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    if is_meta(self._data):
        return self
    return inplace.copy_(self, random.uniform_fill(self.shape, a, b, self.dtype))


tensor_methods(
    {
        "bernoulli_": bernoulli_,
        "exponential_": exponential_,
        "random_": random_,
        "normal_": _normal_,
        "uniform_": _uniform_,
    },
    signatures={
        "bernoulli_": (
            "Tensor input, Tensor p, *, Generator? generator=None",
            "Tensor input, float p=0.5, *, Generator? generator=None",
        ),
        "exponential_": "Tensor input, float lambd=1, *, Generator? generator=None",
        "random_": (
            "Tensor input, *, Generator? generator=None",
            "Tensor input, int to, *, Generator? generator=None",
            "Tensor input, int from, int? to, *, Generator? generator=None",
        ),
        "uniform_": "Tensor input, float from=0, float to=1, *, Generator? generator=None",
        "normal_": "Tensor input, float mean=0, float std=1, *, Generator? generator=None",
    },
)

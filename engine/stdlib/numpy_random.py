"""The sandbox's ``np.random``: numpy's legacy generator (``RandomState``, MT19937), private to the run, so that
``np.random.seed(n)`` then ``rand``/``randn``/``randint``/``uniform``/``normal``/``permutation``/``shuffle``/
``choice`` give numpy's own numbers for ``n``. Used before any seed, it is seeded from the run's seed (as the
sandbox's ``random`` is), so a replayed run replays them. Sizes are checked against the budget before drawing.
``np.random.RandomState(n)`` and ``np.random.default_rng(n)`` give generators of the learner's own.

Example::

    >>> r = make_numpy_random(Budget())
    >>> r.seed(0); r.rand()
    0.5488135039273248
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ndarray import check, host_array, ndarray, prod, unwrap, unwrap_args, wrap
from engine.random import legacy_mersenne
from engine.run_state import state
from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace


def _size_of(size: Any) -> int:
    if size is None:
        return 1
    if isinstance(size, (list, tuple)):
        return prod(int(s) for s in size)
    return int(size)


class _Draws:
    """The drawing methods shared by ``RandomState`` and ``Generator``: each checks the size, draws from the
    private numpy generator and wraps the result."""

    __slots__ = ("_rng", "_seeded")

    def _gen(self) -> Any:
        raise NotImplementedError

    def _draw(self, method: str, *args: Any, size: Any = None, **kwargs: Any) -> Any:
        plain, named, n = unwrap_args(args, kwargs)
        check(max(n, _size_of(size)))  # the parameters broadcast to the size asked for
        if size is not None:
            named["size"] = size
        return wrap(getattr(self._gen(), method)(*plain, **named))

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        return self._draw("uniform", low, high, size=size)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._draw("normal", loc, scale, size=size)

    def random(self, size: Any = None) -> Any:
        return self._draw("random", size=size)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        return self._draw("exponential", scale, size=size)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        return self._draw("binomial", n, p, size=size)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        return self._draw("poisson", lam, size=size)

    def permutation(self, x: Any) -> Any:
        check(int(x) if isinstance(x, int) else unwrap(x)[1])
        return self._draw("permutation", x)

    def shuffle(self, x: Any) -> None:
        if isinstance(x, ndarray):
            self._gen().shuffle(host_array(x))
        elif isinstance(x, list):
            self._gen().shuffle(x)
        else:
            raise TypeError("shuffle() takes an array or a list here")

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        plain, named, n = unwrap_args((a,), {} if p is None else {"p": p})
        check(n + _size_of(size))
        if not isinstance(plain[0], int):
            check(n * _size_of(size))
        return wrap(self._gen().choice(plain[0], size=size, replace=replace, **named))


class RandomState(_Draws):
    """``np.random.RandomState(seed)``: numpy's legacy MT19937 generator."""

    __slots__ = ()

    def __init__(self, seed: Any = None) -> None:
        self._rng: Any = None  # made at first use: most runs never draw from numpy
        self._seeded = False
        if seed is not None:
            self.seed(seed)

    def __repr__(self) -> str:
        return "RandomState(MT19937)"

    def _gen(self) -> Any:
        if self._rng is None:
            self._rng = legacy_mersenne(0)
        if not self._seeded:  # first use before any seed: the run's seed (see the module's docstring)
            gen = state().generator
            self._rng.seed((gen.initial_seed() if gen is not None else 0) % 2**32)
            self._seeded = True
        return self._rng

    def seed(self, seed: Any = None) -> None:
        if seed is None:
            self._seeded = False
            return
        plain, _ = unwrap(seed)
        check(np.size(plain))
        if self._rng is None:
            self._rng = legacy_mersenne(0)
        self._rng.seed(plain)
        self._seeded = True

    def rand(self, *dims: Any) -> Any:
        return self._draw("random_sample", size=dims or None)

    def randn(self, *dims: Any) -> Any:
        return self._draw("standard_normal", size=dims or None)

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        return self._draw("randint", low, high, size=size, dtype=dtype)

    def random_sample(self, size: Any = None) -> Any:
        return self._draw("random_sample", size=size)

    def standard_normal(self, size: Any = None) -> Any:
        return self._draw("standard_normal", size=size)


class Generator(_Draws):
    """``np.random.default_rng(seed)``: numpy's PCG64 generator."""

    __slots__ = ()

    def __init__(self, seed: Any = None) -> None:
        if seed is None:
            gen = state().generator
            seed = gen.initial_seed() if gen is not None else 0
        plain, n = unwrap(seed)
        check(n)
        self._rng = np.random.default_rng(plain)
        self._seeded = True

    def __repr__(self) -> str:
        return "Generator(PCG64)"

    def _gen(self) -> Any:
        return self._rng

    def integers(self, low: Any, high: Any = None, size: Any = None, endpoint: bool = False) -> Any:
        return self._draw("integers", low, high, size=size, endpoint=endpoint)

    def standard_normal(self, size: Any = None) -> Any:
        return self._draw("standard_normal", size=size)


_FUNCTIONS = [
    "seed",
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "standard_normal",
    "uniform",
    "normal",
    "exponential",
    "binomial",
    "poisson",
    "permutation",
    "shuffle",
    "choice",
]


def make_numpy_random(budget: Budget) -> SafeNamespace:
    """A fresh ``np.random`` for one run: its functions are the methods of one hidden ``RandomState``."""
    hidden = RandomState()
    members: dict[str, Any] = {name: getattr(hidden, name) for name in _FUNCTIONS}
    members["RandomState"] = RandomState
    members["default_rng"] = Generator
    members["Generator"] = Generator
    return SafeNamespace("numpy.random", members)


__all__ = ["Generator", "RandomState", "make_numpy_random"]

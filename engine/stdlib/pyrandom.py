"""The sandbox's ``random``: Python's own Mersenne Twister (``random.Random``), private to the run.

Seeded by ``random.seed(s)`` as Python seeds it, so a course's numbers are Python's. Used before any
``random.seed``, it is seeded from the run's seed (the one ``torch.manual_seed`` set, or the one the run drew and
reports), so that replaying a run with its seed replays these numbers too; a drawn seed marks the run as not
reproducible, exactly as an unseeded ``torch.rand`` does. Sizes (``sample``, ``choices``, ``getrandbits``) are
checked against the run's budget before anything is built.

Example::

    >>> r = make_random(Budget())
    >>> r.seed(0); r.random()
    0.8444218515250481
"""

from __future__ import annotations

import random as _random
from typing import Any

from engine.run_state import state
from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace


class Random:
    """``random.Random(seed)``: a generator of the learner's own (Python's numbers for its seed)."""

    __slots__ = ("_rng", "_budget", "_seeded")
    __module__ = "engine.stdlib.random"

    def __init__(self, x: Any = None, *, _budget: Budget | None = None) -> None:
        self._rng = _random.Random(0)
        self._budget = _budget if _budget is not None else Budget()
        self._seeded = False
        if x is not None:
            self.seed(x)

    def __repr__(self) -> str:
        return "<random.Random object>"

    def _ready(self) -> _random.Random:
        if not self._seeded:  # first use before any seed: the run's seed (see the module's docstring)
            self._rng.seed(state().generator.initial_seed() if state().generator is not None else 0)
            self._seeded = True
        return self._rng

    def seed(self, a: Any = None, version: int = 2) -> None:
        if a is None:
            self._seeded = False  # Python would read the OS's entropy: the run's seed instead
            return
        if not isinstance(a, (int, float, str, bytes, bytearray)):
            raise TypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
        if isinstance(a, int):
            self._budget.check_int_bits(a.bit_length())
        elif isinstance(a, (str, bytes, bytearray)):
            self._budget.check_length(a, len(a))
        self._rng.seed(a, version)
        self._seeded = True

    def random(self) -> float:
        return self._ready().random()

    def uniform(self, a: float, b: float) -> float:
        return self._ready().uniform(a, b)

    def randint(self, a: int, b: int) -> int:
        self._small(a, b)
        return self._ready().randint(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self._small(start, stop or 0, step)
        return self._ready().randrange(start, stop, step)

    def getrandbits(self, k: int) -> int:
        self._budget.check_int_bits(int(k))
        return self._ready().getrandbits(k)

    def choice(self, seq: Any) -> Any:
        return self._ready().choice(self._budget.materialize(seq) if not hasattr(seq, "__getitem__") else seq)

    def choices(self, population: Any, weights: Any = None, *, cum_weights: Any = None, k: int = 1) -> list[Any]:
        self._budget.check_length(list, int(k))
        population = self._budget.materialize(population)
        weights = None if weights is None else self._budget.materialize(weights)
        cum_weights = None if cum_weights is None else self._budget.materialize(cum_weights)
        return self._ready().choices(population, weights, cum_weights=cum_weights, k=k)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        self._budget.check_length(list, int(k))
        population = self._budget.materialize(population)
        counts = None if counts is None else self._budget.materialize(counts)
        return self._ready().sample(population, k, counts=counts)

    def shuffle(self, x: list[Any]) -> None:
        self._ready().shuffle(x)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return self._ready().gauss(mu, sigma)

    def normalvariate(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return self._ready().normalvariate(mu, sigma)

    def expovariate(self, lambd: float = 1.0) -> float:
        return self._ready().expovariate(lambd)

    def betavariate(self, alpha: float, beta: float) -> float:
        return self._ready().betavariate(alpha, beta)

    def triangular(self, low: float = 0.0, high: float = 1.0, mode: float | None = None) -> float:
        return self._ready().triangular(low, high, mode)

    def _small(self, *ints: Any) -> None:
        for i in ints:
            if isinstance(i, int):
                self._budget.check_int_bits(i.bit_length())


_FUNCTIONS = [
    "seed",
    "random",
    "uniform",
    "randint",
    "randrange",
    "getrandbits",
    "choice",
    "choices",
    "sample",
    "shuffle",
    "gauss",
    "normalvariate",
    "expovariate",
    "betavariate",
    "triangular",
]


def make_random(budget: Budget) -> SafeNamespace:
    """A fresh ``random`` for one run: its functions are the methods of one hidden ``Random``."""
    hidden = Random(_budget=budget)

    def new_random(x: Any = None) -> Random:
        return Random(x, _budget=budget)

    members: dict[str, Any] = {name: getattr(hidden, name) for name in _FUNCTIONS}
    members["Random"] = new_random
    return SafeNamespace("random", members)

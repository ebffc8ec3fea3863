"""The sandbox's ``itertools`` and ``functools``: Python's own, with every lazy iterator costing a step per item
(``Counted``), so ``list(itertools.count())`` ends at the step limit, and every input a C function would copy whole
(``product``, ``permutations``, ``combinations``) counted first.

Example::

    >>> it = make_itertools(Budget())
    >>> list(it.islice(it.count(5), 3))
    [5, 6, 7]
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from engine.sandbox.budget import Budget
from engine.sandbox.errors import LimitExceeded
from engine.sandbox.policy import SafeNamespace
from engine.sandbox.safe_builtins import Counted
from engine.sandbox.sizes import count_of

_LAZY = [
    "count",
    "cycle",
    "repeat",
    "accumulate",
    "chain",
    "compress",
    "dropwhile",
    "filterfalse",
    "groupby",
    "islice",
    "pairwise",
    "starmap",
    "takewhile",
    "zip_longest",
]
_COPYING = ["product", "permutations", "combinations", "combinations_with_replacement"]  # copy their inputs first
MAX_CACHE = 10_000  # entries a functools cache keeps at most (lru_cache(maxsize=None) and cache included)


def make_itertools(budget: Budget) -> SafeNamespace:
    """A fresh ``itertools`` for one run."""

    def lazy(fn: Callable[..., Any], name: str) -> Callable[..., Counted]:
        def counted(*args: Any, **kwargs: Any) -> Counted:
            return Counted(fn(*args, **kwargs), budget, f"itertools.{name}")

        counted.__name__ = counted.__qualname__ = name
        return counted

    def copying(fn: Callable[..., Any], name: str) -> Callable[..., Counted]:
        def counted(*args: Any, **kwargs: Any) -> Counted:
            # product's arguments are all iterables; the others' first one is (then r)
            n = len(args) if name == "product" else min(1, len(args))
            pools = [budget.materialize(it) for it in args[:n]]
            repeat = count_of(kwargs.get("repeat", 1)) or 0
            if repeat * max(len(p) for p in pools or [[]]) > budget.limits.max_list_length:
                raise LimitExceeded(f"itertools.{name} would hold more than {budget.limits.max_list_length:,} items")
            return Counted(fn(*pools, *args[n:], **kwargs), budget, f"itertools.{name}")

        counted.__name__ = counted.__qualname__ = name
        return counted

    members: dict[str, Any] = {name: lazy(getattr(itertools, name), name) for name in _LAZY}
    members.update({name: copying(getattr(itertools, name), name) for name in _COPYING})

    def from_iterable(iterables: Any) -> Counted:
        return Counted(itertools.chain.from_iterable(iterables), budget, "itertools.chain")

    def tee(iterable: Any, n: int = 2) -> tuple[Counted, ...]:
        if count_of(n) is None or n > 100:
            raise LimitExceeded("itertools.tee makes at most 100 copies here")
        return tuple(Counted(it, budget, "itertools._tee") for it in itertools.tee(iterable, n))

    members["chain"] = _Chain(members["chain"], from_iterable)
    members["tee"] = tee
    return SafeNamespace("itertools", members)


class _Chain:
    """``itertools.chain(...)`` and ``itertools.chain.from_iterable(...)``."""

    __slots__ = ("_make", "from_iterable")

    def __init__(self, make: Callable[..., Counted], from_iterable: Callable[[Any], Counted]) -> None:
        self._make = make
        self.from_iterable = from_iterable

    def __call__(self, *iterables: Any) -> Counted:
        return self._make(*iterables)

    def __repr__(self) -> str:
        return "<class 'itertools.chain'>"


def make_functools(budget: Budget) -> SafeNamespace:
    """A fresh ``functools`` for one run: ``reduce``, ``partial``, ``cache``/``lru_cache`` (bounded), ``wraps``."""

    def reduce(function: Callable[..., Any], iterable: Any, *initial: Any) -> Any:
        return functools.reduce(function, Counted(iter(iterable), budget, "reduce"), *initial)

    def lru_cache(maxsize: Any = 128, typed: bool = False) -> Any:
        if callable(maxsize) and not isinstance(maxsize, int):  # @lru_cache without parentheses
            return functools.lru_cache(maxsize=128)(maxsize)
        size = MAX_CACHE if maxsize is None else min(int(maxsize), MAX_CACHE)
        return functools.lru_cache(maxsize=size, typed=typed)

    def cache(function: Callable[..., Any]) -> Any:
        return functools.lru_cache(maxsize=MAX_CACHE)(function)

    def wraps(wrapped: Any, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        """Keeps the wrapper as it is (Python would copy ``__name__`` and ``__doc__`` onto it)."""
        return lambda wrapper: wrapper

    return SafeNamespace(
        "functools",
        {"reduce": reduce, "partial": functools.partial, "lru_cache": lru_cache, "cache": cache, "wraps": wraps},
    )

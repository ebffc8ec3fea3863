"""Facades of the standard modules courses import (``random``, ``itertools``, ``functools``, ``collections``,
``pprint``, ``string``, ``typing``, ``dataclasses``, ``copy``, ``time``), made fresh for each run and bounded by its
budget: every lazy iterator costs a step per item, every collection built from user input is counted before C code
loops over it, printing goes to the run's stdout, and ``random`` is Python's own Mersenne Twister, seeded per run
(``random.seed(s)`` gives Python's numbers for ``s``).

The real modules are never reachable: each facade is a ``SafeNamespace`` of chosen functions.

Example::

    >>> mods = make_stdlib(write=print, budget=Budget())
    >>> sorted(mods)[:5]
    ['collections', 'copy', 'dataclasses', 'functools', 'itertools']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ndarray import printopts
from engine.sandbox.budget import Budget
from engine.stdlib.clock import make_time, make_timeit
from engine.stdlib.containers import make_collections
from engine.stdlib.copying import make_copy
from engine.stdlib.dataclass import make_dataclasses
from engine.stdlib.iterate import make_functools, make_itertools
from engine.stdlib.numpy_module import make_numpy
from engine.stdlib.pyrandom import make_random
from engine.stdlib.text import make_pprint, make_string, make_typing


def make_stdlib(write: Callable[[str], None], budget: Budget) -> dict[str, Any]:
    """The standard-module facades of one run, by import name."""
    modules = RunStdlib(write, budget)
    return {name: modules.get(name) for name in _MAKERS}


def _ignore(text: str) -> None:
    pass


_MAKERS: dict[str, Callable[[RunStdlib], Any]] = {
    "numpy": lambda m: make_numpy(m.budget),
    "numpy.random": lambda m: m.get("numpy").random,
    "numpy.linalg": lambda m: m.get("numpy").linalg,
    "random": lambda m: make_random(m.budget),
    "itertools": lambda m: make_itertools(m.budget),
    "functools": lambda m: make_functools(m.budget),
    "collections": lambda m: make_collections(m.budget),
    "copy": lambda m: make_copy(m.budget),
    "dataclasses": lambda m: make_dataclasses(m.budget),
    "pprint": lambda m: make_pprint(m.write, m.budget),
    "string": lambda m: make_string(),
    "time": lambda m: make_time(m.budget),
    "timeit": lambda m: make_timeit(m.get("time")),
    "typing": lambda m: make_typing(),
}


class RunStdlib:
    """The standard-module facades of one run, each made on its first import: most programs import none, and
    making them all (their classes and closures) cost a run more than the rest of its start."""

    def __init__(self, write: Callable[[str], None], budget: Budget) -> None:
        printopts.reset()  # numpy's print options live in a ContextVar: no run starts with another's
        self.write, self.budget = write, budget
        self._made: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        """The facade imported as ``name`` (made now if the run had not imported it yet), or None."""
        module = self._made.get(name)
        if module is None:
            make = _MAKERS.get(name)
            if make is None:
                return None
            module = self._made[name] = make(self)
        return module

    def close(self) -> None:
        """The run is over: let go of its facades and of its output."""
        self._made.clear()
        self.write = _ignore

    def all(self) -> dict[str, Any]:
        """Every facade, by import name (made now when not yet)."""
        return {name: self.get(name) for name in _MAKERS}


__all__ = ["RunStdlib", "make_stdlib"]

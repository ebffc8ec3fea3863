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
    numpy = make_numpy(budget)
    time = make_time(budget)
    return {
        "numpy": numpy,
        "numpy.random": numpy.random,
        "numpy.linalg": numpy.linalg,
        "random": make_random(budget),
        "itertools": make_itertools(budget),
        "functools": make_functools(budget),
        "collections": make_collections(budget),
        "copy": make_copy(budget),
        "dataclasses": make_dataclasses(budget),
        "pprint": make_pprint(write, budget),
        "string": make_string(),
        "time": time,
        "timeit": make_timeit(time),
        "typing": make_typing(),
    }


__all__ = ["make_stdlib"]

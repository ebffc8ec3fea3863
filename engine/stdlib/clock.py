"""The sandbox's ``time``: the clock courses read to time an epoch (``time.time()``, ``perf_counter``). Reading it
reads the machine, so the run is marked not reproducible (its answer is never kept); ``time.sleep`` does not sleep
(it would hold a worker) but counts against the run's time limit as if it had.

Example::

    >>> t = make_time(Budget())
    >>> t.time() > 0
    True
"""

from __future__ import annotations

import time as _time

from engine.run_state import read_the_machine
from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace


def make_time(budget: Budget) -> SafeNamespace:
    """A fresh ``time`` for one run."""
    slept = [0.0]

    def reading(fn: object, name: str) -> object:
        def read() -> float:
            read_the_machine(f"time.{name}()")
            return fn() + slept[0]  # type: ignore[operator]

        read.__name__ = read.__qualname__ = name
        return read

    def sleep(seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"'{type(seconds).__name__}' object cannot be interpreted as an integer")
        if seconds != seconds or seconds < 0:
            raise ValueError("sleep length must be non-negative")
        read_the_machine("time.sleep()")
        slept[0] += seconds
        budget.deadline -= seconds  # the time limit comes as much sooner as the program would have slept
        budget.check_time()

    members = {
        name: reading(getattr(_time, name), name) for name in ("time", "perf_counter", "monotonic", "process_time")
    }
    members["sleep"] = sleep
    return SafeNamespace("time", members)


def make_timeit(time: SafeNamespace) -> SafeNamespace:
    """``timeit.default_timer``: the run's ``time.perf_counter`` (reading it marks the run not reproducible)."""
    return SafeNamespace("timeit", {"default_timer": time.perf_counter})

"""``np.set_printoptions`` for one run: the options are kept for the run (a ContextVar reset as each run makes its
``numpy``) and applied with numpy's own ``np.printoptions`` while one of the run's arrays is printed, so arrays
print exactly as numpy prints them with those options, and numpy's process-wide options never change. Callables
(``formatter=``) and legacy modes are not taken; a ``threshold`` that prints a big array whole is checked against
the run's string budget before printing (``text_bound``).

Example::

    >>> set_printoptions(precision=3, suppress=True)
    >>> printed(repr, np.array([1e-9, 1 / 3]))
    'array([0.   , 0.333])'
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import numpy as np

from engine.run_state import state

_OPTIONS: ContextVar[dict[str, Any] | None] = ContextVar("gradtrace_numpy_print_options", default=None)
_KNOWN = ("precision", "threshold", "edgeitems", "linewidth", "suppress", "nanstr", "infstr", "sign", "floatmode")
_BIG = 10**6


def reset() -> None:
    """numpy's default print options (each run starts with them)."""
    if _OPTIONS.get() is not None:
        _OPTIONS.set(None)


def set_printoptions(
    precision: Any = None,
    threshold: Any = None,
    edgeitems: Any = None,
    linewidth: Any = None,
    suppress: Any = None,
    nanstr: Any = None,
    infstr: Any = None,
    sign: Any = None,
    floatmode: Any = None,
) -> None:
    """``np.set_printoptions(precision=3, suppress=True)``: how this run prints numpy arrays from now on."""
    given = dict(zip(_KNOWN, (precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, sign, floatmode)))
    options = dict(_OPTIONS.get() or {})
    for name, value in given.items():
        if value is None:
            continue
        if name in ("nanstr", "infstr", "sign", "floatmode"):
            if not isinstance(value, str) or len(value) > 32:
                raise TypeError(f"{name} must be a short string")
        elif name == "suppress":
            value = bool(value)
        elif name == "threshold" and isinstance(value, float) and value == float("inf"):
            value = _BIG  # np.inf: print everything (an array holds at most the run's per-array limit anyway)
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _BIG:
            raise ValueError(f"{name} must be a non-negative integer up to {_BIG:,}")
        options[name] = value
    with np.printoptions(**options):  # numpy's own checks of the values (sign='x' and the like)
        pass
    _OPTIONS.set(options)


def get_printoptions() -> dict[str, Any]:
    """``np.get_printoptions()``: the options this run prints with (numpy's names, without its internal ones)."""
    with np.printoptions(**(_OPTIONS.get() or {})):
        current: dict[str, Any] = dict(np.get_printoptions())
    return {name: current[name] for name in _KNOWN}


def printed(fn: Callable[[np.ndarray], str], arr: np.ndarray) -> str:
    """``repr(arr)`` or ``str(arr)`` with the run's options."""
    options = _OPTIONS.get()
    if not options:
        return fn(arr)
    threshold = options.get("threshold", 1000)
    if arr.size > 1000 and arr.size <= threshold:  # printed whole: bound the text before numpy builds it
        budget = state().budget
        if budget is not None:
            budget.check_length(str, arr.size * (options.get("precision", 8) + 8))
    with np.printoptions(**options):
        return fn(arr)


__all__ = ["get_printoptions", "printed", "reset", "set_printoptions"]

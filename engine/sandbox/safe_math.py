"""The sandbox's ``math`` module: Python's math functions that cannot take long or build huge numbers.

Example::

    >>> make_math().sqrt(2.0)
    1.4142135623730951
"""

from __future__ import annotations

import math
from typing import Any

from engine.sandbox.errors import LimitExceeded
from engine.sandbox.policy import SafeNamespace
from engine.sandbox.sizes import count_of

_NAMES = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "degrees",
    "dist",
    "e",
    "erf",
    "erfc",
    "exp",
    "expm1",
    "fabs",
    "floor",
    "fmod",
    "frexp",
    "gcd",
    "hypot",
    "inf",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "isqrt",
    "ldexp",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "modf",
    "nan",
    "pi",
    "radians",
    "remainder",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tau",
    "trunc",
    "gamma",
]


def _factorial(n: Any) -> int:
    """``math.factorial`` for n up to 1000 (bigger results are refused)."""
    if (count_of(n) or 0) > 1000:
        raise LimitExceeded(f"math.factorial({n}) is over the limit of 1000")
    return math.factorial(n)


def _pow(x: Any, y: Any) -> float:
    return math.pow(x, y)  # always float: overflows raise OverflowError instead of growing


def make_math() -> SafeNamespace:
    """A fresh ``math`` namespace for one run."""
    return SafeNamespace("math", dict(_MEMBERS))


_MEMBERS: dict[str, Any] = {name: getattr(math, name) for name in _NAMES}
_MEMBERS["factorial"] = _factorial
_MEMBERS["pow"] = _pow

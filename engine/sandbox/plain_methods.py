"""The methods of plain Python values user code may call (``str``, ``list``, ``tuple``, ``dict``, ``set``, numbers),
each wrapped where C code would build or visit something big: arguments counted, widths and results bounded.

Example::

    >>> plain_method("a,b", "split", budget)(",")
    ['a', 'b']
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from engine.sandbox.budget import _BIG, Budget
from engine.sandbox.errors import NotSupported
from engine.sandbox.identity import check_set
from engine.sandbox.sizes import NESTED, BoundedFormatter, check_format_spec, check_nested, count_of, footprint

_STR = frozenset(
    [
        "capitalize",
        "casefold",
        "count",
        "endswith",
        "find",
        "index",
        "isalnum",
        "isalpha",
        "isdigit",
        "isdecimal",
        "islower",
        "isnumeric",
        "isspace",
        "istitle",
        "isupper",
        "join",
        "lower",
        "lstrip",
        "partition",
        "removeprefix",
        "removesuffix",
        "replace",
        "rfind",
        "rindex",
        "rpartition",
        "rsplit",
        "rstrip",
        "split",
        "splitlines",
        "startswith",
        "strip",
        "swapcase",
        "title",
        "upper",
        "center",
        "ljust",
        "rjust",
        "zfill",
        "format",
    ]
)
_LIST = frozenset(["append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort"])
_TUPLE = frozenset(["count", "index"])
_DICT = frozenset(["clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"])
_NUMBER = frozenset(
    ["bit_length", "conjugate", "real", "imag", "numerator", "denominator", "is_integer", "as_integer_ratio"]
)
_FROZENSET = frozenset(
    ["copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset", "symmetric_difference", "union"]
)
_SET = _FROZENSET | frozenset(
    [
        "add",
        "clear",
        "discard",
        "pop",
        "remove",
        "update",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    ]
)
PLAIN_METHODS: dict[type, frozenset[str]] = {
    str: _STR,
    list: _LIST,
    tuple: _TUPLE,
    dict: _DICT,
    set: _SET,
    frozenset: _FROZENSET,
    int: _NUMBER,
    float: _NUMBER,
    bool: _NUMBER,
}


def _sized(budget: Budget, method: Callable[..., Any], size: Callable[..., int], kind: Any) -> Callable[..., Any]:
    def checked(*args: Any, **kwargs: Any) -> Any:
        budget.check_length(kind, size(*args, **kwargs))
        return method(*args, **kwargs)

    return checked


def _width(width: Any = 0, *_: Any) -> int:
    return count_of(width) or 0


# Methods that compare or hash their arguments (and, for sequences, the items): what that visits is bounded first.
_COMPARING = frozenset(["count", "index", "remove", "sort", "get", "pop", "setdefault", "update"])


def _comparing(obj: Any, method: Callable[..., Any], budget: Budget) -> Callable[..., Any]:
    def checked(*args: Any, **kwargs: Any) -> Any:
        if not isinstance(obj, dict):
            check_nested(obj, budget)
        for arg in args:
            check_nested(arg, budget)
        return method(*args, **kwargs)

    return checked


_ONE_ITEM = frozenset(("add", "discard", "remove"))  # the set methods that take an item, not iterables


def _set_method(obj: Any, name: str, method: Callable[..., Any], budget: Budget) -> Callable[..., Any]:
    """A set's method: iterables are counted first, what is hashed bounded, a big result counted, and the order
    of what comes in checked (``s.add(obj)`` of an object hashed by its address reads the machine)."""

    def checked(*args: Any) -> Any:
        if name not in _ONE_ITEM:
            args = tuple(a if isinstance(a, NESTED) else budget.materialize(a) for a in args)
        for arg in args:
            check_nested(arg, budget)
        if name == "add":
            check_set(args)
        elif name == "update" or name == "symmetric_difference_update":
            for arg in args:
                check_set(arg)
        result = method(*args)
        if isinstance(result, (set, frozenset)) and result is not obj:
            if len(result) >= _BIG:
                budget.count_built(footprint(result) // 8)
            check_set(result)
        return result

    return checked


def plain_method(obj: Any, name: str, budget: Budget) -> Any:
    method = getattr(obj, name)
    if isinstance(obj, (set, frozenset)):
        return _set_method(obj, name, method, budget)
    if name in _COMPARING and not isinstance(obj, str):
        return _comparing(obj, method, budget)
    if isinstance(obj, str):
        if name in ("center", "ljust", "rjust", "zfill"):
            return _sized(budget, method, _width, str)
        if name == "join":

            def join(items: Any) -> str:
                items = budget.materialize(items)
                budget.check_length(str, sum(len(s) for s in items if isinstance(s, str)) + len(obj) * len(items))
                return method(items)  # type: ignore[no-any-return]

            return join
        if name == "format":
            return _safe_format(obj, budget)
        if name == "replace":
            return _sized(budget, method, lambda old, new, count=-1: len(obj) + (obj.count(old) + 1) * len(new), str)
    elif isinstance(obj, list) and name == "extend":

        def extend(items: Any) -> None:
            items = budget.materialize(items)
            budget.check_length(list, len(obj) + len(items))
            method(items)

        return extend
    return method


_FORMATTER = string.Formatter()


def _safe_format(template: str, budget: Budget) -> Callable[..., str]:
    """``str.format`` without field attribute/index lookups (``'{0.__class__}'``), with bounded widths and a
    bounded result (``('{0}' * 1000).format(long_text)``)."""
    for _, field, spec, _ in _FORMATTER.parse(template):
        if field and ("." in field or "[" in field):
            raise NotSupported("attribute or index lookups inside format fields are not available")
        if spec:
            if "{" in spec:
                raise NotSupported("nested format fields are not available")
            check_format_spec(spec, budget)

    def format_(*args: Any, **kwargs: Any) -> str:
        return BoundedFormatter(budget).vformat(template, args, kwargs)

    return format_


def plain_base(obj: Any) -> frozenset[str] | None:
    """The method whitelist for a subclass of a plain type (``OrderedDict`` from ``state_dict()``)."""
    for base in (dict, list, tuple, str):
        if isinstance(obj, base):
            return PLAIN_METHODS[base]
    return None

"""The sandbox's ``pprint``, ``string`` and ``typing``.

``pprint.pprint`` writes to the run's stdout, its text bounded by the output budget; ``string`` holds Python's
constants; ``typing``'s names are Python's own (they only annotate).

Example::

    >>> out = []
    >>> make_pprint(out.append, Budget()).pprint({"b": 1, "a": [1, 2]})
    >>> out
    ["{'a': [1, 2], 'b': 1}\\n"]
"""

from __future__ import annotations

import pprint
import string
import typing
from collections.abc import Callable
from typing import Any

from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace
from engine.sandbox.sizes import check_nested

_TYPING = [
    "Any",
    "Callable",
    "Dict",
    "List",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
    "Union",
    "Iterable",
    "Iterator",
    "Mapping",
    "Type",
    "FrozenSet",
    "Generator",
    "NamedTuple",
    "ClassVar",
    "Final",
    "Literal",
    "TypeVar",
    "Deque",
    "DefaultDict",
]
_STRING = "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits punctuation printable whitespace"


def make_pprint(write: Callable[[str], None], budget: Budget) -> SafeNamespace:
    """A fresh ``pprint`` for one run, writing where ``print`` writes."""

    def pformat(
        obj: Any,
        indent: int = 1,
        width: int = 80,
        depth: int | None = None,
        *,
        compact: bool = False,
        sort_dicts: bool = True,
        underscore_numbers: bool = False,
    ) -> str:
        check_nested(obj, budget)
        return pprint.pformat(
            obj,
            indent=min(int(indent), 40),
            width=max(1, min(int(width), 10_000)),
            depth=depth,
            compact=compact,
            sort_dicts=sort_dicts,
            underscore_numbers=underscore_numbers,
        )

    def pp(obj: Any, *args: Any, sort_dicts: bool = False, **kwargs: Any) -> None:
        write(pformat(obj, *args, sort_dicts=sort_dicts, **kwargs) + "\n")

    def pprint_(obj: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.pop("stream", None)
        write(pformat(obj, *args, **kwargs) + "\n")

    return SafeNamespace("pprint", {"pprint": pprint_, "pformat": pformat, "pp": pp})


def make_string() -> SafeNamespace:
    return SafeNamespace("string", {name: getattr(string, name) for name in _STRING.split()})


def make_typing() -> SafeNamespace:
    return SafeNamespace("typing", {name: getattr(typing, name) for name in _TYPING})

"""Sizes of Python values, checked before C code builds text from them or walks them.

C code cannot be stopped by the step or time checks, so what it would build or visit is bounded first. Sharing
makes small objects huge: after ``a = (a, a)`` sixty times, ``a`` holds 60 tuples, but ``==``, ``hash``, ``str``
and numpy's conversion would each visit 2**60 of them.

Example::

    >>> check_nested([[0] * 1000] * 1000, budget)         # a million items: fine
    >>> a = [0] * 1000; check_nested([[a] * 1000] * 1000, budget)
    Traceback (most recent call last):
    LimitExceeded: a value holding more than 1,000,000 items (nested lists, tuples and dicts, unfolded) is over ...
"""

from __future__ import annotations

import itertools
import operator
import re
import string
import sys
from typing import Any

from engine.printing import text_length
from engine.sandbox.budget import Budget
from engine.sandbox.errors import LimitExceeded, NotSupported
from engine.sandbox.identity import scrub
from engine.tensor import Tensor

NESTED = (list, tuple, set, frozenset, dict)
_SPEC_NUMBERS = re.compile(r"\d+")


def _items(obj: Any) -> Any:
    return (*obj, *obj.values()) if isinstance(obj, dict) else obj


_HEAVY = 4096  # bytes of an int or a string that count as one more item: C code hashes, adds or compares them whole


def unfolded(value: Any, limit: int) -> int:
    """The items ``value`` holds, each container counted as often as it occurs (an empty one counts 1), stopping
    at ``limit + 1``. Visits each distinct container once; a container inside itself counts 1 there. A big int or
    string counts one more item per 4 KB: ``set([2**99999] * 10**6)`` hashes 13 KB a million times (6 s of C)."""
    counts: dict[int, int | None] = {}  # None: being counted (its items are on the stack)
    stack = [value]
    while stack:
        obj = stack[-1]
        key = id(obj)
        state = counts.get(key, -1)
        if state == -1:
            counts[key] = None
            types = set(map(type, _items(obj)))
            if any(issubclass(t, NESTED) for t in types):
                pending = [i for i in _items(obj) if isinstance(i, NESTED) and id(i) not in counts]
                if pending:
                    stack.extend(pending)
                    continue
            else:
                n = len(obj) * (2 if isinstance(obj, dict) else 1)
                if int in types or str in types:
                    n += sum(map(operator.floordiv, map(sys.getsizeof, _items(obj)), itertools.repeat(_HEAVY)))
                counts[key] = min(max(n, 1), limit + 1)
                stack.pop()
                continue
        elif state is not None:
            stack.pop()
            continue
        total = 0
        for item in _items(obj):
            if isinstance(item, NESTED):
                total += counts.get(id(item)) or 1
            else:
                total += 1 + (sys.getsizeof(item) // _HEAVY if type(item) in (int, str) else 0)
        counts[key] = min(max(total, 1), limit + 1)
        stack.pop()
    return counts[id(value)] or 1


def check_nested(value: Any, budget: Budget) -> None:
    """Refuse ``value`` if it holds more than ``max_list_length`` items once unfolded: before comparing or hashing
    it, or handing it to the engine (which converts, compares and formats what it is given). The clock is checked
    first: such C calls can be slow, and the interpreter reads the clock only every few hundred steps."""
    budget.check_clock()
    if isinstance(value, NESTED):
        limit = budget.limits.max_list_length
        count = unfolded(value, limit)
        if count > limit:
            raise LimitExceeded(
                f"a value holding more than {limit:,} items (nested lists, tuples and dicts, unfolded) "
                "is over the limit"
            )


def count_of(value: Any) -> int | None:
    """``value`` as the count Python reads from it when it repeats a sequence or sizes a string (an int, or any
    object with ``__index__``: a 0-d integer tensor, a numpy integer), else None. A check written for ints alone
    would let ``[0] * np.int64(10**9)`` or ``'a'.center(torch.tensor(10**10))`` through."""
    if type(value) is int:
        return value
    if isinstance(value, (int, *NESTED, str)) or not hasattr(type(value), "__index__"):
        return value if isinstance(value, int) else None
    try:
        return operator.index(value)
    except TypeError:  # not a whole number after all (a float tensor, a 1-d array): Python decides what it does
        return None


def check_format_spec(spec: str, budget: Budget) -> None:
    """Bound the width/precision written in a format spec (``f'{x:1000000000}'``)."""
    budget.check_length(str, spec_width(spec))


def spec_width(spec: str) -> int:
    """The characters the numbers in a format spec may add (``'>10.3f'``: 13)."""
    return sum(int(d) if len(d) < 12 else 10**12 for d in _SPEC_NUMBERS.findall(spec))


def text_size(value: Any, budget: Budget) -> None:
    """Refuse to stringify containers whose text would be huge (``str([[s] * 1000] * 1000)`` for a long ``s``).

    Estimates the text length (string lengths, a few characters per other item), visiting each container once:
    a container repeated many times (``[row] * 1000``) counts its size each time without being walked again. An
    exception is as big as its arguments (``ValueError(huge_list)``)."""
    budget.check_clock()  # building text of big values is C work between two reads of the clock
    if isinstance(value, BaseException):
        value = value.args
    if type(value) is int:
        _int_text(value, budget)
    if not isinstance(value, NESTED):
        return
    limit = budget.limits.max_str_length
    sizes: dict[int, int] = {}

    def size(obj: Any, depth: int) -> int:
        if type(obj) is str:
            return len(obj) + 2
        if type(obj) is int:
            return _int_text(obj, budget)
        if isinstance(obj, Tensor):  # printed in full each time it occurs (a 1,000-value one: 9,000 characters)
            return text_length(obj._data) + 10
        if not isinstance(obj, NESTED):
            return 4
        key = id(obj)
        known = sizes.get(key)
        if known is not None:
            return known
        sizes[key] = 5  # a container inside itself prints as [...]
        if depth > 50:
            return 5
        total = 2
        is_dict = isinstance(obj, dict)
        for item in obj.items() if is_dict else obj:
            if is_dict:
                total += size(item[0], depth + 1) + size(item[1], depth + 1) + 4
            else:
                total += size(item, depth + 1) + 2
            if total > limit:
                break
        sizes[key] = total
        return total

    budget.check_length(str, size(value, 0))


def _int_text(value: int, budget: Budget) -> int:
    """About the characters of ``value`` in decimal. Big ints take C time quadratic in their size to print (~190 us
    for 4,000 digits): that work is counted as steps (~1 step per 0.8 us, twice the interpreter's own rate, so that
    a machine twice as slow, or loaded, still meets the step limit first), so printing one in a loop ends there."""
    bits = value.bit_length()
    if bits > 3000:
        budget.charge((bits >> 5) ** 2 // 700)
    return bits * 3 // 10 + 3


class BoundedFormatter(string.Formatter):
    """``str.format`` built field by field (``string.Formatter``), its length checked after each field: a template
    repeating a field (``'{0}' * 1000``) cannot build a huge string. No attribute or index lookups in fields."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.length = 0

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if "." in field_name or "[" in field_name:
            raise NotSupported("attribute or index lookups inside format fields are not available")
        return super().get_field(field_name, args, kwargs)

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, int) and key >= len(args):  # str.format's own message
            raise IndexError(f"Replacement index {key} out of range for positional args tuple")
        return super().get_value(key, args, kwargs)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is not None:
            text_size(value, self.budget)
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> Any:
        check_format_spec(format_spec, self.budget)
        text_size(value, self.budget)
        text = format(value, format_spec)
        if type(value) is not str:
            text = scrub(text)
        self.length += len(text)
        self.budget.check_length(str, self.length)
        return text


_CONTAINERS = (list, tuple, set, frozenset, dict)
_SAMPLE = 8  # items looked at to estimate what a big container holds


def _refs(obj: Any) -> int:
    return sys.getrefcount(obj)


def _sampled(value: Any) -> list[Any]:
    """Up to ``_SAMPLE`` items of ``value``, spread over it (keys and values of a dict)."""
    n = len(value)
    if isinstance(value, (list, tuple)):
        return [value[i * n // _SAMPLE] for i in range(min(n, _SAMPLE))]
    step = max(n * 2 // _SAMPLE, 1)
    if isinstance(value, dict):
        return [*itertools.islice(value, 0, None, step), *itertools.islice(value.values(), 0, None, step)]
    return list(itertools.islice(value, 0, None, step // 2 or 1))


def _item_refs(value: Any) -> list[tuple[Any, int]]:
    out = []
    for item in _sampled(value):
        out.append((item, _refs(item)))
    return out


_HELD_ONCE = _item_refs([object()])[0][1]  # the references a fresh item held only by its container has here


def footprint(value: Any, depth: int = 0) -> int:
    """The bytes a container (or string) a call just built holds, estimated from a sample of its items: its own
    size, and for items nothing else holds (``tolist()``'s floats, ``split()``'s strings, ``list(range(n))``'s
    ints, the rows of a nested list) theirs, the same way. Items shared with other values cost only their slot."""
    size = sys.getsizeof(value)
    if not isinstance(value, _CONTAINERS) or not value or depth > 3:
        return size
    sample = _item_refs(value)
    fresh = sum(footprint(item, depth + 1) for item, refs in sample if refs <= _HELD_ONCE)
    entries = len(value) * (2 if isinstance(value, dict) else 1)
    return size + entries * fresh // len(sample)

"""Python's operators for the interpreter, with size checks before the ones that can blow up.

``2 ** 10 ** 10``, ``'a' * 10**10`` and ``1 << 10**9`` are refused before Python starts building them.

Example::

    >>> binary(ast.Pow, 2, 10, budget)
    1024
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from engine.sandbox.budget import _BIG, Budget
from engine.sandbox.identity import PLAIN_TEXT, check_set, scrub
from engine.sandbox.sizes import count_of, footprint, text_size

_SEQ = (str, bytes, list, tuple)


def _is_int(x: Any) -> bool:
    return type(x) is int or type(x) is bool


def _pow(a: Any, b: Any, budget: Budget) -> Any:
    if _is_int(a) and _is_int(b) and b > 1 and abs(a) > 1:
        budget.check_int_bits(int(b * math.log2(abs(a))) + 1)  # the result's size, before computing it
    return a**b


def _mul(a: Any, b: Any, budget: Budget) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        budget.check_int_bits(a.bit_length() + b.bit_length())
    elif isinstance(a, _SEQ) and (n := count_of(b)) is not None:  # an int, or a numpy int / 0-d int tensor
        budget.check_length(a, len(a) * n)
    elif isinstance(b, _SEQ) and (n := count_of(a)) is not None:
        budget.check_length(b, len(b) * n)
    return a * b


def _add(a: Any, b: Any, budget: Budget) -> Any:
    if isinstance(a, _SEQ) and isinstance(b, _SEQ):
        budget.check_length(a, len(a) + len(b))
    return a + b


def _lshift(a: Any, b: Any, budget: Budget) -> Any:
    if _is_int(a) and _is_int(b) and a:
        budget.check_int_bits(a.bit_length() + b)
    return a << b


# One conversion of printf-style formatting: an optional mapping key, flags, width, precision.
_SPEC = re.compile(r"%(?:\(([^)]*)\))?[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?")


def _mod(a: Any, b: Any, budget: Budget) -> Any:
    if isinstance(a, bytes):
        a_text: Any = a.decode("latin-1")
        _mod(
            a_text,
            tuple(x.decode("latin-1") if isinstance(x, bytes) else x for x in b)
            if isinstance(b, tuple)
            else b.decode("latin-1")
            if isinstance(b, bytes)
            else b,
            budget,
        )
    elif isinstance(a, str):
        budget.check_length(str, len(a) + _percent_size(a, b, budget))
    else:
        _division_work(a, b, budget)
    result = a % b
    if type(result) is str:
        values = b.values() if isinstance(b, dict) else b if isinstance(b, tuple) else (b,)
        if not all(type(v) in PLAIN_TEXT for v in values):
            return scrub(result)
    return result


def _percent_size(template: str, b: Any, budget: Budget) -> int:
    """An upper bound of the characters ``template % b`` adds: each conversion's width and precision (written, or
    passed with '*') and the text of its value, a mapping's values counted at each ``%(key)`` that names them."""
    args = b if isinstance(b, tuple) else (b,)
    for arg in args:
        text_size(arg, budget)
    lengths: dict[int, int] = {}

    def text(value: Any) -> int:
        key = id(value)
        if key not in lengths:
            if isinstance(value, str):
                lengths[key] = len(value)
            elif _is_int(value):  # octal or hex digits of a big int: at most its bits
                lengths[key] = len(str(value)) if value.bit_length() < 64 else value.bit_length() + 2
            elif isinstance(value, (float, type(None))):
                lengths[key] = 330  # '%f' % 1e308
            else:
                lengths[key] = len(str(value))
        return lengths[key]

    total, position = 0, 0
    for match in _SPEC.finditer(template):
        name, width, precision = match.groups()
        for number in (width, precision):
            if number == "*":
                star = args[position] if position < len(args) else 0
                total += star if _is_int(star) and star > 0 else 0
                position += 1
            elif number:
                total += int(number)
        if name is not None:
            if hasattr(b, "__getitem__") and not isinstance(b, (str, tuple)):
                try:
                    total += text(b[name])
                except (KeyError, IndexError, TypeError):
                    pass  # Python raises its own error below
        elif match.end() < len(template) and template[match.end()] != "%":
            if position < len(args):
                total += text(args[position])
            position += 1
    return total


def _division_work(a: Any, b: Any, budget: Budget) -> None:
    """Dividing big ints takes C time quadratic in their sizes (~10 ms for 100,000 by 50,000 bits), linear for a
    small divisor (~14 us for 100,000 bits by 3): count it as steps, so that a loop of such divisions ends at the
    step limit instead of running past the clock checks."""
    if type(a) is int and type(b) is int:
        work = max(a.bit_length() >> 5, 1) * max(b.bit_length() >> 5, 1)
        if work > 2_500:
            budget.charge(work // 250)


def _floordiv(a: Any, b: Any, budget: Budget) -> Any:
    _division_work(a, b, budget)
    return a // b


def _plain(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Budget], Any]:
    return lambda a, b, _budget: fn(a, b)


def _counted(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Budget], Any]:
    """``fn`` on sets or dicts (``s | t``, ``d | e``): a big result counts against the budget of big values."""

    def op(a: Any, b: Any, budget: Budget) -> Any:
        result = fn(a, b)
        if type(result) in (set, frozenset, dict) and len(result) >= _BIG:
            budget.count_built(footprint(result) // 8)
        if type(result) is set or type(result) is frozenset:  # d.keys() - s: items no set display checked
            check_set(result)
        return result

    return op


BINARY: dict[type, Callable[[Any, Any, Budget], Any]] = {
    ast.Add: _add,
    ast.Sub: _counted(operator.sub),
    ast.Mult: _mul,
    ast.Div: _plain(operator.truediv),
    ast.FloorDiv: _floordiv,
    ast.Mod: _mod,
    ast.Pow: _pow,
    ast.MatMult: _plain(operator.matmul),
    ast.LShift: _lshift,
    ast.RShift: _plain(operator.rshift),
    ast.BitAnd: _counted(operator.and_),
    ast.BitOr: _counted(operator.or_),
    ast.BitXor: _counted(operator.xor),
}

# In-place forms: x += y calls __iadd__ (tensors and lists change in place, as in Python).
_INPLACE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd,
    ast.Sub: operator.isub,
    ast.Mult: operator.imul,
    ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv,
    ast.Mod: operator.imod,
    ast.Pow: operator.ipow,
    ast.MatMult: operator.imatmul,
    ast.LShift: operator.ilshift,
    ast.RShift: operator.irshift,
    ast.BitAnd: operator.iand,
    ast.BitOr: operator.ior,
    ast.BitXor: operator.ixor,
}


def binary(op: type, a: Any, b: Any, budget: Budget) -> Any:
    """``a <op> b``."""
    return BINARY[op](a, b, budget)


def inplace(op: type, a: Any, b: Any, budget: Budget) -> Any:
    """``a <op>= b``: size-checked like ``binary`` for Python values, then Python's in-place operator."""
    if type(a) in (int, float, bool, str, tuple) or isinstance(a, list) and op in (ast.Add, ast.Mult):
        if isinstance(a, list) and op is ast.Add:
            b = budget.materialize(b)
            budget.check_length(a, len(a) + len(b))
            return operator.iadd(a, b)
        if not isinstance(a, list):
            return BINARY[op](a, b, budget)
        budget.check_length(a, len(a) * b if _is_int(b) else 0)
    result = _INPLACE[op](a, b)
    if type(result) is set:  # s |= d.keys()
        check_set(result)
    return result


UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
    ast.Invert: operator.invert,
}

COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}

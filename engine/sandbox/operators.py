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
from typing import Any, Callable

from engine.sandbox.budget import Budget
from engine.sandbox.safe_builtins import text_size

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
    elif isinstance(a, _SEQ) and _is_int(b):
        budget.check_length(a, len(a) * b)
    elif isinstance(b, _SEQ) and _is_int(a):
        budget.check_length(b, len(b) * a)
    return a * b


def _add(a: Any, b: Any, budget: Budget) -> Any:
    if isinstance(a, _SEQ) and isinstance(b, _SEQ):
        budget.check_length(a, len(a) + len(b))
    return a + b


def _lshift(a: Any, b: Any, budget: Budget) -> Any:
    if _is_int(a) and _is_int(b) and a:
        budget.check_int_bits(a.bit_length() + b)
    return a << b


_WIDTH = re.compile(r"%[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?")


def _mod(a: Any, b: Any, budget: Budget) -> Any:
    if isinstance(a, bytes):
        a_text: Any = a.decode("latin-1")
        _mod(a_text, tuple(x.decode("latin-1") if isinstance(x, bytes) else x for x in b)
             if isinstance(b, tuple) else b.decode("latin-1") if isinstance(b, bytes) else b, budget)
    elif isinstance(a, str):
        # printf-style formatting: bound the widths written in the format and those passed with '*'
        widths = [int(w) for m in _WIDTH.finditer(a) for w in m.groups() if w and w != "*"]
        args = b if isinstance(b, tuple) else (b,)
        for arg in args:
            text_size(arg, budget)
        widths += [x for x in args if _is_int(x)] if "*" in a else []
        budget.check_length(str, len(a) + sum(widths))
    return a % b


def _plain(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Budget], Any]:
    return lambda a, b, _budget: fn(a, b)


BINARY: dict[type, Callable[[Any, Any, Budget], Any]] = {
    ast.Add: _add,
    ast.Sub: _plain(operator.sub),
    ast.Mult: _mul,
    ast.Div: _plain(operator.truediv),
    ast.FloorDiv: _plain(operator.floordiv),
    ast.Mod: _mod,
    ast.Pow: _pow,
    ast.MatMult: _plain(operator.matmul),
    ast.LShift: _lshift,
    ast.RShift: _plain(operator.rshift),
    ast.BitAnd: _plain(operator.and_),
    ast.BitOr: _plain(operator.or_),
    ast.BitXor: _plain(operator.xor),
}

# In-place forms: x += y calls __iadd__ (tensors and lists change in place, as in Python).
_INPLACE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd, ast.Sub: operator.isub, ast.Mult: operator.imul, ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv, ast.Mod: operator.imod, ast.Pow: operator.ipow, ast.MatMult: operator.imatmul,
    ast.LShift: operator.ilshift, ast.RShift: operator.irshift, ast.BitAnd: operator.iand, ast.BitOr: operator.ior,
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
    return _INPLACE[op](a, b)


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

"""The builtins user code sees: a fixed list of harmless functions, ``print`` writing to the run's stdout.

Builtins written in C that loop over their argument (``sum``, ``sorted``, ``list``...) get it materialized by the
budget first, so ``sum(range(10**12))`` is refused instead of hanging. ``isinstance(x, list)`` still works.

Example::

    >>> b = make_builtins(write=out.append, budget=Budget())
    >>> b["print"]("a", 1, sep="-")   # writes 'a-1\\n'
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Callable
from typing import Any

from engine.data import _SingleProcessDataLoaderIter
from engine.run_state import address_of, read_the_machine
from engine.sandbox.budget import Budget
from engine.sandbox.errors import NotSupported
from engine.sandbox.functions import ClassMethod, StaticMethod
from engine.sandbox.identity import PLAIN_TEXT, PlainObject, check_set, hashes_alike, scrub
from engine.sandbox.sizes import check_format_spec, check_nested, text_size
from engine.sandbox.typeview import BuiltinType, TypeStandIn, class_text

NAMES = [
    "print",
    "range",
    "len",
    "enumerate",
    "zip",
    "list",
    "tuple",
    "dict",
    "set",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "float",
    "int",
    "str",
    "bool",
    "isinstance",
    "sorted",
    "reversed",
    "any",
    "all",
    "map",
    "filter",
    "divmod",
    "chr",
    "ord",
    "repr",
    "format",
    "iter",
    "next",
    "callable",
    "object",
    "type",
    "id",
    "hash",
    "staticmethod",
    "classmethod",
    "frozenset",
    "NotImplemented",
]
EXCEPTIONS = [
    "Exception",
    "ValueError",
    "TypeError",
    "RuntimeError",
    "IndexError",
    "KeyError",
    "ZeroDivisionError",
    "AttributeError",
    "NotImplementedError",
    "StopIteration",
    "AssertionError",
    "ArithmeticError",
    "LookupError",
    "OverflowError",
    "NameError",
    "ImportError",
    "RecursionError",
    "MemoryError",
]
# Python builtins that exist but are deliberately missing, so the error says "not available", not "not defined".
UNAVAILABLE = frozenset(n for n in dir(builtins) if not n.startswith("_")) - set(NAMES) - set(EXCEPTIONS)


class Counted:
    """A lazy iterator (``map``, ``zip``, ``enumerate``...) that costs a step per item, so that C code or the engine
    consuming it (``torch.tensor(map(...))``) stays under the step and time limits."""

    __slots__ = ("_it", "_budget", "_kind")

    def __init__(self, it: Any, budget: Budget, kind: str) -> None:
        self._it = it
        self._budget = budget
        self._kind = kind

    def __iter__(self) -> Counted:
        return self

    def __next__(self) -> Any:
        budget = self._budget
        budget.steps += 1
        if budget.steps >= budget.next_check:
            budget.tick()
        return next(self._it)

    def __repr__(self) -> str:
        return f"<{self._kind} object>"


def _concatenated(items: Any, start: list[Any] | tuple[Any, ...]) -> Any:
    """``sum(items, start)`` for a list or tuple ``start``, in linear time: Python's ``sum`` adds one piece at a
    time, copying the growing result each time (``sum([[0] * 100] * 10**4, [])`` took 17 s of C code)."""
    base = list if isinstance(start, list) else tuple
    items = items if isinstance(items, (list, tuple)) else list(items)
    out = list(start)
    for i, item in enumerate(items):
        if not isinstance(item, base):  # Python's own error (or a tensor's __radd__) from here on
            return sum(items[i:], start + base(out[len(start) :]))
        out.extend(item)
    if type(start) is list:
        return out
    return tuple(out) if type(start) is tuple else start + base(out[len(start) :])


PLAIN_BUILTINS: dict[str, Any] = {name: getattr(builtins, name) for name in NAMES + EXCEPTIONS}  # Python's own


def make_builtins(write: Callable[[str], None], budget: Budget) -> dict[str, Any]:
    """The builtins namespace of one run."""
    materialize = budget.materialize

    def lazy(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Counted:
            return Counted(fn(*args, **kwargs), budget, name)

        wrapped.__name__ = wrapped.__qualname__ = name
        return wrapped

    def iter_(*args: Any) -> Counted:
        it = iter(*args)
        if type(it) is _SingleProcessDataLoaderIter:  # has a len; its batches cost the budget as they are made
            return it
        return Counted(it, budget, type(it).__name__)  # Python's name in its errors: 'list_iterator' object ...

    def range_(*args: Any) -> range:
        r = range(*args)
        budget.check_length(range, len(r))
        return r

    def to_str(value: Any = "") -> str:
        if type(value) is str:
            return value
        if isinstance(value, type):
            return class_text(value)  # <class 'torch.Tensor'>, as PyTorch's classes print
        text_size(value, budget)
        return scrub(str(value))

    def print_(
        *args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None, flush: bool = False
    ) -> None:
        if file is not None:
            raise NotSupported("print(file=...) is not available")
        if sep is not None and not isinstance(sep, str):
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if end is not None and not isinstance(end, str):
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        sep, end = " " if sep is None else sep, "\n" if end is None else end
        parts, length = [], len(end)
        for a in args:  # bounded as it goes: print(*[t] * 1000) made a thousand tensor texts (2.5 s) first
            parts.append(to_str(a))
            length += len(parts[-1]) + len(sep)
            budget.check_size(str, length - len(sep))
        budget.check_length(str, sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0) + len(end))
        write(sep.join(parts) + end)

    def format_(value: Any, spec: str = "") -> str:
        if isinstance(spec, str):
            check_format_spec(spec, budget)
        if isinstance(value, type):
            return format(class_text(value), spec)
        text_size(value, budget)
        text = format(value, spec)
        return text if type(value) in PLAIN_TEXT else scrub(text)

    def repr_(value: Any) -> str:
        if isinstance(value, type):
            return class_text(value)
        text_size(value, budget)
        text = repr(value)
        return text if type(value) in PLAIN_TEXT else scrub(text)

    def over(fn: Callable[..., Any], name: str, only_alone: bool = False, compares: bool = True) -> Callable[..., Any]:
        """``fn`` with its iterable first argument materialized under the budget (for ``min``/``max`` only when it
        is the only positional argument: ``max(a, b)`` compares two values); when ``fn`` compares or hashes the
        items, what that visits is bounded first."""

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if args and (len(args) == 1 or not only_alone):
                args = (materialize(args[0]), *args[1:])
            if compares:
                for arg in args:
                    check_nested(arg, budget)
            return fn(*args, **kwargs)

        wrapped.__name__ = wrapped.__qualname__ = name
        return wrapped

    def short(fn: Callable[[Any], bool], name: str) -> Callable[[Any], bool]:
        """``any``/``all``: they stop at the first answer (``any(x > 3 for x in endless())``), a step per item."""

        def wrapped(items: Any) -> bool:
            if type(items) not in (list, tuple, str, dict, set, frozenset):
                items = Counted(iter(items), budget, name)
            return fn(items)

        return wrapped

    def round_(number: Any, ndigits: Any = None) -> Any:
        # round(5, -10**9) computes 10 ** 10**9 first: bound it like the ** operator
        if type(number) in (int, bool) and type(ndigits) is int and ndigits < 0:
            budget.check_int_bits(int(-ndigits * 3.33) + 1)
        return round(number) if ndigits is None else round(number, ndigits)

    def sum_(items: Any, start: Any = 0) -> Any:
        items = materialize(items)
        if isinstance(start, (list, tuple)):  # sum(lists, []) concatenates: bound the result first
            budget.check_length(start, len(start) + sum(len(i) for i in items if isinstance(i, (list, tuple))))
            return _concatenated(items, start)
        check_nested(items, budget)  # adding big ints copies them whole: sum([2**99999] * 10**6) was 3 s of C
        return sum(items, start)

    wrapped_types = {
        name: over(getattr(builtins, name), name, compares=name in ("dict", "set", "frozenset"))
        for name in ("list", "tuple", "dict", "set", "frozenset")
    }
    set_of, frozenset_of = wrapped_types["set"], wrapped_types["frozenset"]

    def set_(*args: Any) -> set[Any]:
        return check_set(set_of(*args))  # type: ignore[no-any-return]

    def frozenset_(*args: Any) -> frozenset[Any]:
        return check_set(frozenset_of(*args))  # type: ignore[no-any-return]

    wrapped_types["set"], wrapped_types["frozenset"] = set_, frozenset_
    # The run's list, dict, str...: checked functions that print and compare as the types (type([]) is list)
    types_ = {name: BuiltinType(getattr(builtins, name), fn) for name, fn in wrapped_types.items()}
    types_["str"] = BuiltinType(str, to_str)
    types_["range"] = BuiltinType(range, range_)

    def unwrap(cls: Any) -> Any:
        if isinstance(cls, tuple):
            return tuple(unwrap(c) for c in cls)
        if isinstance(cls, TypeStandIn):
            return cls.real
        return object if cls is PlainObject else cls

    def id_(obj: Any) -> int:
        """The run's number for ``obj`` as an address (what its repr shows), never where the process put it."""
        return int(address_of(obj), 16)

    def hash_(obj: Any) -> int:
        if isinstance(obj, (tuple, frozenset)):
            check_nested(obj, budget)  # hashed item by item in C
        value = hash(obj)
        if not hashes_alike((obj,)):
            read_the_machine("hash() of a value hashed by its memory address or the string-hash secret")
        return value

    def isinstance_(obj: Any, cls: Any) -> bool:
        check_nested(cls, budget)  # nested tuples of classes are walked in full
        return isinstance(obj, unwrap(cls))

    names: dict[str, Any] = dict(PLAIN_BUILTINS)
    names.update(types_)
    names.update(
        print=print_,
        id=id_,
        hash=hash_,
        staticmethod=StaticMethod,
        classmethod=ClassMethod,
        type=None,  # the interpreter's (engine.sandbox.typeview.TypeOf): it needs the run's modules
        repr=repr_,
        format=format_,
        isinstance=isinstance_,
        sum=sum_,
        round=round_,
        min=over(min, "min", only_alone=True),
        max=over(max, "max", only_alone=True),
        sorted=over(sorted, "sorted"),
        any=short(any, "any"),
        all=short(all, "all"),
        iter=iter_,
        map=lazy(map, "map"),
        filter=lazy(filter, "filter"),
        zip=lazy(zip, "zip"),
        enumerate=lazy(enumerate, "enumerate"),
        reversed=lazy(reversed, "reversed"),
        object=PlainObject,  # object(): printed and hashed by the run's numbering, never by its address
    )
    for name, value in names.items():
        if isinstance(value, types.FunctionType):  # print(print), errors: the builtin's name, not the wrapper's
            value.__name__ = value.__qualname__ = name
    return names

"""The sandbox's ``collections``: ``OrderedDict``, ``defaultdict``, ``Counter``, ``deque`` and ``namedtuple``,
Python's own behaviour with every input a C loop would walk counted by the run's budget first.

The classes are made fresh for each run (``make_collections``), so nothing a program does to them is seen by the
next; ``namedtuple`` builds its class without ``exec`` (Python's own compiles source text).

Example::

    >>> c = make_collections(Budget())
    >>> c.Counter("abca").most_common(1)
    [('a', 2)]
"""

from __future__ import annotations

import collections
import keyword
import operator
import types
from typing import Any

from engine.sandbox.budget import Budget
from engine.sandbox.errors import LimitExceeded
from engine.sandbox.policy import SafeNamespace
from engine.sandbox.sizes import count_of

MAX_FIELDS = 1000  # fields of a namedtuple
_WRAPPED = frozenset(("list", "tuple", "dict", "set", "str", "range"))  # builtins the sandbox wraps in a function


def _factory(f: Any) -> str:
    """A default factory as Python shows it: the sandbox's ``list`` (a checked wrapper) as ``<class 'list'>``."""
    if isinstance(f, types.FunctionType) and f.__module__ == "engine.sandbox.safe_builtins" and f.__name__ in _WRAPPED:
        return f"<class '{f.__name__}'>"
    return repr(f)


def make_collections(budget: Budget) -> SafeNamespace:
    """A fresh ``collections`` for one run."""
    counted = budget.materialize

    def fed(args: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(counted(a) if i == 0 and not isinstance(a, dict) else a for i, a in enumerate(args))

    class OrderedDict(collections.OrderedDict):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*fed(args), **kwargs)

        def update(self, *args: Any, **kwargs: Any) -> None:
            super().update(*fed(args), **kwargs)

    class defaultdict(collections.defaultdict):  # type: ignore[type-arg]
        def __init__(self, default_factory: Any = None, *args: Any, **kwargs: Any) -> None:
            super().__init__(default_factory, *fed(args), **kwargs)

        def update(self, *args: Any, **kwargs: Any) -> None:
            super().update(*fed(args), **kwargs)

        def __repr__(self) -> str:
            return f"defaultdict({_factory(self.default_factory)}, {dict.__repr__(self)})"

    class Counter(collections.Counter):  # type: ignore[type-arg]
        def __init__(self, iterable: Any = None, /, **kwds: Any) -> None:
            super().__init__(None if iterable is None else _fed_one(iterable), **kwds)

        def update(self, iterable: Any = None, /, **kwds: Any) -> None:
            super().update(None if iterable is None else _fed_one(iterable), **kwds)

        def subtract(self, iterable: Any = None, /, **kwds: Any) -> None:
            super().subtract(None if iterable is None else _fed_one(iterable), **kwds)

        def elements(self) -> Any:
            budget.check_length(list, sum(n for n in self.values() if isinstance(n, int) and n > 0))
            return super().elements()

    def _fed_one(iterable: Any) -> Any:
        return iterable if isinstance(iterable, dict) else counted(iterable)

    class deque(collections.deque):  # type: ignore[type-arg]
        def __init__(self, iterable: Any = (), maxlen: int | None = None) -> None:
            super().__init__(counted(iterable), maxlen)

        def extend(self, iterable: Any) -> None:
            super().extend(counted(iterable))

        def extendleft(self, iterable: Any) -> None:
            super().extendleft(counted(iterable))

        def __mul__(self, n: Any) -> Any:
            if count_of(n) is not None:
                budget.check_length(list, len(self) * count_of(n))
            return super().__mul__(n)

        __rmul__ = __mul__

        def __imul__(self, n: Any) -> Any:
            if count_of(n) is not None:
                budget.check_length(list, len(self) * count_of(n))
            return super().__imul__(n)

    def namedtuple(
        typename: str, field_names: Any, *, rename: bool = False, defaults: Any = None, module: Any = None
    ) -> type:
        if isinstance(field_names, str):
            field_names = field_names.replace(",", " ").split()
        fields = [str(f) for f in counted(field_names)]
        if len(fields) > MAX_FIELDS:
            raise LimitExceeded(f"a namedtuple of {len(fields):,} fields is over the limit of {MAX_FIELDS:,}")
        for name in [typename, *fields]:
            if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
                raise ValueError(f"Type names and field names must be valid identifiers: {name!r}")
        if len(set(fields)) != len(fields):
            raise ValueError(f"Encountered duplicate field name: {next(f for f in fields if fields.count(f) > 1)!r}")
        if any(f.startswith("_") for f in fields):
            raise ValueError(f"Field names cannot start with an underscore: {next(f for f in fields if f[0] == '_')!r}")
        defaults = tuple(counted(defaults)) if defaults is not None else ()
        if len(defaults) > len(fields):
            raise TypeError("Got more default values than field names")
        tail = dict(zip(fields[len(fields) - len(defaults) :], defaults))

        def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
            if len(args) > len(fields):
                raise TypeError(
                    f"{typename}.__new__() takes {len(fields) + 1} positional arguments but {len(args) + 1} were given"
                )
            values = dict(zip(fields, args))
            for key, value in kwargs.items():
                if key not in fields or key in values:
                    raise TypeError(
                        f"{typename}.__new__() got an unexpected keyword argument '{key}'"
                        if key not in fields
                        else f"{typename}.__new__() got multiple values for argument '{key}'"
                    )
                values[key] = value
            missing = [f for f in fields if f not in values and f not in tail]
            if missing:
                raise TypeError(
                    f"{typename}.__new__() missing {len(missing)} required positional argument"
                    f"{'s' if len(missing) > 1 else ''}: " + " and ".join(repr(m) for m in missing)
                )
            return tuple.__new__(cls, [values.get(f, tail.get(f)) for f in fields])

        def __repr__(self: Any) -> str:
            return f"{typename}(" + ", ".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"

        namespace: dict[str, Any] = {
            "__new__": __new__,
            "__repr__": __repr__,
            "__slots__": (),
            "_fields": tuple(fields),
            "__module__": __name__,
        }
        for i, f in enumerate(fields):
            namespace[f] = property(operator.itemgetter(i), doc=f"Alias for field number {i}")
        return type(typename, (tuple,), namespace)

    for cls in (OrderedDict, defaultdict, Counter, deque):
        cls.__qualname__ = cls.__name__
    return SafeNamespace(
        "collections",
        {
            "OrderedDict": OrderedDict,
            "defaultdict": defaultdict,
            "Counter": Counter,
            "deque": deque,
            "namedtuple": namedtuple,
        },
    )

"""The sandbox's ``dataclasses``: ``@dataclass`` (``init``, ``repr``, ``eq``, ``order``, ``frozen``), ``field``,
``asdict``, ``astuple``, ``fields``, ``replace``, ``is_dataclass``, on the learner's own classes only.

Python's ``dataclasses`` writes source text and ``exec``s it; here the methods are closures over the class's field
list, so nothing is compiled. The field order is the order of the class body's annotations (``define_class`` keeps
them, unevaluated); a text's size is checked before it is built.

Example::

    >>> @dataclass
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> Point(1)
    Point(x=1, y=0)
"""

from __future__ import annotations

import operator
from typing import Any

from engine.run_state import read_the_machine
from engine.sandbox.budget import Budget
from engine.sandbox.identity import hashes_alike
from engine.sandbox.policy import SafeNamespace, user_class
from engine.sandbox.sizes import text_size

FIELDS = "__dataclass_fields__"


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<dataclasses._MISSING_TYPE object>"


MISSING = _Missing()


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen dataclass."""


FrozenInstanceError.__module__ = "dataclasses"


class Field:
    """``dataclasses.field(...)``: a field's default, factory and flags; ``name`` once its class is made."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool) -> None:
        self.name: str | None = None
        self.type: Any = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r},type={self.type!r},default={self.default!r})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    compare: bool = True,
) -> Field:
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


def _fields(cls: type) -> list[Field]:
    out: dict[str, Field] = {}
    for klass in reversed(cls.__mro__):
        out.update(klass.__dict__.get(FIELDS, {}))
    return list(out.values())


def make_dataclasses(budget: Budget) -> SafeNamespace:
    """A fresh ``dataclasses`` for one run."""

    def dataclass(
        cls: Any = None, *, init: bool = True, repr: bool = True, eq: bool = True, order: bool = False,
        frozen: bool = False, **_: Any,
    ) -> Any:  # fmt: skip
        def wrap(cls: Any) -> Any:
            if not user_class(cls):
                raise TypeError("dataclass() works on the classes of your program only here")
            own: dict[str, Field] = {}
            for name, annotation in cls.__dict__.get("__annotations__", {}).items():
                if annotation.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                value = cls.__dict__.get(name, MISSING)
                f = value if isinstance(value, Field) else Field(value, MISSING, True, True, True)
                f.name, f.type = name, annotation
                if type(f.default) in (list, dict, set):
                    raise ValueError(
                        f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory"
                    )
                if f.default is not MISSING:
                    type.__setattr__(cls, name, f.default)
                elif isinstance(value, Field):
                    type.__delattr__(cls, name)
                own[name] = f
            type.__setattr__(cls, FIELDS, own)
            all_fields = _fields(cls)
            if init:
                type.__setattr__(cls, "__init__", _make_init(cls.__qualname__, all_fields, frozen))
            if repr:
                type.__setattr__(cls, "__repr__", _make_repr(all_fields, budget))
            if eq:
                _add_comparisons(cls, all_fields, order)
                if frozen:
                    type.__setattr__(cls, "__hash__", _make_hash(all_fields))
                else:
                    type.__setattr__(cls, "__hash__", None)
            if frozen:
                type.__setattr__(cls, "__setattr__", _frozen_setattr)
            return cls

        return wrap if cls is None else wrap(cls)

    def asdict(obj: Any) -> Any:
        return _walk(obj, lambda o: {f.name: asdict(getattr(o, f.name)) for f in _fields(type(o))}, asdict)

    def astuple(obj: Any) -> Any:
        return _walk(obj, lambda o: tuple(astuple(getattr(o, f.name)) for f in _fields(type(o))), astuple)

    def _walk(obj: Any, dataclass_case: Any, again: Any) -> Any:
        budget.charge_steps(1)
        if FIELDS in getattr(type(obj), "__dict__", {}) or any(FIELDS in k.__dict__ for k in type(obj).__mro__):
            return dataclass_case(obj)
        if isinstance(obj, (list, tuple)):
            return type(obj)(again(v) for v in obj)
        if isinstance(obj, dict):
            return {again(k): again(v) for k, v in obj.items()}
        return obj

    def fields(obj: Any) -> tuple[Field, ...]:
        cls = obj if isinstance(obj, type) else type(obj)
        if not is_dataclass(cls):
            raise TypeError("must be called with a dataclass type or instance")
        return tuple(_fields(cls))

    def is_dataclass(obj: Any) -> bool:
        cls = obj if isinstance(obj, type) else type(obj)
        return any(FIELDS in k.__dict__ for k in cls.__mro__)

    def replace(obj: Any, **changes: Any) -> Any:
        values = {f.name: getattr(obj, f.name) for f in _fields(type(obj)) if f.init}
        values.update(changes)
        return type(obj)(**values)

    return SafeNamespace(
        "dataclasses",
        {
            "dataclass": dataclass,
            "field": field,
            "asdict": asdict,
            "astuple": astuple,
            "fields": fields,
            "replace": replace,
            "is_dataclass": is_dataclass,
            "FrozenInstanceError": FrozenInstanceError,
            "MISSING": MISSING,
        },
    )


def _values(obj: Any, fields: list[Field]) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in fields if f.compare)


def _make_init(qualname: str, fields: list[Field], frozen: bool) -> Any:
    params = [f for f in fields if f.init]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(params):
            required = sum(1 for f in params if f.default is MISSING and f.default_factory is MISSING)
            takes = f"from {required + 1} to {len(params) + 1}" if required < len(params) else f"{len(params) + 1}"
            raise TypeError(f"{qualname}.__init__() takes {takes} positional arguments but {len(args) + 1} were given")
        values = dict(zip((f.name for f in params), args))
        for key, value in kwargs.items():
            if key in values:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument '{key}'")
            if not any(f.name == key for f in params):
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        missing = [
            f.name for f in params if f.name not in values and f.default is MISSING and f.default_factory is MISSING
        ]
        if missing:
            listed = " and ".join(f"'{m}'" for m in missing)
            raise TypeError(
                f"{qualname}.__init__() missing {len(missing)} required positional argument"
                f"{'s' if len(missing) > 1 else ''}: {listed}"
            )
        for f in fields:
            if f.name in values:
                value = values[f.name]
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            elif f.default is not MISSING:
                value = f.default
            else:
                continue
            if frozen:
                object.__setattr__(self, f.name, value)
            else:
                setattr(self, f.name, value)
        post = getattr(type(self), "__post_init__", None)
        if post is not None:
            post(self)

    return __init__


def _make_hash(fields: list[Field]) -> Any:
    def __hash__(self: Any) -> int:
        values = _values(self, fields)
        if not hashes_alike(values):
            read_the_machine("hash() of a value hashed by its memory address or the string-hash secret")
        return hash(values)

    __hash__.gt_run_hash = True  # type: ignore[attr-defined]  # checks what it hashes (engine.sandbox.identity)
    return __hash__


def _make_repr(fields: list[Field], budget: Budget) -> Any:
    def __repr__(self: Any) -> str:
        parts = []
        for f in fields:
            if f.repr:
                value = getattr(self, f.name)
                text_size(value, budget)
                parts.append(f"{f.name}={value!r}")
        return f"{type(self).__qualname__}({', '.join(parts)})"

    return __repr__


def _add_comparisons(cls: type, fields: list[Field], order: bool) -> None:
    def eq(self: Any, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return _values(self, fields) == _values(other, fields)

    type.__setattr__(cls, "__eq__", eq)
    if order:
        for name, op in (("__lt__", "lt"), ("__le__", "le"), ("__gt__", "gt"), ("__ge__", "ge")):
            type.__setattr__(cls, name, _ordering(fields, op))


def _ordering(fields: list[Field], op: str) -> Any:
    compare = getattr(operator, op)

    def method(self: Any, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return compare(_values(self, fields), _values(other, fields))

    return method


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field '{name}'")

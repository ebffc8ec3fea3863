"""What user code may touch: attribute reads and writes, and the methods of plain Python values.

Reads are allowed on facade namespaces and engine objects (classes defined in ``engine.*`` outside the sandbox),
and on str/list/tuple/dict/int/float/bool for a whitelist of ordinary methods. Names starting with ``_`` are
refused, except PyTorch's saved-tensor attributes on graph nodes (``y.grad_fn._saved_self``). Nothing hands user
code a module, frame, code object or a builtin such as ``getattr``.

Example::

    >>> get_attr(torch_namespace, "tensor")       # fine
    >>> get_attr((), "__class__")
    Traceback (most recent call last):
    NotSupported: attribute '__class__' is not accessible
"""

from __future__ import annotations

import builtins
import string
import types
from collections.abc import Callable
from typing import Any

from engine.run_state import identity_repr, serial_hash
from engine.sandbox.budget import Budget
from engine.sandbox.errors import NotSupported
from engine.sandbox.sizes import BoundedFormatter, check_format_spec, check_nested
from engine.tensor import Tensor


class SafeNamespace:
    """A module-like bag of allowed functions and constants, e.g. the sandbox's ``math``."""

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self.__dict__.update(members)
        self.__dict__["_gt_name"] = name

    def __repr__(self) -> str:
        return f"<module '{self._gt_name}'>"

    def __getattr__(self, name: str) -> Any:  # only called for a missing name
        raise AttributeError(f"module '{self.__dict__.get('_gt_name', '?')}' has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        raise NotSupported(f"module '{self._gt_name}' cannot be changed")


class SandboxObject:
    """Marker base for objects the sandbox makes and user code may read attributes of (user classes). Their
    default repr and hash are the run's (``<__main__.Point object at 0x7f3a5c000010>``), never the address."""

    __repr__ = identity_repr
    __hash__ = serial_hash


class SuperProxy:
    """What ``super()`` gives user code: attribute reads go to the parent class, nothing else.

    ``super(C, obj)`` needs ``obj`` to be an instance of ``C`` or, for the class-method form, a subclass of ``C``
    (Python's own rule). In that second form the methods come unbound (``super(C, C).__init__``): each is then
    callable only on an instance of ``C``, so that no engine method (``dtype``'s, ``Module.__init__``) can be run on
    an object the run does not own, such as a dtype every run shares."""

    __slots__ = ("_super", "_cls", "_unbound", "_of")

    def __init__(self, cls: type, obj: Any) -> None:
        if not (isinstance(obj, cls) or (isinstance(obj, type) and issubclass(obj, cls))):
            raise TypeError("super(type, obj): obj must be an instance or subtype of type")
        self._super = super(cls, obj)
        self._cls = cls
        self._unbound = isinstance(obj, type)
        self._of = obj.__name__ if isinstance(obj, type) else type(obj).__name__

    def __repr__(self) -> str:  # as Python's, without the instance's address
        return f"<super: <class '{self._cls.__name__}'>, <{self._of} object>>"

    def lookup(self, name: str) -> Any:
        value = getattr(self._super, name)
        if self._unbound and callable(value) and not isinstance(value, (type, types.MethodType)):
            return _OnInstancesOf(value, self._cls, name)
        return value


class _OnInstancesOf:
    """An unbound method that may only be called with an instance of ``cls`` first."""

    __slots__ = ("_method", "_cls", "_name")

    def __init__(self, method: Any, cls: type, name: str) -> None:
        self._method, self._cls, self._name = method, cls, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args or not isinstance(args[0], self._cls):
            got = type(args[0]).__name__ if args else "nothing"
            raise TypeError(f"descriptor '{self._name}' requires a '{self._cls.__name__}' object but received {got!r}")
        return self._method(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<method '{self._name}' of '{self._cls.__name__}' objects>"


_REFUSED_RESULTS = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType, types.GeneratorType)
_DANGEROUS_IDS = frozenset(
    id(getattr(builtins, n))
    for n in [
        "getattr",
        "setattr",
        "delattr",
        "eval",
        "exec",
        "compile",
        "open",
        "__import__",
        "globals",
        "locals",
        "vars",
        "dir",
        "type",
        "object",
        "input",
        "breakpoint",
        "help",
        "memoryview",
        "super",
        "classmethod",
        "staticmethod",
        "property",
    ]
)

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
PLAIN_METHODS: dict[type, frozenset[str]] = {
    str: _STR,
    list: _LIST,
    tuple: _TUPLE,
    dict: _DICT,
    int: _NUMBER,
    float: _NUMBER,
    bool: _NUMBER,
}

_type_ok: dict[type, bool] = {}


def engine_type(t: type) -> bool:
    """Is ``t`` one of our engine's classes (or a sandbox-made namespace/user class)?"""
    ok = _type_ok.get(t)
    if ok is None:
        mod = getattr(t, "__module__", None) or ""
        ok = (
            ((mod == "engine" or mod.startswith("engine.")) and not mod.startswith("engine.sandbox"))
            # engine classes may call themselves torch.* to print like PyTorch (real torch is never reachable)
            or mod == "torch"
            or mod.startswith("torch.")
            # ... and numpy.* (engine/ndarray), marked in their own class dict: real numpy's classes never are
            or (mod == "numpy" and t.__dict__.get("_gt_numpy") is True)
            or issubclass(t, (SafeNamespace, SandboxObject))
        )
        if mod != "__main__":  # a run's own classes are not kept: through their methods they hold all of its state
            _type_ok[t] = ok
    return ok


def _type_name(obj: Any) -> str:
    return type(obj).__name__


def _sized(budget: Budget, method: Callable[..., Any], size: Callable[..., int], kind: Any) -> Callable[..., Any]:
    def checked(*args: Any, **kwargs: Any) -> Any:
        budget.check_length(kind, size(*args, **kwargs))
        return method(*args, **kwargs)

    return checked


def _width(width: Any = 0, *_: Any) -> int:
    return width if isinstance(width, int) else 0


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


def _checked_plain_method(obj: Any, name: str, budget: Budget) -> Any:
    method = getattr(obj, name)
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


def _plain_base(obj: Any) -> frozenset[str] | None:
    """The method whitelist for a subclass of a plain type (``OrderedDict`` from ``state_dict()``)."""
    for base in (dict, list, tuple, str):
        if isinstance(obj, base):
            return PLAIN_METHODS[base]
    return None


def get_attr(obj: Any, name: str, budget: Budget) -> Any:
    """``obj.name`` as user code may see it."""
    t = type(obj)
    if name[0] == "_":
        if name.startswith("_saved_") and engine_type(t):
            return _checked_result(getattr(obj, name), name)
        if name == "__init__" and t is SuperProxy:
            return obj.lookup(name)
        raise NotSupported(f"attribute '{name}' is not accessible")
    if t is SuperProxy:
        return _checked_result(obj.lookup(name), name)
    allowed = PLAIN_METHODS.get(t)
    if allowed is None and not engine_type(t):
        allowed = _plain_base(obj)
    if allowed is not None:
        if name in allowed:
            return _checked_plain_method(obj, name, budget)
        if hasattr(obj, name):
            raise NotSupported(f"'{_type_name(obj)}.{name}' is not available")
        raise AttributeError(f"'{_type_name(obj)}' object has no attribute '{name}'")
    if obj is None:  # x.grad.zero_() before any backward: Python's own error, as a course shows it
        raise AttributeError(f"'NoneType' object has no attribute '{name}'")
    if not engine_type(t):
        raise NotSupported(f"attribute '{name}' of a {_type_name(obj)} value is not accessible")
    return _checked_result(getattr(obj, name), name)


def _checked_result(value: Any, name: str) -> Any:
    """Never hand out a module, frame, code object, generator internals or a builtin such as ``getattr``."""
    if isinstance(value, _REFUSED_RESULTS) or id(value) in _DANGEROUS_IDS:
        raise NotSupported(f"attribute '{name}' is not accessible")
    return value


_TENSOR_ATTRS = frozenset(("grad", "requires_grad", "data"))


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` as user code may do it."""
    if name[0] == "_":
        raise NotSupported(f"attribute '{name}' cannot be assigned")
    t = type(obj)
    mod = getattr(t, "__module__", "") or ""
    if isinstance(obj, Tensor):
        if name not in _TENSOR_ATTRS and isinstance(getattr(Tensor, name, None), property):
            raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
        if name not in _TENSOR_ATTRS:
            raise NotSupported(f"attribute '{name}' of a tensor cannot be assigned (only grad, requires_grad, data)")
    elif mod == "engine.facade" or isinstance(obj, SafeNamespace):
        raise NotSupported(f"attribute '{name}' of a module cannot be assigned")
    elif not (engine_type(t) and (mod.startswith(("engine.nn", "engine.optim")) or isinstance(obj, SandboxObject))):
        raise NotSupported(f"attribute '{name}' of a {t.__name__} value cannot be assigned")
    setattr(obj, name, value)

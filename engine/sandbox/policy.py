"""What user code may touch: attribute reads and writes, and the methods of plain Python values.

Reads are allowed on facade namespaces and engine objects (classes defined in ``engine.*`` outside the sandbox),
on the learner's own classes (``Net.scale``) and on str/list/tuple/dict/set/int/float/bool for a whitelist of
ordinary methods. Names starting with ``_`` are the learner's own business on the learner's own objects (an
attribute their code set, a method or class attribute their class defines) and refused everywhere else, except
PyTorch's saved-tensor attributes on graph nodes (``y.grad_fn._saved_self``), ``torch.__version__`` and
``__name__``. Nothing hands user code a module, frame, code object or a builtin such as ``getattr``.

Example::

    >>> get_attr(torch_namespace, "tensor")       # fine
    >>> get_attr((), "__class__")
    Traceback (most recent call last):
    NotSupported: attribute '__class__' is not accessible
"""

from __future__ import annotations

import builtins
import types
from typing import Any

from engine.run_state import identity_repr, serial_hash
from engine.sandbox.budget import Budget
from engine.sandbox.errors import NotSupported
from engine.sandbox.parse import USER_DUNDERS
from engine.sandbox.plain_methods import PLAIN_METHODS, plain_base, plain_method
from engine.sandbox.safe_builtins import Counted
from engine.tensor import Tensor

PRIVATE_KEY = (
    " private"  # where an object of the learner's keeps the '_' names its code set (no identifier has a space)
)


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
            or (mod.split(".")[0] == "numpy" and t.__dict__.get("_gt_numpy") is True)
            or issubclass(t, (SafeNamespace, SandboxObject))
        )
        if mod != "__main__":  # a run's own classes are not kept: through their methods they hold all of its state
            _type_ok[t] = ok
    return ok


def _type_name(obj: Any) -> str:
    return type(obj).__name__


def user_class(cls: Any) -> bool:
    """Is ``cls`` a class some run's code defined?"""
    return isinstance(cls, type) and issubclass(cls, SandboxObject) and cls.__module__ == "__main__"


def _owner(cls: type, name: str) -> type | None:
    """The class of ``cls``'s MRO that defines ``name``, if any."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass
    return None


def _private_ok(obj: Any, name: str) -> bool:
    """May user code read ``obj._name``? Only on the learner's own objects: a name their code set on it
    (``set_attr`` notes it), or a method or class attribute of their own class; never a name an engine base
    (``nn.Module``'s ``_parameters``) or Python uses."""
    if name[:2] == "__" and name[-2:] == "__":
        return False
    t = type(obj)
    if user_class(obj):
        owner = _owner(obj, name)
        return owner is not None and user_class(owner)
    if not user_class(t):
        return False
    own = getattr(obj, "__dict__", {})
    if name in own.get(PRIVATE_KEY, ()):
        return True
    owner = _owner(t, name)
    if owner is not None:
        return user_class(owner)
    return name not in own  # not there at all: Python's AttributeError; set by an engine base: refused


def _name_of(obj: Any) -> str:
    """``obj.__name__``: the name of a class, function or module, never anything else."""
    if isinstance(obj, SafeNamespace):
        return obj._gt_name  # type: ignore[no-any-return]
    if type(obj).__name__ == "Namespace" and engine_type(type(obj)):
        return obj._name  # type: ignore[no-any-return]
    name = getattr(obj, "__name__", None) if (isinstance(obj, type) or callable(obj)) else None
    if type(name) is not str:
        raise AttributeError(f"'{_type_name(obj)}' object has no attribute '__name__'")
    return name


def _class_attr(cls: type, name: str) -> Any:
    """``Net.scale``: an attribute read on the learner's own class. What the class (or a class of the learner's
    above it) defines comes as Python gives it; a method of an engine base only as an unbound method, callable on
    an instance of the class (as ``super(C, C)`` gives it)."""
    owner = _owner(cls, name)
    if owner is None:
        raise AttributeError(f"type object '{cls.__name__}' has no attribute '{name}'")
    value = getattr(cls, name)
    if user_class(owner):
        return value
    if isinstance(value, types.MethodType) and value.__self__ is cls:
        return value  # a classmethod of the engine base, bound to the learner's class (``MyReLU.apply``)
    if callable(value) and not isinstance(value, type):
        return _OnInstancesOf(value, cls, name)
    return _checked_result(value, name)


def get_attr(obj: Any, name: str, budget: Budget) -> Any:
    """``obj.name`` as user code may see it."""
    t = type(obj)
    if name[0] == "_":
        if name.startswith("_saved_") and engine_type(t):
            return _checked_result(getattr(obj, name), name)
        if name in USER_DUNDERS and t is SuperProxy:
            return obj.lookup(name)
        if name == "__name__":
            return _name_of(obj)
        if name == "__version__" and (
            (t is SafeNamespace and name in obj.__dict__) or (type(obj).__name__ == "Namespace" and engine_type(t))
        ):
            return _checked_result(getattr(obj, name), name)
        if not _private_ok(obj, name):
            raise NotSupported(f"attribute '{name}' is not accessible")
        return _class_attr(obj, name) if isinstance(obj, type) else getattr(obj, name)
    if t is SuperProxy:
        return _checked_result(obj.lookup(name), name)
    allowed = PLAIN_METHODS.get(t)
    if allowed is None and not engine_type(t):
        allowed = plain_base(obj)
    if allowed is not None:
        if name in allowed:
            return plain_method(obj, name, budget)
        if hasattr(obj, name):
            raise NotSupported(f"'{_type_name(obj)}.{name}' is not available")
        raise AttributeError(f"'{_type_name(obj)}' object has no attribute '{name}'")
    if name == "value" and t is StopIteration:  # what a generator returned (the learner's own value)
        return obj.value
    if obj is None:  # x.grad.zero_() before any backward: Python's own error, as a course shows it
        raise AttributeError(f"'NoneType' object has no attribute '{name}'")
    if engine_type(t):
        return _checked_result(getattr(obj, name), name)
    if user_class(obj):
        return _class_attr(obj, name)
    if t is Counted and name == "next":  # Python 2's `it.next()` in old notebooks: Python's own error (any other
        raise AttributeError(f"'{obj._kind}' object has no attribute 'next'")  # name stays refused: gi_frame...
    raise NotSupported(f"attribute '{name}' of a {_type_name(obj)} value is not accessible")


def _checked_result(value: Any, name: str) -> Any:
    """Never hand out a module, frame, code object, generator internals or a builtin such as ``getattr``."""
    if isinstance(value, _REFUSED_RESULTS) or id(value) in _DANGEROUS_IDS:
        raise NotSupported(f"attribute '{name}' is not accessible")
    return value


_TENSOR_ATTRS = frozenset(("grad", "requires_grad", "data"))


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` as user code may do it."""
    t = type(obj)
    if name[0] == "_":
        # The learner's own object may get '_' names of its own, never one its engine base or Python uses.
        owner = _owner(t, name) if user_class(t) else None
        own = getattr(obj, "__dict__", None) if user_class(t) else None
        if (
            own is None
            or (name[:2] == "__" and name[-2:] == "__")
            or (owner is not None and not user_class(owner))
            or (name in own and name not in own.get(PRIVATE_KEY, ()))
        ):
            raise NotSupported(f"attribute '{name}' cannot be assigned")
        setattr(obj, name, value)
        if name not in own.get(PRIVATE_KEY, ()):
            own[PRIVATE_KEY] = own.get(PRIVATE_KEY, frozenset()) | {name}
        return
    mod = getattr(t, "__module__", "") or ""
    if isinstance(obj, Tensor):
        if name not in _TENSOR_ATTRS and isinstance(getattr(Tensor, name, None), property):
            raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
        if name not in _TENSOR_ATTRS:
            raise NotSupported(f"attribute '{name}' of a tensor cannot be assigned (only grad, requires_grad, data)")
    elif mod == "engine.facade" and name in obj.__dict__.get("_flags", ()):
        obj.set_flag(name, value)  # a settings module's flag (torch.backends.cudnn.deterministic); nothing else
        return
    elif mod == "engine.facade" or isinstance(obj, SafeNamespace):
        raise NotSupported(f"attribute '{name}' of a module cannot be assigned")
    elif not (
        engine_type(t)
        # nn modules, optimizers, the learner's objects, and the ctx of the learner's autograd.Function
        and (mod.startswith(("engine.nn", "engine.optim", "torch.autograd.function")) or isinstance(obj, SandboxObject))
    ):
        raise NotSupported(f"attribute '{name}' of a {t.__name__} value cannot be assigned")
    setattr(obj, name, value)

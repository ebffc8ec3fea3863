"""User classes: ``class Net(nn.Module): ...`` with ``__init__``, ``forward`` and ``super().__init__()``.

A user class is a real Python class (so the engine's ``Module.__call__`` finds ``forward``) whose methods are
``UserFunction``s run by the interpreter. Its ``__module__`` is ``__main__`` so it prints like a script's class.
Among the dunder methods it may define those of ``parse.USER_DUNDERS`` (``__len__``, ``__getitem__``, ``__iter__``,
``__call__``, ``__repr__``, operators...): Python dispatches them to the ``UserFunction``, which runs in the
interpreter under the run's budget, whether user code or the engine (``DataLoader`` over a ``Dataset``) asks.

Bases are the learner's own classes and the engine classes courses subclass (``COURSE_BASES``: ``nn.Module`` and
its layers, ``Dataset``, ``Optimizer``, the schedulers), the exceptions of the builtins, ``object`` and the classes a
run makes for itself (``collections.namedtuple('P', 'x y')``, the run's ``OrderedDict``); never a value type every
run shares (a dtype, a device, ``torch.Size``), whose methods could then be turned against it.

Example::

    >>> Net = define_class(interp, class_node)   # then Net() runs the user's __init__ in the interpreter
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from engine.autograd_function import Function
from engine.data import Dataset
from engine.lr_scheduler import LRScheduler
from engine.nn import Module
from engine.optim import Optimizer
from engine.sandbox.errors import NotSupported
from engine.sandbox.functions import ClassMethod, StaticMethod, UserFunction
from engine.sandbox.identity import PlainObject
from engine.sandbox.policy import SandboxObject, SuperProxy, user_class

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Interpreter

CLASS_KEY = " class"  # frame entries user code cannot name (a space is never part of an identifier)
SELF_KEY = " self"
_BODY = (ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Pass, ast.Expr)
COURSE_BASES = (Module, Dataset, Optimizer, LRScheduler, Function)
# Modules whose classes are made afresh for each run (``collections``' OrderedDict, namedtuple's classes...): a
# subclass of one touches nothing another run sees.
PER_RUN_MODULES = ("engine.stdlib.containers",)
# The interpreter's own errors: an exception class of these names would let a program forge a limit's error.
RESERVED_NAMES = frozenset(("LimitExceeded", "NotSupported", "SandboxError"))


def _base_allowed(interp: Interpreter, base: Any) -> bool:
    if not isinstance(base, type):
        return False
    return (
        user_class(base)
        or base in interp.exception_types
        or base.__module__ in PER_RUN_MODULES
        or (issubclass(base, COURSE_BASES) and not issubclass(base, SandboxObject))
    )


def make_super(interp: Interpreter) -> Any:
    """The ``super`` builtin: ``super()`` inside a method, or ``super(Net, self)``."""

    def super_(*args: Any) -> SuperProxy:
        if len(args) == 2:
            cls, obj = args
            if not user_class(cls):
                raise NotSupported("super() works with your own classes only")
            return SuperProxy(cls, obj)
        if args:
            raise TypeError("super() takes 0 or 2 arguments")
        frame = interp.frame
        while frame is not None:
            if CLASS_KEY in frame.names:
                return SuperProxy(frame.names[CLASS_KEY], frame.names[SELF_KEY])
            frame = frame.parent
        raise RuntimeError("super(): no arguments")

    return super_


def define_class(interp: Interpreter, node: ast.ClassDef) -> type:
    """Run the class body and build the class."""
    bases = []
    for base_node in node.bases:
        base = interp.eval_expr(base_node)
        if base is object or base is PlainObject:  # class Point(object): the Python 2 spelling
            continue
        if base is interp.builtins.get("type"):
            raise NotSupported("'type' is not available as a base class (metaclasses are not supported here)")
        if not _base_allowed(interp, base):
            raise NotSupported(
                "a class can only derive from torch classes meant to be subclassed (nn.Module and its layers, "
                "Dataset, Optimizer, the LR schedulers, autograd.Function), exceptions or your own classes"
            )
        bases.append(base)
    if node.name in RESERVED_NAMES:
        raise NotSupported(f"'{node.name}' is the name of gradtrace's own error: give your class another name")
    for stmt in node.body:
        if not isinstance(stmt, _BODY):
            raise NotSupported("a class body may hold only methods and attributes", stmt.lineno)
    outer = interp.frame
    with interp.child_frame() as frame:
        interp.exec_block(node.body)
    namespace: dict[str, Any] = {"__module__": "__main__", "__qualname__": node.name}
    annotations = {  # in order, as the source writes them (for @dataclass), never evaluated
        stmt.target.id: ast.unparse(stmt.annotation)
        for stmt in node.body
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
    }
    if annotations:
        namespace["__annotations__"] = annotations
    methods = []
    for key, value in frame.names.items():
        if key[:2] == "__" and key[-2:] == "__" and not isinstance(value, UserFunction) and value is not None:
            # `__iter__ = iter` would have Python call a builtin on the object from C, again and again
            raise NotSupported(f"'{key}' must be a method of the class ('def {key}(self, ...)')", node.lineno)
        inner = value.function if isinstance(value, (StaticMethod, ClassMethod)) else value
        if isinstance(inner, UserFunction) and inner is not value:
            inner.closure = outer
            if isinstance(value, ClassMethod):
                methods.append(inner)
        if isinstance(value, UserFunction):
            value.closure = outer  # as in Python, methods do not see the class body's names
            methods.append(value)
        namespace[key] = value
    namespace["__module__"] = "__main__"  # whatever the body assigned: a run's class never passes for the engine's
    if not any(issubclass(b, SandboxObject) for b in bases):
        bases.append(SandboxObject)
    cls = type(node.name, tuple(bases), namespace)
    for method in methods:
        method.owner = cls
    return cls

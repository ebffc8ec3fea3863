"""User classes: ``class Net(nn.Module): ...`` with ``__init__``, ``forward`` and ``super().__init__()``.

A user class is a real Python class (so the engine's ``Module.__call__`` finds ``forward``) whose methods are
``UserFunction``s run by the interpreter. Bases must be engine classes or other user classes. Its ``__module__`` is
``__main__`` so it prints like a script's class. Only ``__init__`` may be defined among the dunder methods.

Example::

    >>> Net = define_class(interp, class_node)   # then Net() runs the user's __init__ in the interpreter
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from engine.sandbox.errors import NotSupported
from engine.sandbox.functions import UserFunction
from engine.sandbox.policy import SandboxObject, SuperProxy, engine_type

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Interpreter

CLASS_KEY = " class"  # frame entries user code cannot name (a space is never part of an identifier)
SELF_KEY = " self"
_BODY = (ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Pass, ast.Expr)


def make_super(interp: "Interpreter") -> Any:
    """The ``super`` builtin: ``super()`` inside a method, or ``super(Net, self)``."""

    def super_(*args: Any) -> SuperProxy:
        if len(args) == 2:
            cls, obj = args
            if not (isinstance(cls, type) and issubclass(cls, SandboxObject)):
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


def define_class(interp: "Interpreter", node: ast.ClassDef) -> type:
    """Run the class body and build the class."""
    bases = []
    for base_node in node.bases:
        base = interp.eval_expr(base_node)
        if base is object:  # class Point(object): the Python 2 spelling
            continue
        if not (isinstance(base, type) and (issubclass(base, SandboxObject) or engine_type(base))):
            raise NotSupported("a class can only derive from torch classes (such as nn.Module) or your own classes")
        bases.append(base)
    for stmt in node.body:
        if not isinstance(stmt, _BODY):
            raise NotSupported("a class body may hold only methods and attributes", stmt.lineno)
    outer = interp.frame
    with interp.child_frame() as frame:
        interp.exec_block(node.body)
    namespace: dict[str, Any] = {"__module__": "__main__", "__qualname__": node.name}
    methods = []
    for key, value in frame.names.items():
        if isinstance(value, UserFunction):
            value.closure = outer  # as in Python, methods do not see the class body's names
            methods.append(value)
        namespace[key] = value
    if not any(issubclass(b, SandboxObject) for b in bases):
        bases.append(SandboxObject)
    cls = type(node.name, tuple(bases), namespace)
    for method in methods:
        method.owner = cls
    return cls

"""User-defined functions and lambdas: ``def f(x): ...`` and ``lambda x: ...`` as callables the engine can also call
(``sorted(key=...)``, ``tensor.register_hook(...)``). User code cannot read their attributes.

Example::

    >>> f = UserFunction(interp, node, defaults=[], kw_defaults=[], closure=interp.frame)
    >>> f(2)
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from engine.run_state import address_of, serial_hash
from engine.sandbox.errors import BreakSignal, ContinueSignal, ReturnSignal

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Frame, Interpreter

_MISSING: Any = object()


class UserFunction:
    """A function defined by user code, run by the interpreter when called."""

    __slots__ = (
        "interp",
        "name",
        "body",
        "is_lambda",
        "closure",
        "params",
        "defaults",
        "kwonly",
        "kw_defaults",
        "vararg",
        "kwarg",
        "simple",
        "owner",
        "generator",
        "__weakref__",
    )

    def __init__(
        self,
        interp: Interpreter,
        node: ast.FunctionDef | ast.Lambda,
        defaults: list[Any],
        kw_defaults: list[Any],
        closure: Frame,
    ) -> None:
        args = node.args
        self.interp = interp
        self.is_lambda = isinstance(node, ast.Lambda)
        self.name = "<lambda>" if self.is_lambda else node.name  # type: ignore[union-attr]
        self.body: Any = node.body
        self.closure = closure
        self.params = [a.arg for a in args.posonlyargs + args.args]
        self.defaults = defaults
        self.kwonly = [a.arg for a in args.kwonlyargs]
        self.kw_defaults = kw_defaults
        self.vararg = args.vararg.arg if args.vararg else None
        self.kwarg = args.kwarg.arg if args.kwarg else None
        self.simple = not (self.vararg or self.kwarg or self.kwonly)
        self.owner: type | None = None  # the user class a method belongs to (for super())
        self.generator = bool(getattr(node, "gt_generator", False))  # its body yields (marked by parse)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        # A method looked up on an instance binds to it, as Python functions do.
        return self if obj is None else BoundMethod(self, obj)

    @property
    def __name__(self) -> str:
        return self.name

    def __repr__(self) -> str:  # as Python's, with the run's address
        return f"<function {self.qualname} at {address_of(self)}>"

    __hash__ = serial_hash

    @property
    def qualname(self) -> str:
        """Python's ``__qualname__``: ``Net.forward`` for a method, ``outer.<locals>.inner`` for a function made by a
        call of another (the nearest call frame around its definition)."""
        own = f"{self.owner.__name__}.{self.name}" if self.owner is not None else self.name
        frame = self.closure
        while frame is not None and frame.fn is None:
            frame = frame.parent
        return own if frame is None else f"{frame.fn.qualname}.<locals>.{own}"

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        params = self.params
        n = len(params)
        if self.simple and not kwargs and len(args) == n:
            return dict(zip(params, args))
        names: dict[str, Any] = {}
        if len(args) > n:
            if self.vararg is None:
                raise TypeError(
                    f"{self.qualname}() takes {n} positional argument{'s' * (n != 1)} but {len(args)} "
                    f"{'were' if len(args) != 1 else 'was'} given"
                )
            names[self.vararg] = tuple(args[n:])
        elif self.vararg is not None:
            names[self.vararg] = ()
        names.update(zip(params, args))
        extra: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key in params or key in self.kwonly:
                if key in names:
                    raise TypeError(f"{self.qualname}() got multiple values for argument '{key}'")
                names[key] = value
            elif self.kwarg is not None:
                extra[key] = value
            else:
                raise TypeError(f"{self.qualname}() got an unexpected keyword argument '{key}'")
        if self.kwarg is not None:
            names[self.kwarg] = extra
        first_default = n - len(self.defaults)
        missing = []
        for i, param in enumerate(params):
            if param not in names:
                if i >= first_default:
                    names[param] = self.defaults[i - first_default]
                else:
                    missing.append(param)
        if missing:
            listed = " and ".join(f"'{m}'" for m in missing)
            raise TypeError(
                f"{self.qualname}() missing {len(missing)} required positional argument"
                f"{'s' * (len(missing) != 1)}: {listed}"
            )
        for key, default in zip(self.kwonly, self.kw_defaults):
            if key not in names:
                if default is _MISSING:
                    raise TypeError(f"{self.qualname}() missing 1 required keyword-only argument: '{key}'")
                names[key] = default
        return names

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        interp = self.interp
        return interp.call_user(self, self._bind(args, kwargs))

    def run_body(self) -> Any:
        """Run the body in the (already pushed) frame; return the function's value."""
        interp = self.interp
        if self.is_lambda:
            return interp.eval_expr(self.body)
        try:
            interp.exec_block(self.body)
        except ReturnSignal as ret:
            return ret.value
        except (BreakSignal, ContinueSignal):  # pragma: no cover - the validator's job, kept as a safety net
            raise SyntaxError("'break' or 'continue' outside loop") from None
        return None


class BoundMethod:
    """A user method bound to its instance."""

    __slots__ = ("function", "instance", "__weakref__")

    def __init__(self, function: UserFunction, instance: Any) -> None:
        self.function = function
        self.instance = instance

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(self.instance, *args, **kwargs)

    def __repr__(self) -> str:
        name = getattr(self.function, "qualname", None) or getattr(self.function, "__name__", "?")
        return f"<bound method {name} of {self.instance!r}>"

    @property
    def __name__(self) -> str:
        return str(getattr(self.function, "__name__", "?"))

    __hash__ = serial_hash


class StaticMethod:
    """``@staticmethod``: the function itself, from the class or an instance."""

    __slots__ = ("function", "__weakref__")

    def __init__(self, function: Any) -> None:
        self.function = function

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self.function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<staticmethod({self.function!r})>"

    __hash__ = serial_hash


class ClassMethod:
    """``@classmethod``: the function bound to the class it is read on (``Config.from_dict(d)``)."""

    __slots__ = ("function", "__weakref__")

    def __init__(self, function: Any) -> None:
        self.function = function

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return BoundMethod(self.function, objtype if objtype is not None else type(obj))

    def __repr__(self) -> str:
        return f"<classmethod({self.function!r})>"

    __hash__ = serial_hash


for _cls, _name in ((StaticMethod, "staticmethod"), (ClassMethod, "classmethod")):
    _cls.__name__ = _cls.__qualname__ = _name
    _cls.__module__ = "builtins"


MISSING = _MISSING

"""One handler per allowed statement node: ``EXEC[type(node)](interp, node)``.

Example::

    >>> interp.exec_stmt(ast.parse("x = 1").body[0])
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.run_state import read_the_machine
from engine.sandbox.budget import CATCH_STEPS
from engine.sandbox.errors import (
    BREAK,
    CONTINUE,
    BreakSignal,
    ContinueSignal,
    LimitExceeded,
    NotSupported,
    ReturnSignal,
)
from engine.sandbox.expressions import make_function
from engine.sandbox.generators import context_manager, handler_for
from engine.sandbox.operators import inplace
from engine.sandbox.policy import SandboxObject, engine_type, get_attr, set_attr, user_class
from engine.sandbox.sizes import check_nested

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Interpreter

Handler = Callable[["Interpreter", Any], None]


def _expr(interp: Interpreter, node: ast.Expr) -> None:
    interp.eval_expr(node.value)


def _assign(interp: Interpreter, node: ast.Assign) -> None:
    value = interp.eval_expr(node.value)
    for target in node.targets:
        interp.assign(target, value)


def _annassign(interp: Interpreter, node: ast.AnnAssign) -> None:
    if node.value is not None:
        interp.assign(node.target, interp.eval_expr(node.value))


def _augassign(interp: Interpreter, node: ast.AugAssign) -> None:
    target = node.target
    op = type(node.op)
    budget = interp.budget
    if type(target) is ast.Name:
        value = inplace(op, interp.lookup(target.id), interp.eval_expr(node.value), budget)
        interp.assign(target, value)
    elif type(target) is ast.Attribute:
        obj = interp.eval_expr(target.value)
        value = inplace(op, get_attr(obj, target.attr, budget), interp.eval_expr(node.value), budget)
        set_attr(obj, target.attr, value)
    else:  # Subscript
        obj = interp.eval_expr(target.value)
        key = interp.eval_expr(target.slice)
        if type(key) is tuple:
            check_nested(key, budget)
        value = inplace(op, obj[key], interp.eval_expr(node.value), budget)
        interp.set_item(obj, key, value)


def _loop_body(interp: Interpreter, body: list[ast.stmt]) -> bool:
    """Run one iteration; False when it ended with ``break``."""
    try:
        interp.exec_block(body)
    except BreakSignal as signal:  # one shared signal: its traceback would keep the loop's iterator alive
        signal.__traceback__ = None
        return False
    except ContinueSignal:
        pass
    return True


def _for(interp: Interpreter, node: ast.For) -> None:
    iterable = iter(interp.eval_expr(node.iter))
    target, body, line, rec = node.target, node.body, node.lineno, interp.rec
    assign = interp.assign
    loop = rec.loop_started(line) if rec is not None else None  # the trace folds long loops (engine/trace/folding)
    try:
        while True:
            if rec is not None:
                rec.line = line  # tensors made by the iteration itself (rows of a tensor) belong to the `for` line
            try:
                item = next(iterable)
            except StopIteration:
                interp.exec_block(node.orelse)
                return
            assign(target, item)
            if rec is not None:
                rec.iteration(loop)
            if not _loop_body(interp, body):
                return
    finally:
        if rec is not None:
            rec.loop_ended(loop)


def _while(interp: Interpreter, node: ast.While) -> None:
    test, body, line, rec = node.test, node.body, node.lineno, interp.rec
    loop = rec.loop_started(line) if rec is not None else None
    try:
        while True:
            if rec is not None:
                rec.line = line
            if not interp.eval_expr(test):
                interp.exec_block(node.orelse)
                return
            if rec is not None:
                rec.iteration(loop)
            if not _loop_body(interp, body):
                return
    finally:
        if rec is not None:
            rec.loop_ended(loop)


def _if(interp: Interpreter, node: ast.If) -> None:
    if interp.eval_expr(node.test):
        interp.exec_block(node.body)
    else:
        interp.exec_block(node.orelse)


def _pass(interp: Interpreter, node: ast.Pass) -> None:
    pass


def _break(interp: Interpreter, node: ast.Break) -> None:
    raise BREAK


def _continue(interp: Interpreter, node: ast.Continue) -> None:
    raise CONTINUE


def _return(interp: Interpreter, node: ast.Return) -> None:
    raise ReturnSignal(interp.eval_expr(node.value) if node.value is not None else None)


def _with(interp: Interpreter, node: ast.With, index: int = 0) -> None:
    """One ``with`` item, the next ones inside it (as Python nests them). ``__exit__`` returning true swallows the
    error, as in Python; a breach ends the run: no ``__exit__`` runs then (nothing of the run runs any more)."""
    if index == len(node.items):
        interp.exec_block(node.body)
        return
    item = node.items[index]
    enter, exit_ = context_manager(interp.eval_expr(item.context_expr))
    entered = enter()
    try:
        if item.optional_vars is not None:
            interp.assign(item.optional_vars, entered)
        _with(interp, node, index + 1)
    except Exception as exc:
        if not exit_(type(exc), exc, None):
            raise
    except LimitExceeded:
        raise
    except BaseException:  # break/continue/return passing through
        exit_(None, None, None)
        raise
    else:
        exit_(None, None, None)


def _function_def(interp: Interpreter, node: ast.FunctionDef) -> None:
    decorators = [interp.eval_expr(d) for d in node.decorator_list]
    fn: Any = make_function(interp, node)
    for decorator in reversed(decorators):
        if engine_type(type(decorator)) and hasattr(decorator, "__enter__") and not callable(decorator):
            fn = ManagedFunction(fn, decorator)  # @torch.no_grad(): the body runs inside the context manager
        else:
            fn = decorator(fn)
    interp.assign_name(node.name, fn)


class ManagedFunction:
    """A function decorated with a torch context manager (``@torch.no_grad()``)."""

    __slots__ = ("function", "manager")

    def __init__(self, function: Any, manager: Any) -> None:
        self.function = function
        self.manager = manager

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self.manager:
            return self.function(*args, **kwargs)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        # a decorated method (`@torch.no_grad()` over `def evaluate(self, ...)`) binds to its instance
        if obj is None or not hasattr(self.function, "__get__"):
            return self
        return ManagedFunction(self.function.__get__(obj, objtype), self.manager)

    def __repr__(self) -> str:
        return repr(self.function)


def _try(interp: Interpreter, node: ast.Try) -> None:
    try:
        try:
            interp.exec_block(node.body)
        except Exception as exc:  # budgets (LimitExceeded) and control flow are BaseExceptions: never caught here
            handler = handler_for(interp, node, exc)
            if handler is None:
                raise
            interp.budget.charge_steps(CATCH_STEPS)
            if isinstance(exc, (MemoryError, RecursionError)):  # how deep or big a machine lets a program go
                read_the_machine(f"the program caught a {type(exc).__name__}")
            # User code never sees tracebacks or chained exceptions: drop them, so that a handler raising again
            # (`except RecursionError: f()`) does not keep every earlier exception and its frames alive.
            exc.__traceback__ = exc.__context__ = None
            if handler.name is not None:
                interp.assign_name(handler.name, exc)
            interp.handling.append(exc)
            try:
                interp.exec_block(handler.body)
            finally:
                interp.handling.pop()
        else:
            interp.exec_block(node.orelse)
    except LimitExceeded:  # a breach ends the run: no `finally` runs
        raise
    except BaseException as exc:  # leaving through `finally` (errors, return/break/continue)
        if node.finalbody:
            exc.__traceback__ = exc.__context__ = None  # as above: `finally: f()` would chain every exception
            interp.exec_block(node.finalbody)
        raise
    interp.exec_block(node.finalbody)


def _global(interp: Interpreter, node: ast.Global) -> None:
    interp.declare(node.names, is_global=True)


def _nonlocal(interp: Interpreter, node: ast.Nonlocal) -> None:
    interp.declare(node.names, is_global=False)


def _delete(interp: Interpreter, node: ast.Delete) -> None:
    for target in node.targets:
        if type(target) is ast.Name:
            frame = interp.frame
            if target.id not in frame.names:
                raise NameError(f"name '{target.id}' is not defined")
            del frame.names[target.id]
        elif type(target) is ast.Subscript:
            obj = interp.eval_expr(target.value)
            key = interp.eval_expr(target.slice)
            if not isinstance(obj, (list, dict)) and not user_class(type(obj)):
                raise NotSupported(f"items of a {type(obj).__name__} value cannot be deleted")
            if type(key) is tuple:
                check_nested(key, interp.budget)
            del obj[key]
        else:
            raise NotSupported("only names and list/dict items can be deleted")


def _import(interp: Interpreter, node: ast.Import) -> None:
    for alias in node.names:
        module = interp.module(alias.name)
        if alias.asname:
            interp.assign_name(alias.asname, module)
        else:
            top = alias.name.split(".")[0]
            interp.assign_name(top, interp.module(top))


def _import_from(interp: Interpreter, node: ast.ImportFrom) -> None:
    base = node.module or ""
    if base == "__future__":  # print_function, annotations...: what Python 3 does anyway (parse checked the names)
        return
    for alias in node.names:
        if alias.name == "*":
            raise NotSupported("'from ... import *' is not supported here")
        full = f"{base}.{alias.name}"
        value = interp.find_module(full)
        if value is None:
            module = interp.module(base)
            try:
                value = get_attr(module, alias.name, interp.budget)
            except AttributeError:
                raise ImportError(f"cannot import name '{alias.name}' from '{base}'") from None
        interp.assign_name(alias.asname or alias.name, value)


def _assert(interp: Interpreter, node: ast.Assert) -> None:
    if not interp.eval_expr(node.test):
        raise AssertionError(interp.eval_expr(node.msg)) if node.msg is not None else AssertionError()


def _raise(interp: Interpreter, node: ast.Raise) -> None:
    if node.exc is None:
        if interp.handling:
            raise interp.handling[-1]
        raise RuntimeError("No active exception to reraise")
    exc = interp.eval_expr(node.exc)
    if isinstance(exc, type) and issubclass(exc, Exception) and _raisable(interp, exc):
        raise exc()
    if isinstance(exc, Exception) and _raisable(interp, type(exc)):
        raise exc
    raise TypeError("exceptions must derive from BaseException")


def _raisable(interp: Interpreter, kind: type) -> bool:
    """The builtins' exceptions and the run's own subclasses of them (``class Stop(Exception)``)."""
    return kind in interp.exception_types or (issubclass(kind, SandboxObject) and kind.__module__ == "__main__")


def _class_def(interp: Interpreter, node: ast.ClassDef) -> None:
    from engine.sandbox.classes import define_class

    decorators = [interp.eval_expr(d) for d in node.decorator_list]  # @dataclass: evaluated first, applied last
    cls: Any = define_class(interp, node)
    for decorator in reversed(decorators):
        cls = decorator(cls)
    interp.assign_name(node.name, cls)


EXEC: dict[type, Handler] = {
    ast.Expr: _expr,
    ast.Assign: _assign,
    ast.AnnAssign: _annassign,
    ast.AugAssign: _augassign,
    ast.For: _for,
    ast.While: _while,
    ast.If: _if,
    ast.Pass: _pass,
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Return: _return,
    ast.With: _with,
    ast.FunctionDef: _function_def,
    ast.Import: _import,
    ast.ImportFrom: _import_from,
    ast.Assert: _assert,
    ast.Raise: _raise,
    ast.ClassDef: _class_def,
    ast.Try: _try,
    ast.Delete: _delete,
    ast.Global: _global,
    ast.Nonlocal: _nonlocal,
}

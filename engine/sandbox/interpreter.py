"""The tree-walking interpreter: frames, names, assignment, and the step count around every node.

It never calls ``exec``/``eval``/``compile`` on user code: ``parse`` checks the tree, then ``EXEC``/``EVAL`` run
one handler per node. Every node costs a step of the budget; errors keep their type and message and get the line.

Example::

    >>> interp = Interpreter(modules, Budget())
    >>> interp.interpret(parse("print(1 + 1)"))   # writes '2\\n'
"""

from __future__ import annotations

import ast
import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from engine.sandbox.budget import CALL_STEPS, Budget
from engine.sandbox.classes import CLASS_KEY, PER_RUN_MODULES, SELF_KEY, make_super
from engine.sandbox.errors import (
    BreakSignal,
    ContinueSignal,
    LimitExceeded,
    NotSupported,
    ReturnSignal,
    note_line,
)
from engine.sandbox.expressions import EVAL
from engine.sandbox.functions import UserFunction
from engine.sandbox.generators import generator_call
from engine.sandbox.policy import engine_type, set_attr
from engine.sandbox.safe_builtins import EXCEPTIONS, PLAIN_BUILTINS, UNAVAILABLE, make_builtins
from engine.sandbox.safe_math import make_math
from engine.sandbox.sizes import NESTED, check_nested
from engine.sandbox.statements import EXEC
from engine.sandbox.typeview import TypeOf
from engine.stdlib import RunStdlib

_MISSING: Any = object()
_EXCEPTION_TYPES = frozenset(PLAIN_BUILTINS[name] for name in EXCEPTIONS)  # Python's own: the same in every run
RECURSION_HEADROOM = 6000  # Python frames: ~12 per nested user call, 2 per syntax level
_SIGNALS = (BreakSignal, ContinueSignal, ReturnSignal)


class Frame:
    """One scope: the module, a function call, a comprehension or a class body."""

    __slots__ = ("names", "parent", "declared", "fn")

    def __init__(self, names: dict[str, Any], parent: Frame | None, fn: Any = None) -> None:
        self.names = names
        self.parent = parent
        self.declared: dict[str, Frame] | None = None  # `global x` / `nonlocal x`: where x is assigned
        self.fn = fn  # the user function whose call this frame is (a def inside is `fn.<locals>.name`)


class Interpreter:
    """Runs one parsed program against the facade modules, under one budget, reporting to one recorder."""

    def __init__(
        self, modules: dict[str, Any], budget: Budget, recorder: Any = None, write: Callable[[str], None] | None = None
    ) -> None:
        self.budget = budget
        self.rec = recorder
        self.modules = dict(modules)
        self.modules.setdefault("math", make_math())
        self.stdlib = RunStdlib(self.write, budget)  # random, itertools, pprint, ...: fresh, made when imported
        self.stdout: list[str] = []
        self._write_hook = write
        self.builtins = make_builtins(self.write, budget)
        self.builtins["super"] = make_super(self)
        self.builtins["type"] = TypeOf(self.builtins, self.all_modules, lambda cls: cls.__module__ in PER_RUN_MODULES)
        self.builtins["__name__"] = "__main__"
        self.exception_types = _EXCEPTION_TYPES
        self.handling: list[BaseException] = []  # exceptions being handled (for a bare `raise`)
        self.globals: dict[str, Any] = {}
        self.finished = False  # the run is over: nothing of it runs any more (a dropped generator's clean-up)
        self.frame = self.module_frame = Frame(self.globals, None)

    # -- running ---------------------------------------------------------------------------------------------

    def interpret(self, tree: ast.Module) -> None:
        """Run a parsed module; user errors propagate with their line noted (``errors.error_line``)."""
        if sys.getrecursionlimit() < RECURSION_HEADROOM:
            sys.setrecursionlimit(RECURSION_HEADROOM)
        self.budget.start()
        try:
            self.exec_block(tree.body)
        except BreakSignal as exc:
            raise _outside("'break' outside loop", exc) from None
        except ContinueSignal as exc:
            raise _outside("'continue' not properly in loop", exc) from None
        except ReturnSignal as exc:
            raise _outside("'return' outside function", exc) from None
        finally:
            self.finished = True
            if self.rec is not None:
                self.rec.flush()

    def close(self) -> None:
        """Let go of everything the run made, once it is over: its names, modules and builtins. Most of it refers
        back to the interpreter (``super``, ``type``, ``print``, the learner's functions), so that without this only
        a garbage collection would free it, walking all of it again."""
        self.finished = True
        for store in (self.globals, self.builtins, self.modules, self.handling):
            store.clear()
        self.stdlib.close()
        self.frame = self.module_frame = Frame(self.globals, None)

    def exec_block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.exec_stmt(stmt)

    def exec_stmt(self, stmt: ast.stmt) -> None:
        budget = self.budget
        budget.steps += 1
        if budget.steps >= budget.next_check:
            budget.tick()
        rec = self.rec
        if rec is not None:
            rec.line = stmt.lineno
        try:
            EXEC[type(stmt)](self, stmt)
            if rec is not None:
                rec.statement_ended(budget.depth > 0)
        except _SIGNALS:
            raise
        except BaseException as exc:
            if type(exc) is LimitExceeded:  # raised where no run state knew this budget (an interpreter alone)
                budget.breach(exc)
            note_line(exc, stmt.lineno)
            raise

    def eval_expr(self, node: Any) -> Any:
        budget = self.budget
        budget.steps += 1
        if budget.steps >= budget.next_check:
            budget.tick()
        try:
            return EVAL[type(node)](self, node)
        except BaseException as exc:
            note_line(exc, node.lineno)
            raise

    # -- names -----------------------------------------------------------------------------------------------

    def lookup(self, name: str) -> Any:
        frame: Frame | None = self.frame
        while frame is not None:
            value = frame.names.get(name, _MISSING)
            if value is not _MISSING:
                return value
            frame = frame.parent
        value = self.builtins.get(name, _MISSING)
        if value is not _MISSING:
            return value
        if name in UNAVAILABLE:
            raise NotSupported(f"'{name}' is not available")
        raise NameError(f"name '{name}' is not defined")

    def assign_name(self, name: str, value: Any) -> None:
        frame = self.frame
        if frame.declared is not None and name in frame.declared:
            frame = frame.declared[name]
        frame.names[name] = value
        rec = self.rec
        if rec is not None:
            rec.bind(name, value)

    def declare(self, names: list[str], is_global: bool) -> None:
        """``global names`` / ``nonlocal names`` in the current function."""
        frame = self.frame
        if frame.declared is None:
            frame.declared = {}
        for name in names:
            if is_global:
                target: Frame | None = self.module_frame
            else:
                target = frame.parent
                while target is not None and target is not self.module_frame and name not in target.names:
                    target = target.parent
                if target is None or target is self.module_frame:
                    raise SyntaxError(f"no binding for nonlocal '{name}' found")
            frame.declared[name] = target  # type: ignore[assignment]

    def assign(self, target: Any, value: Any) -> None:
        kind = type(target)
        if kind is ast.Name:
            self.assign_name(target.id, value)
        elif kind is ast.Tuple or kind is ast.List:
            self._unpack(target.elts, value)
        elif kind is ast.Attribute:
            set_attr(self.eval_expr(target.value), target.attr, value)
        elif kind is ast.Subscript:
            obj = self.eval_expr(target.value)
            self.set_item(obj, self.eval_expr(target.slice), value)
        else:
            raise NotSupported(f"cannot assign to {kind.__name__}")

    def _unpack(self, targets: list[Any], value: Any) -> None:
        items = list(self.budget.materialize(value))
        starred = [i for i, t in enumerate(targets) if type(t) is ast.Starred]
        if not starred:
            if len(items) != len(targets):
                if len(items) > len(targets):
                    raise ValueError(f"too many values to unpack (expected {len(targets)})")
                raise ValueError(f"not enough values to unpack (expected {len(targets)}, got {len(items)})")
            for target, item in zip(targets, items):
                self.assign(target, item)
            return
        star = starred[0]
        after = len(targets) - star - 1
        if len(items) < len(targets) - 1:
            raise ValueError(f"not enough values to unpack (expected at least {len(targets) - 1}, got {len(items)})")
        for target, item in zip(targets[:star], items[:star]):
            self.assign(target, item)
        self.assign(targets[star].value, items[star : len(items) - after])
        for target, item in zip(targets[star + 1 :], items[len(items) - after :]):
            self.assign(target, item)

    def set_item(self, obj: Any, key: Any, value: Any) -> None:
        if not (isinstance(obj, (list, dict)) or engine_type(type(obj))):
            raise NotSupported(f"items of a {type(obj).__name__} value cannot be assigned")
        if isinstance(key, NESTED):
            check_nested(key, self.budget)  # hashed (dicts) or converted (tensors) in C
        if engine_type(type(obj)):
            check_nested(value, self.budget)  # x[i] = value: the engine converts it
        elif type(key) is slice and isinstance(obj, list):  # x[len(x):] = x doubles x: bound the result first
            value = self.budget.materialize(value)
            self.budget.check_length(obj, len(obj) - len(range(*key.indices(len(obj)))) + len(value))
        obj[key] = value

    @contextlib.contextmanager
    def child_frame(self, names: dict[str, Any] | None = None) -> Iterator[Frame]:
        saved = self.frame
        self.frame = Frame({} if names is None else names, saved)
        try:
            yield self.frame
        finally:
            self.frame = saved

    def find_module(self, name: str) -> Any:
        """The module imported as ``name``, or None."""
        module = self.modules.get(name)
        return self.stdlib.get(name) if module is None else module

    def all_modules(self) -> dict[str, Any]:
        """Every module the run can import, by name (the standard ones made now if not yet)."""
        return {**self.stdlib.all(), **self.modules}

    def module(self, name: str) -> Any:
        module = self.find_module(name)
        if module is None:
            raise NotSupported(f"module '{name}' is not available")
        return module

    # -- calls and output ------------------------------------------------------------------------------------

    def call_user(self, fn: UserFunction, names: dict[str, Any]) -> Any:
        budget = self.budget
        if budget.depth >= budget.limits.max_depth:
            raise RecursionError(f"maximum recursion depth exceeded (limit: {budget.limits.max_depth} nested calls)")
        budget.charge_steps(CALL_STEPS)
        saved = self.frame
        rec = self.rec
        line = rec.line if rec is not None else None
        if fn.owner is not None and fn.params:
            names[CLASS_KEY] = fn.owner
            names[SELF_KEY] = names.get(fn.params[0])
        if fn.generator:  # a generator function: nothing of the body runs until the first next()
            return generator_call(self, Frame(names, fn.closure, fn), fn.qualname, fn.body)
        self.frame = Frame(names, fn.closure, fn)
        budget.depth += 1
        try:
            return fn.run_body()
        finally:
            self.frame = saved
            budget.depth -= 1
            if rec is not None:
                rec.line = line

    def write(self, text: str) -> None:
        """``print`` output: counted against the output budget, kept, streamed to the recorder."""
        # surrogatepass: a lone surrogate (chr(0xD800)) is printed, and escaped in the JSON answer, not an error
        self.budget.check_output(len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass")))
        self.stdout.append(text)
        if self.rec is not None:
            self.rec.print(text)
        if self._write_hook is not None:
            self._write_hook(text)


def _outside(message: str, signal: BaseException) -> SyntaxError:
    error = SyntaxError(message)
    note_line(error, getattr(signal, "_gt_line", None))
    return error


__all__ = ["Interpreter", "Frame", "LimitExceeded"]

"""Generators: ``def f(): yield x`` and ``(x for x in xs)``, lazy as in Python, under the run's budget.

The interpreter walks the tree with Python's own stack, so a generator's body cannot be left half-way by the
ordinary handlers. Here each statement that holds a ``yield`` (``parse`` marks them: ``gt_yield``) has a handler
written as a Python generator, which suspends where the learner's ``yield`` is; every other statement runs through
the interpreter as usual. A ``Generator`` resumes that Python generator in the generator's own frame, a step and a
nesting level of the budget each time, so ``while True: yield i`` with ``break`` works and ``list(endless())`` ends
at the step limit.

Clean-up (a ``finally`` or a ``with``'s ``__exit__`` around a ``yield`` when the generator is closed) runs only while
its run is alive and through ``Generator.close``: a generator dropped after its run ended, or after a limit was hit,
is closed without running any of the learner's code (``Control.may_clean``).

Example::

    >>> gen = make_generator(interp, fn, names)      # what calling a generator function returns
    >>> next(gen)
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from collections.abc import Generator as PyGenerator
from typing import TYPE_CHECKING, Any

from engine.run_state import address_of, serial_hash, state
from engine.sandbox.budget import CALL_STEPS, CATCH_STEPS
from engine.sandbox.errors import BreakSignal, ContinueSignal, LimitExceeded, NotSupported, ReturnSignal, note_line
from engine.sandbox.plain_methods import PLAIN_METHODS
from engine.sandbox.policy import engine_type

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Frame, Interpreter

Steps = PyGenerator[Any, Any, Any]
_SIGNALS = (BreakSignal, ContinueSignal, ReturnSignal)


class Control:
    """Whether the learner's clean-up code may run now (set only while ``Generator.close`` drives it)."""

    __slots__ = ("cleaning",)

    def __init__(self) -> None:
        self.cleaning = False


class Generator:
    """A generator object of the learner's: ``next``, ``send``, ``close``, ``for``; nothing of its insides."""

    __slots__ = ("interp", "frame", "runner", "name", "control", "running", "started", "done", "steps", "__weakref__")

    def __init__(
        self, interp: Interpreter, frame: Frame, name: str, body: Callable[[Control], Steps], steps: int = CALL_STEPS
    ) -> None:
        self.interp, self.frame, self.name, self.steps = interp, frame, name, steps
        self.control = Control()
        self.runner = body(self.control)
        self.running = self.started = self.done = False

    def __iter__(self) -> Generator:
        return self

    def __next__(self) -> Any:
        return self._resume(None)

    def send(self, value: Any) -> Any:
        if not self.started and value is not None:
            raise TypeError("can't send non-None value to a just-started generator")
        return self._resume(value)

    def _resume(self, value: Any, close: bool = False) -> Any:
        if self.running:
            raise ValueError("generator already executing")
        if self.done:
            raise StopIteration
        interp = self.interp
        budget = interp.budget
        if budget.depth >= budget.limits.max_depth:
            raise RecursionError(f"maximum recursion depth exceeded (limit: {budget.limits.max_depth} nested calls)")
        budget.charge_steps(self.steps)
        saved, rec = interp.frame, interp.rec
        line = rec.line if rec is not None else None
        interp.frame = self.frame
        budget.depth += 1
        self.running = self.started = True
        try:
            if close:
                self.control.cleaning = True
                self.runner.close()
                return None
            return self.runner.send(value)
        except StopIteration:
            self.done = True
            raise
        except BaseException:
            self.done = True
            raise
        finally:
            self.control.cleaning = False
            self.running = False
            interp.frame = saved
            budget.depth -= 1
            if rec is not None:
                rec.line = line

    def close(self) -> None:
        """Python's ``close``: the learner's ``finally`` around the ``yield`` runs now (in its run only)."""
        if self.done or not self.started:
            self.done = True
            return
        self._resume(None, close=True)
        self.done = True

    def __del__(self) -> None:
        # A generator dropped while suspended is closed at once, as CPython does, but only inside its own run and
        # before any limit was hit; otherwise it goes without running anything of the learner's.
        if self.done or not self.started or self.running:
            return
        interp = self.interp
        if interp.finished or interp.budget.breached is not None or state().budget is not interp.budget:
            return
        try:
            self.close()
        except BaseException:  # as Python: an error while closing a dropped generator is not raised anywhere
            pass

    def __repr__(self) -> str:
        return f"<generator object {self.name} at {address_of(self)}>"

    __hash__ = serial_hash


Generator.__name__ = Generator.__qualname__ = "generator"
PLAIN_METHODS[Generator] = frozenset(("send", "close"))  # g.gi_frame: "'generator' object has no attribute"


# -- the bodies: statements that hold a yield, as Python generators ---------------------------------------------


def run_body(interp: Interpreter, body: list[ast.stmt], control: Control) -> Steps:
    """A generator function's body: its ``return v`` ends it with ``StopIteration(v)``."""
    try:
        yield from _block(interp, body, control)
    except ReturnSignal as ret:
        return ret.value
    except (BreakSignal, ContinueSignal):  # pragma: no cover - the parser's job
        raise SyntaxError("'break' or 'continue' outside loop") from None
    return None


def _block(interp: Interpreter, body: list[ast.stmt], control: Control) -> Steps:
    for stmt in body:
        if getattr(stmt, "gt_yield", False):
            yield from _statement(interp, stmt, control)
        else:
            interp.exec_stmt(stmt)


def _statement(interp: Interpreter, stmt: ast.stmt, control: Control) -> Steps:
    budget = interp.budget
    budget.steps += 1
    if budget.steps >= budget.next_check:
        budget.tick()
    rec = interp.rec
    if rec is not None:
        rec.line = stmt.lineno
    try:
        yield from _HANDLERS[type(stmt)](interp, stmt, control)
    except _SIGNALS:
        raise
    except GeneratorExit:
        raise
    except BaseException as exc:
        if type(exc) is LimitExceeded:
            budget.breach(exc)
        note_line(exc, stmt.lineno)
        raise


def _yielded(interp: Interpreter, node: ast.Yield | ast.YieldFrom) -> Steps:
    """The value of a ``yield`` expression: what ``send`` sent (``yield from``: what the inner one returned)."""
    if type(node) is ast.Yield:
        value = interp.eval_expr(node.value) if node.value is not None else None
        sent = yield value
        return sent
    inner = interp.eval_expr(node.value)
    if isinstance(inner, Generator):
        result = yield from _delegate(inner)
        return result
    yield from iter(inner)  # (a step per item: it is the learner's or a Counted iterator)
    return None


def _delegate(inner: Generator) -> Steps:
    """``yield from`` another of the learner's generators: what the caller sends goes on to it."""
    sent = None
    while True:
        try:
            value = inner.send(sent)
        except StopIteration as stop:
            return stop.value
        sent = yield value


def _expr(interp: Interpreter, node: ast.Expr, control: Control) -> Steps:
    yield from _yielded(interp, node.value)  # type: ignore[arg-type]


def _assign(interp: Interpreter, node: ast.Assign, control: Control) -> Steps:
    value = yield from _yielded(interp, node.value)  # type: ignore[arg-type]
    for target in node.targets:
        interp.assign(target, value)


def _loop_body(interp: Interpreter, body: list[ast.stmt], control: Control) -> Steps:
    """One iteration; returns False when it ended with ``break``."""
    try:
        yield from _block(interp, body, control)
    except BreakSignal as signal:  # one shared signal: its traceback would keep the loop's iterator alive
        signal.__traceback__ = None
        return False
    except ContinueSignal:
        pass
    return True


def _for(interp: Interpreter, node: ast.For, control: Control) -> Steps:
    iterator = iter(interp.eval_expr(node.iter))
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            yield from _block(interp, node.orelse, control)
            return
        interp.assign(node.target, item)
        if not (yield from _loop_body(interp, node.body, control)):
            return


def _while(interp: Interpreter, node: ast.While, control: Control) -> Steps:
    while True:
        if not interp.eval_expr(node.test):
            yield from _block(interp, node.orelse, control)
            return
        if not (yield from _loop_body(interp, node.body, control)):
            return


def _if(interp: Interpreter, node: ast.If, control: Control) -> Steps:
    yield from _block(interp, node.body if interp.eval_expr(node.test) else node.orelse, control)


def context_manager(manager: Any) -> tuple[Any, Any]:
    """The ``__enter__`` and ``__exit__`` of a ``with`` item: torch's context managers and the learner's own."""
    if not engine_type(type(manager)):
        raise NotSupported("only torch's context managers (such as torch.no_grad()) and your own can be used in 'with'")
    enter, exit_ = getattr(type(manager), "__enter__", None), getattr(type(manager), "__exit__", None)
    if enter is None or exit_ is None:
        raise TypeError(f"'{type(manager).__name__}' object does not support the context manager protocol")
    return manager.__enter__, manager.__exit__


def handler_for(interp: Interpreter, node: ast.Try, exc: Exception) -> ast.ExceptHandler | None:
    """The ``except`` clause of ``node`` that catches ``exc``, if any."""
    for handler in node.handlers:
        if handler.type is None:
            return handler
        types = interp.eval_expr(handler.type)
        for t in types if isinstance(types, tuple) else (types,):
            if not (isinstance(t, type) and issubclass(t, BaseException)):
                raise TypeError("catching classes that do not inherit from BaseException is not allowed")
        if isinstance(exc, types):
            return handler
    return None


def _with(interp: Interpreter, node: ast.With, control: Control, index: int = 0) -> Steps:
    if index == len(node.items):
        yield from _block(interp, node.body, control)
        return
    item = node.items[index]
    enter, exit_ = context_manager(interp.eval_expr(item.context_expr))
    entered = enter()
    try:
        if item.optional_vars is not None:
            interp.assign(item.optional_vars, entered)
        yield from _with(interp, node, control, index + 1)
    except Exception as exc:
        if not exit_(type(exc), exc, None):
            raise
    except LimitExceeded:
        raise
    except GeneratorExit:
        if control.cleaning:
            exit_(None, None, None)
        raise
    except BaseException:
        exit_(None, None, None)
        raise
    else:
        exit_(None, None, None)


def _try(interp: Interpreter, node: ast.Try, control: Control) -> Steps:
    try:
        try:
            yield from _block(interp, node.body, control)
        except Exception as exc:
            handler = handler_for(interp, node, exc)
            if handler is None:
                raise
            interp.budget.charge_steps(CATCH_STEPS)
            exc.__traceback__ = exc.__context__ = None
            if handler.name is not None:
                interp.assign_name(handler.name, exc)
            interp.handling.append(exc)
            try:
                yield from _block(interp, handler.body, control)
            finally:
                interp.handling.pop()
        else:
            yield from _block(interp, node.orelse, control)
    except LimitExceeded:  # a breach ends the run: no `finally` runs
        raise
    except GeneratorExit:  # closed: the learner's `finally` runs only when the run drives the closing
        if node.finalbody and control.cleaning:
            yield from _block(interp, node.finalbody, control)
        raise
    except BaseException as exc:
        if node.finalbody:
            exc.__traceback__ = exc.__context__ = None
            yield from _block(interp, node.finalbody, control)
        raise
    yield from _block(interp, node.finalbody, control)


_HANDLERS: dict[type, Callable[..., Steps]] = {
    ast.Expr: _expr,
    ast.Assign: _assign,
    ast.For: _for,
    ast.While: _while,
    ast.If: _if,
    ast.With: _with,
    ast.Try: _try,
}


# -- generator expressions --------------------------------------------------------------------------------------


def generator_expression(interp: Interpreter, node: ast.GeneratorExp) -> Generator:
    """``(f(x) for x in xs if p(x))``: the first iterable is taken now (as Python does), the rest lazily."""
    first = iter(interp.eval_expr(node.generators[0].iter))
    frame = type(interp.frame)({}, interp.frame)

    def body(control: Control) -> Steps:
        yield from _comprehension(interp, node, 0, first)

    return Generator(interp, frame, "<genexpr>", body, steps=1)


def generator_call(interp: Interpreter, frame: Frame, name: str, body: list[ast.stmt]) -> Generator:
    """What calling a generator function gives: nothing of its body has run yet."""
    return Generator(interp, frame, name, lambda control: run_body(interp, body, control))


def _comprehension(interp: Interpreter, node: ast.GeneratorExp, level: int, iterator: Any) -> Steps:
    gen = node.generators[level]
    last = level + 1 == len(node.generators)
    for item in iterator:
        interp.assign(gen.target, item)
        if all(interp.eval_expr(cond) for cond in gen.ifs):
            if last:
                yield interp.eval_expr(node.elt)
            else:
                inner = iter(interp.eval_expr(node.generators[level + 1].iter))
                yield from _comprehension(interp, node, level + 1, inner)


def refuse_yield(interp: Interpreter, node: Any) -> Any:
    """A ``yield`` the parser could not place (inside a lambda): refused where it is."""
    raise NotSupported("'yield' inside an expression is not supported here")

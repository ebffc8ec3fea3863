"""The errors the interpreter raises itself, and the signals it uses for control flow.

User code's own errors (``RuntimeError`` from the engine, ``ZeroDivisionError``, ...) are not wrapped: they keep
their type and message, and the interpreter only notes the source line they came from.

Example::

    >>> raise NotSupported("'open' is not available", line=3)
"""

from __future__ import annotations

from engine.run_state import read_the_machine, state


class SandboxError(Exception):
    """Base of the errors the interpreter itself raises; ``line`` is the 1-based source line when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if line is not None:
            self._gt_line = line


class NotSupported(SandboxError):
    """Syntax, a name, a module or an attribute that gradtrace does not allow (``'open' is not available``)."""


class LimitExceeded(BaseException):
    """A budget ran out (steps, time, memory, output). A ``BaseException`` so that no ``except Exception`` in the
    engine or in user code can swallow it. Made inside a run, it ends the run at once (``Budget.breach``: no
    ``finally``, handler or hook of the run runs after it) and marks it as not reproducible: where a limit falls
    depends on the machine."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        read_the_machine(message)
        breach = getattr(state().budget, "breach", None)
        if breach is not None:
            breach(self)


class BreakSignal(BaseException):
    """``break`` unwinding to its loop."""


class ContinueSignal(BaseException):
    """``continue`` unwinding to its loop."""


class ReturnSignal(BaseException):
    """``return`` unwinding to its function call."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


BREAK = BreakSignal()
CONTINUE = ContinueSignal()


def error_line(exc: BaseException) -> int | None:
    """The source line recorded on ``exc`` by the interpreter, if any."""
    return getattr(exc, "_gt_line", None)


def note_line(exc: BaseException, line: int | None) -> None:
    """Remember the innermost source line an exception passed through (the first one noted wins)."""
    if line is not None and getattr(exc, "_gt_line", None) is None:
        try:
            exc._gt_line = line  # type: ignore[attr-defined]
        except (AttributeError, TypeError):  # pragma: no cover - exceptions without a __dict__
            pass

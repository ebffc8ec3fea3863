"""Run plain Python (no torch) through the sandbox, and the same code through CPython, for comparisons."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from engine.runner import describe_error
from engine.sandbox import Budget, Interpreter, Limits, parse


def sandbox(code: str, limits: Limits | None = None) -> tuple[str, dict[str, Any] | None]:
    """(stdout, error) of ``code`` in the interpreter, with no torch modules."""
    budget = Budget(limits)
    interp = Interpreter({}, budget)
    try:
        interp.interpret(parse(code, limits))
    except BaseException as exc:
        return "".join(interp.stdout), describe_error(exc)
    return "".join(interp.stdout), None


def cpython(code: str) -> str:
    """stdout of trusted test code under real Python."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})  # trusted test snippets only
    return out.getvalue()

"""The safe interpreter: runs a whitelisted subset of Python over the engine's facade, under a budget.

Example::

    >>> from engine.sandbox import Budget, Interpreter, parse
    >>> interp = Interpreter(modules={}, budget=Budget())
    >>> interp.interpret(parse("print(sum(i * i for i in range(4)))"))
    >>> "".join(interp.stdout)
    '14\\n'
"""

from engine.sandbox.budget import Budget, Limits
from engine.sandbox.errors import LimitExceeded, NotSupported, SandboxError, error_line
from engine.sandbox.interpreter import Interpreter
from engine.sandbox.parse import parse

__all__ = ["Budget", "Limits", "Interpreter", "parse", "LimitExceeded", "NotSupported", "SandboxError", "error_line"]

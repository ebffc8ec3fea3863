"""/api/grad: turn ``{expression, inputs, wrt}`` into a small program, run it in the sandbox, read the answer.

The expression is never evaluated by Python: it is checked to be one expression with ``ast.parse`` and then
becomes one line of an ordinary gradtrace program, so it meets exactly the same interpreter and budgets as
/api/run. The value and the gradients come back through the program's own ``print`` calls, which the expression
cannot fake: it may not rebind ``print`` (or any name the program uses), and the answer is read only from the
program's last lines. The worker reads them and writes the whole JSON answer (``grad_answer``), so the event loop
only passes bytes on, however big the trace.
"""

from __future__ import annotations

import ast
import json
import keyword
import math
import re
from typing import Any

from server.jsonio import dumps
from server.schemas.api import GradRequest


class GradInputError(ValueError):
    """The request can't be turned into a program (answered 422)."""


def _check_values(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        raise GradInputError(f"input '{name}' must be a number or a (nested) list of numbers")
    if isinstance(value, float) and not math.isfinite(value):
        raise GradInputError(f"input '{name}' must be finite")
    if isinstance(value, list):
        for item in value:
            _check_values(name, item)


def _check_name(name: str) -> None:
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or name == "torch":
        raise GradInputError(f"'{name}' is not a usable input name (a Python identifier, not starting with '_')")


def _check_bindings(expression: str, reserved: set[str]) -> None:
    """Refuse an expression that rebinds (``name := …``) a name the program itself uses afterwards."""
    for node in ast.walk(ast.parse(expression, mode="eval")):
        if isinstance(node, ast.NamedExpr) and node.target.id in reserved:
            raise GradInputError(f"expression may not assign to '{node.target.id}'")


MARK = "\x1e"  # ASCII's record separator


def build_program(request: GradRequest) -> tuple[str, list[str]]:
    """The program for ``request`` and the inputs differentiated by. Its last lines print the value, then each
    gradient, one line each, each line starting with ``MARK`` (text the expression printed without an end of line
    comes before the mark, never after it)."""
    try:
        ast.parse(request.expression, mode="eval")
    except SyntaxError as exc:
        raise GradInputError(f"expression is not valid Python: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # lone surrogates, NUL bytes, absurd nesting
        raise GradInputError(f"expression is not valid Python: {exc}") from None
    if "\n" in request.expression.strip():
        raise GradInputError("expression must be a single line")
    reserved = {"print", "torch", *request.inputs}
    for name, value in request.inputs.items():
        _check_name(name)
        _check_values(name, value)
    wrt = list(request.inputs) if request.wrt is None else request.wrt
    unknown = [name for name in wrt if name not in request.inputs]
    if unknown:
        raise GradInputError(f"wrt names unknown inputs: {', '.join(unknown)}")
    result = "result"
    while result in request.inputs:
        result += "_"
    _check_bindings(request.expression, reserved | {result})
    lines = ["import torch"]
    for name, value in request.inputs.items():
        grad = ", requires_grad=True" if name in wrt else ""
        lines.append(f"{name} = torch.tensor({json.dumps(value)}, dtype=torch.float32{grad})")
    lines.append(f"{result} = {request.expression.strip()}")
    lines.append(f"{result}.backward()")
    lines.append(f"print({MARK!r}, {result}.tolist(), sep='')")
    for name in wrt:
        lines.append(f"print({MARK!r}, {name}.grad.tolist() if {name}.grad is not None else None, sep='')")
    return "\n".join(lines) + "\n", wrt


_NONFINITE = re.compile(r"(?<![\w\"])(-?)(nan|inf)\b")


def parse_printed(text: str) -> Any:
    """A printed ``tolist()`` (or ``None``) back to JSON data; non-finite floats as the trace's strings."""
    text = text.strip()
    if text == "None":
        return None
    return json.loads(_NONFINITE.sub(lambda m: f'"{m.group(1)}{m.group(2)}"', text))


def _refused(message: str) -> tuple[int, bytes]:
    return 422, dumps({"detail": {"error": {"type": "GradError", "message": message}}}).encode("ascii")


def failed_answer(result: Any) -> tuple[int, bytes]:
    """The answer of a run that stopped with an error (its line is of the generated program: left out)."""
    error = {key: value for key, value in result.error.items() if key != "line"}
    return 422, dumps({"detail": {"error": error}}).encode("ascii")


def grad_answer(result: Any, wrt: list[str]) -> tuple[int, bytes]:
    """``/api/grad``'s status and answer for a run of ``build_program``'s program (in the worker). The answer's
    values are the last ``1 + len(wrt)`` lines the program printed, each after its last ``MARK`` (the program's own
    ``print`` calls, after the expression's); the trace is the run's events without the prints (cut at the event
    limit, as ``/api/run``'s)."""
    if result.error is not None:
        return failed_answer(result)
    lines = result.stdout.split("\n")
    count = 1 + len(wrt)
    if lines[-1] != "" or len(lines) < count + 1 or not all(MARK in text for text in lines[-count - 1 : -1]):
        return _refused("the program's answer could not be read back (its output is incomplete)")
    try:
        value, *grads = (parse_printed(text.rpartition(MARK)[2]) for text in lines[-count - 1 : -1])
    except ValueError:
        return _refused("the expression's value is not a tensor of numbers")
    events = [event for event in result.events if event["type"] != "print"]
    return 200, dumps({"value": value, "grads": dict(zip(wrt, grads)), "events": events}).encode("ascii")

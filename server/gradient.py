"""/api/grad: turn ``{expression, inputs, wrt}`` into a small program, run it in the sandbox, read the answer.

The expression is never evaluated by Python: it is checked to be one expression with ``ast.parse`` and then
becomes one line of an ordinary gradtrace program, so it meets exactly the same interpreter and budgets as
/api/run. The value and the gradients come back through the program's own ``print`` events.
"""

from __future__ import annotations

import ast
import json
import keyword
import math
import re
from typing import Any

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


def build_program(request: GradRequest) -> tuple[str, int, list[str]]:
    """The program for ``request``, the line of its first answer ``print``, and the inputs differentiated by."""
    try:
        ast.parse(request.expression, mode="eval")
    except SyntaxError as exc:
        raise GradInputError(f"expression is not valid Python: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # lone surrogates, NUL bytes, absurd nesting
        raise GradInputError(f"expression is not valid Python: {exc}") from None
    if "\n" in request.expression.strip():
        raise GradInputError("expression must be a single line")
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
    lines = ["import torch"]
    for name, value in request.inputs.items():
        grad = ", requires_grad=True" if name in wrt else ""
        lines.append(f"{name} = torch.tensor({json.dumps(value)}, dtype=torch.float32{grad})")
    lines.append(f"{result} = {request.expression.strip()}")
    lines.append(f"{result}.backward()")
    first_print = len(lines) + 1
    lines.append(f"print({result}.tolist())")
    for name in wrt:
        lines.append(f"print({name}.grad.tolist() if {name}.grad is not None else None)")
    return "\n".join(lines) + "\n", first_print, wrt


_NONFINITE = re.compile(r"(?<![\w\"])(-?)(nan|inf)\b")


def parse_printed(text: str) -> Any:
    """A printed ``tolist()`` (or ``None``) back to JSON data; non-finite floats as the trace's strings."""
    text = text.strip()
    if text == "None":
        return None
    return json.loads(_NONFINITE.sub(lambda m: f'"{m.group(1)}{m.group(2)}"', text))

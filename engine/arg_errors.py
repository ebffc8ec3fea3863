"""The words of PyTorch's argument parser for a refused argument, shared by the core (``torch.set_grad_enabled``)
and the ops' argument checks (``engine.ops.argcheck``).

Example::

    >>> must_be("dot", "tensor", 2, "Tensor", [1.])
    TypeError("dot(): argument 'tensor' (position 2) must be Tensor, not list")
"""

from __future__ import annotations

from typing import Any

from engine import dtypes
from engine.tensor import Tensor


def type_name(value: Any) -> str:
    """The parser's name for a value's type: ``Tensor`` for any tensor, ``torch.dtype``, else Python's (``list``)."""
    if isinstance(value, Tensor):
        return "Parameter" if type(value).__name__ == "Parameter" else "Tensor"
    return "torch.dtype" if isinstance(value, dtypes.dtype) else type(value).__name__


def must_be(op: str, name: str, position: int | None, expected: str, value: Any) -> TypeError:
    """``op(): argument 'name' (position N) must be <expected>, not <type>`` (no position for a keyword)."""
    where = f" (position {position})" if position is not None else ""
    return TypeError(f"{op}(): argument '{name}'{where} must be {expected}, not {type_name(value)}")


__all__ = ["must_be", "type_name"]

"""``torch.remainder`` and ``%``: the remainder with the sign of the divisor, as Python's ``%`` (and PyTorch's
kernel: ``fmod``, then the divisor added where the signs differ, so that ``-3 % 1.5`` is ``-0.``). Two nodes, as
in PyTorch: ``RemainderBackward0`` for a number divisor (d/da = 1), ``RemainderBackward1`` for a tensor divisor
(d/db = -floor(a / b)).

    >>> torch.tensor([-3., 5.]) % 2
    tensor([1., 1.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops.api import Api, tensor_methods
from engine.ops.arith import _int_zero_check, operand
from engine.ops.function import Function, Unsupported
from engine.ops.operands import binary, binary_operands
from engine.tensor import Tensor


def _remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        mod = np.fmod(a, b)
        fix = (mod != 0) & ((b < 0) != (mod < 0))
        return np.where(fix, mod + b, mod).astype(mod.dtype)


class RemainderBackward1(Function):
    """a % b for a tensor b: d/da = 1, d/db = -floor(a / b)."""

    templates = ("{grad}", "−{grad} · ⌊{0} / {1}⌋")
    broadcasts = True
    _saved_fields = ("self", "other")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ctx._save(self=a, other=b)
        return _remainder(a, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        gb = None
        if nb:
            if isinstance(g, Tensor):
                raise Unsupported("the gradient of remainder's divisor with create_graph")
            with np.errstate(all="ignore"):
                gb = k.sum_to(-g * np.floor_divide(s["self"], s["other"]), sb)
        return (k.sum_to(g, sa) if na else None, gb)


class RemainderBackward0(RemainderBackward1):
    """a % b for a number b: d/da = 1."""

    api = Api("remainder", signature="Tensor# input, Tensor# other", inplace="remainder_")
    templates = ("{grad}", None)

    @staticmethod
    def call(a: Any, b: Any) -> Tensor:
        number_divisor = isinstance(b, (int, float)) and not isinstance(b, bool)
        a, b = binary_operands(a, b)
        _int_zero_check(b)
        return binary(RemainderBackward0 if number_divisor else RemainderBackward1, a, b)


remainder = RemainderBackward0.call
tensor_methods({"__mod__": operand(remainder)})

__all__ = ["remainder"]

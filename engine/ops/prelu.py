"""``F.prelu`` and its node ``PreluKernelBackward0``: ``x if x > 0 else weight · x``, with a learned ``weight`` of
one value or one per channel (dimension 1 of the input), as PyTorch's ``nn.PReLU`` uses it.

    >>> F.prelu(torch.tensor([-2., 3.]), torch.tensor([0.5]))
    tensor([-1.,  3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops import shape
from engine.ops.function import Function
from engine.tensor import Tensor


class PreluKernelBackward0(Function):
    """x if x > 0 else w·x (w broadcast over x): d/dx = g or w·g, d/dw = g·x where x ≤ 0, summed to w's shape."""

    _saved_fields = ("self", "weight")
    templates = ("{grad} · (1 if {0} > 0 else {1})", "{grad} · {0} where {0} ≤ 0, summed over the channel")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        ctx._save(self=a, weight=w)
        return np.where(a > 0, a, w * a).astype(a.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, w = s["self"], s["weight"]
        positive = a > 0
        gw = k.sum_to(k.where(positive, k.zeros_like(g), g * a), ctx._in_shapes[1])
        return k.where(positive, g, w * g), gw


def prelu(a: Tensor, weight: Tensor) -> Tensor:
    n = weight._data.size
    if n > 1:
        channels = a._data.shape[1] if a._data.ndim >= 2 else 1
        if channels != n:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                f"{n} and channel size = {channels}."
            )
        weight = shape.reshape(weight, n, *([1] * (a._data.ndim - 2)))
    return PreluKernelBackward0.apply(a, weight)


__all__ = ["prelu"]

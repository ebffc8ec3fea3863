"""``torch.nn.utils``: gradient clipping (changes each parameter's ``.grad`` in place, as PyTorch does).

Example::

    >>> loss.backward()
    >>> nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)   # the total norm before clipping
    tensor(5.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops.operands import made
from engine.ops.summation import torch_sum
from engine.tensor import Tensor


def _grads(parameters: Any) -> list[Tensor]:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p.grad for p in params if p.grad is not None]  # PyTorch reads p.grad ('str' has no attribute 'grad')


def _norm(a: np.ndarray, p: float) -> np.ndarray:
    absa = np.abs(a)
    if p == float("inf"):
        return np.asarray(absa.max() if absa.size else 0, dtype=a.dtype)
    if p == 2:
        return np.sqrt(torch_sum(absa * absa, None, False))
    return np.asarray(np.power(torch_sum(np.power(absa, p), None, False), 1.0 / p), dtype=a.dtype)


def clip_grad_norm_(
    parameters: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach: Any = None
) -> Tensor:
    """Scale all gradients together so that their total ``norm_type``-norm is at most ``max_norm``; return the
    total norm before clipping."""
    grads = _grads(parameters)
    max_norm, p = float(max_norm), float(norm_type)
    if not grads:
        return made(np.asarray(0.0, dtype=np.float32))
    norms = np.stack([_norm(g._data, p) for g in grads])
    total = _norm(norms, p)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {p} for gradients from `parameters` is non-finite, so it cannot be clipped. "
            "To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    coef = np.minimum(np.asarray(max_norm, dtype=total.dtype) / (total + total.dtype.type(1e-6)), total.dtype.type(1))
    for g in grads:
        g._data *= coef.astype(g._data.dtype)
        g._version += 1
    return made(np.asarray(total))


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    """Clamp every gradient element into [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        np.clip(g._data, -clip_value, clip_value, out=g._data)
        g._version += 1


__all__ = ["clip_grad_norm_", "clip_grad_value_"]

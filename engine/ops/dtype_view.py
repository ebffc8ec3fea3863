"""``Tensor.view(dtype)``: the same bytes read as another dtype, sharing memory (as PyTorch does), not a conversion.

With the same element size the shape stays; otherwise the last dimension grows or shrinks by the ratio of the
sizes, which needs a last dimension of stride 1 (and, when shrinking, a size divisible by the ratio), with PyTorch's
errors. The result is not part of the graph (PyTorch gives it no ``grad_fn``).

    >>> torch.tensor([1.0]).view(torch.int32)
    tensor([1065353216], dtype=torch.int32)
"""

from __future__ import annotations

from typing import Any

from engine.run_state import state
from engine.tensor import _TYPE_NAMES, Tensor


def view_as_dtype(a: Tensor, dtype: Any) -> Tensor:
    data, target = a._data, dtype._np
    if target != data.dtype and target.itemsize != data.itemsize:
        names = _TYPE_NAMES[data.dtype.name], _TYPE_NAMES[target.name]
        kind = f"to view {names[0]} as {names[1]} (different element sizes)"
        if data.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {kind}")
        if data.strides[-1] != data.itemsize and data.shape[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {kind}, but got {data.strides[-1] // data.itemsize}")
        ratio = target.itemsize // data.itemsize
        if ratio > 1 and data.shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {kind}, but got {data.shape[-1]}")
    out = Tensor._make(data.view(target))
    obs = state().observer
    if obs is not None:
        obs.tensor_created(out)
    return out


__all__ = ["view_as_dtype"]

"""``out=`` of the function forms (``torch.add(x, y, out=result)``): the result written into a tensor the caller
made, as PyTorch does it. ``out`` is resized when its shape differs (with PyTorch's warning when it had elements),
the result is cast to ``out``'s dtype where PyTorch allows that cast, and ``out`` itself is returned. Arguments that
require grad are refused while grad mode is on (out= is not differentiable).

Example::

    >>> result = torch.empty(2)
    >>> torch.add(torch.ones(2), 1, out=result) is result
    True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.ops.inplace import copy_, resize_
from engine.run_state import state
from engine.tensor import _TYPE_NAMES, Tensor

RESIZED = (
    "An output with one or more elements was resized since it had shape {old}, which does not match the required "
    "output shape {new}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0)."
)


def _category(dt: np.dtype) -> int:
    """PyTorch's canCast order: bool < integral < floating (a cast down the order is refused)."""
    return 0 if dt.kind == "b" else 2 if dt.kind == "f" else 1


def accepts_out(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a function form returning one tensor) taking ``out=`` as well."""

    @functools.wraps(fn)
    def with_out(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if state().grad_enabled and any(isinstance(a, Tensor) and a._requires_grad for a in (*args, *kwargs.values())):
            raise RuntimeError(
                f"{name}(): functions with out=... arguments don't support automatic differentiation, but one of "
                "the arguments requires grad."
            )
        result = fn(*args, **kwargs)
        if not isinstance(result, Tensor):
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        have, want = out._data.dtype, result._data.dtype
        if _category(want) > _category(have):
            raise RuntimeError(
                f"result type {_TYPE_NAMES[want.name]} can't be cast to the desired output type "
                f"{_TYPE_NAMES[have.name]}"
            )
        if out._data.shape != result._data.shape:
            if out._data.size:
                obs = state().observer
                if obs is not None:
                    old, new = list(out._data.shape), list(result._data.shape)
                    obs.warning(RESIZED.format(old=old, new=new))
            resize_(out, result._data.shape)
        copy_(out, result)
        obs = state().observer
        if obs is not None:
            obs.tensor_created(out)  # its values changed in place: announced again, as an in-place op's result
        return out

    return with_out

"""In-place ops (``add_``, ``mul_``, ``zero_``, ``x += 1`` …): change a tensor's values where it lives.

With grad mode on, the tensor's history is rewritten (its ``grad_fn`` becomes the in-place op's node, whose input
is the old history), and ``_version`` goes up so that backward can tell when a value it saved was overwritten.
In-place ops on a leaf that requires grad are refused unless grad mode is off (``torch.no_grad()``), which is
how hand-written optimizers update weights; such an update is reported to the observer as a parameter step.

Example::

    >>> w = torch.tensor([1., 2.], requires_grad=True)
    >>> with torch.no_grad():
    ...     w -= 0.1 * torch.tensor([1., 1.])
    >>> w
    tensor([0.9000, 1.9000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.ops.api import no_arguments, tensor_methods
from engine.ops.operands import check_alloc, check_scalar, made
from engine.run_state import state
from engine.tensor import _TYPE_NAMES, Tensor


def _cast_check(t: Tensor, res: np.ndarray) -> None:
    src, dst = res.dtype, t._data.dtype
    if src != dst and not np.can_cast(src, dst, casting="same_kind"):
        raise RuntimeError(
            f"result type {_TYPE_NAMES[src.name]} can't be cast to the desired output type {_TYPE_NAMES[dst.name]}"
        )


def apply_inplace(t: Tensor, compute: Callable[[Tensor], Tensor]) -> Tensor:
    """Run ``compute`` (an ordinary op) on the current value of ``t`` and write the result into ``t``."""
    t._check_inplace()
    st = state()
    obs = st.observer
    st.observer = None  # the op's temporary result is not a tensor the user sees
    try:
        if st.grad_enabled:
            # keep the old value for the new node: it was computed from it
            old = Tensor._make(t._data.copy(), t._grad_fn, t._requires_grad)
            res = compute(old)
        else:
            res = compute(t)
    finally:
        st.observer = obs
    _cast_check(t, res._data)
    before = t._data.copy() if obs is not None and t._grad_fn is None and t._requires_grad else None
    if t._data.shape != res._data.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, t._data.shape))}] doesn't match the broadcast shape "
            f"[{', '.join(map(str, res._data.shape))}]"
        )
    if t._data.flags.writeable:
        t._data[...] = res._data
    else:
        t._data = np.array(res._data, dtype=t._data.dtype)
    t._version += 1
    if res._grad_fn is not None:
        if t._retains_grad and t._grad_fn is not None:
            t._grad_fn._retained = None  # .grad now belongs to the value after the in-place op
        t._grad_fn = res._grad_fn
        t._requires_grad = True
        if t._retains_grad:
            t._grad_fn._retained = t
        if obs is not None:
            obs.tensor_created(t)  # the same tensor, with a new grad_fn: announced again
    elif before is not None and obs is not None:
        obs.param_stepped(t, before, t._data)  # a hand-written update of a parameter under no_grad()
    return t


def zero_(t: Tensor) -> Tensor:
    """Fill with zeros. On a ``.grad`` tensor this is the classic ``x.grad.zero_()`` reset."""
    t._check_inplace()
    owner = t._owner
    if t._data.flags.writeable:
        t._data[...] = 0
    else:
        t._data = np.zeros_like(t._data)
    t._version += 1
    if owner is not None and owner._grad is not None and owner._grad._data is t._data:
        obs = state().observer
        if obs is not None:
            obs.grad_reset(owner, "zero")
    elif t._grad_fn is not None and state().grad_enabled:
        return apply_inplace(t, lambda x: _zeros_like_op(x))
    return t


def _zeros_like_op(x: Tensor) -> Tensor:
    return x * 0


def fill_(t: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value._data.ndim} dimensions."
            )
        value = value.item()
    check_scalar(value)
    if t._grad_fn is None:
        t._check_inplace()
        before = t._data.copy() if t._requires_grad else None
        t._data[...] = value
        t._version += 1
        obs = state().observer
        if before is not None and obs is not None:
            obs.param_stepped(t, before, t._data)
        return t
    return apply_inplace(t, lambda x: x * 0 + value)


def copy_(t: Tensor, src: Tensor) -> Tensor:
    t._check_inplace()
    before = t._data.copy() if t._requires_grad and t._grad_fn is None else None
    t._data[...] = np.broadcast_to(src._data, t._data.shape)
    t._version += 1
    obs = state().observer
    if before is not None and obs is not None:
        obs.param_stepped(t, before, t._data)
    return t


def _copy_from(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """``x.copy_(src)``; a Python number is copied as a 0-d tensor (PyTorch wraps it)."""
    return copy_(self, src if isinstance(src, Tensor) else made(np.asarray(src, dtype=self._data.dtype)))


def resize_(t: Tensor, *size: Any) -> Tensor:
    """``x.resize_(2, 3)``: the same storage read in a new shape; the first elements kept, new ones zero (PyTorch
    leaves them uninitialised)."""
    if t._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    n = int(np.prod(shape, dtype=np.int64))
    check_alloc(n)
    flat = t._data.reshape(-1)
    data = flat[:n] if n <= flat.size else np.concatenate([flat, np.zeros(n - flat.size, flat.dtype)])
    t._data = np.ascontiguousarray(data).reshape(shape)
    t._version += 1
    return t


_INPLACE_NODES: dict[tuple[type, str], type] = {}  # (the view op's node class, PyTorch's in-place name): a subclass


def _renamed(node: Any, name: str) -> None:
    """PyTorch names the node of an in-place shape change apart from the view op's (``x.t_()``: ``TBackward1``,
    ``x.t()``: ``TBackward0``); the same op under that name."""
    cls = type(node)
    sub = _INPLACE_NODES.get((cls, name))
    if sub is None:
        sub = _INPLACE_NODES[(cls, name)] = type(name, (cls,), {"__module__": cls.__module__, "renamed_from": cls})
    node.__class__ = sub


def _reshaped_inplace(t: Tensor, compute: Callable[[Tensor], Tensor], node: str) -> Tensor:
    """``x.unsqueeze_(0)`` and the other in-place shape changes: ``t`` becomes the view ``compute`` makes of it (the
    same memory, a new shape); with a graph, its node is the view op's (PyTorch names it ``UnsqueezeBackward1``)."""
    t._check_inplace()
    st = state()
    obs = st.observer
    st.observer = None  # the op's temporary result is not a tensor the user sees
    try:
        res = compute(Tensor._make(t._data, t._grad_fn, t._requires_grad) if st.grad_enabled else t)
    finally:
        st.observer = obs
    t._data = res._data
    t._version += 1
    if res._grad_fn is not None:
        _renamed(res._grad_fn, node)
        t._grad_fn = res._grad_fn
    if obs is not None:
        obs.tensor_created(t)  # the same tensor in a new shape: announced again
    return t


def unsqueeze_(t: Tensor, dim: int) -> Tensor:
    return _reshaped_inplace(t, lambda x: x.unsqueeze(dim), "UnsqueezeBackward1")  # type: ignore[attr-defined]  # an op method


def squeeze_(t: Tensor, dim: Any = None) -> Tensor:
    name = "SqueezeBackward3" if dim is None else "SqueezeBackward4"
    return _reshaped_inplace(t, lambda x: x.squeeze() if dim is None else x.squeeze(dim), name)  # type: ignore[attr-defined]


def t_(t: Tensor) -> Tensor:
    return _reshaped_inplace(t, lambda x: x.t(), "TBackward1")  # type: ignore[attr-defined]  # an op method


def transpose_(t: Tensor, dim0: int, dim1: int) -> Tensor:
    return _reshaped_inplace(t, lambda x: x.transpose(dim0, dim1), "TransposeBackward1")  # type: ignore[attr-defined]  # an op method


tensor_methods(
    {
        "unsqueeze_": unsqueeze_,
        "squeeze_": squeeze_,
        "t_": no_arguments("t_", t_),
        "transpose_": transpose_,
    },
    signatures={
        "unsqueeze_": "Tensor input, int dim",
        "squeeze_": ("Tensor input", "Tensor input, int dim"),
        "transpose_": "Tensor input, int dim0, int dim1",
    },
)


tensor_methods(
    {"zero_": no_arguments("zero_", zero_), "fill_": fill_, "copy_": _copy_from, "resize_": resize_},
    signatures={
        "fill_": ("Tensor input, Tensor value", "Tensor input, Number value"),
        "copy_": "Tensor input, Tensor# other, bool non_blocking=False",
    },
)

"""The Tensor methods and operators, generated from the ops' declarations (``engine.ops.api``) and attached to
``Tensor`` by ``install``: ``x.exp()`` is the op ``exp``, checked as PyTorch checks its method form.

For each declared op: the method (``x.sum(1)``, numpy's ``axis=``/``keepdims=`` too when declared), checked against
its signature (``x.dot([1.])`` is PyTorch's refusal); a method declared without arguments refuses any in CPython's
words (``x.exp(1)``: ``TensorBase.exp() takes no arguments (1 given)``); the in-place variant (``x.exp_()``) and the
operators (``x + y``, ``x += y``).

Example::

    >>> torch.tensor([1., 2.]).exp()      # Tensor.exp is the op declared by ExpBackward0
    tensor([2.7183, 7.3891])
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import autograd, dtypes
from engine.ops import argcheck, inplace
from engine.ops.api import ENTRIES, METHODS_ONLY, Api, no_arguments, operand
from engine.tensor import _TYPE_NAMES, Tensor


def keepdims_alias(fn: Any) -> Any:
    """Accept numpy's spellings as PyTorch does: ``keepdims=`` and ``axis=`` (``counts.sum(1, keepdims=True)``,
    ``x.mean(axis=0)``)."""

    def op(*args: Any, **kwargs: Any) -> Any:
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        if "axis" in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        return fn(*args, **kwargs)

    op.__name__ = op.__qualname__ = getattr(fn, "__name__", "op")
    op.__doc__ = fn.__doc__
    return op


def in_place(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``x.op_(…)``: the op on x's current value, written back into x (history rewritten, version bumped)."""

    def op(self: Any, *args: Any, **kwargs: Any) -> Any:
        return inplace.apply_inplace(self, lambda x: fn(x, *args, **kwargs))

    return op


def _checked_method(name: str, fn: Any, api: Api | None = None) -> Any:
    """``fn`` behind the argument check of method ``name`` (if it has a signature), refusing any argument if the
    method takes none."""
    if name in argcheck.SIGNATURES or f"Tensor.{name}" in argcheck.SIGNATURES:
        fn = argcheck.signed(name, fn, method=True)
    if api is not None and api.no_arguments:
        fn = no_arguments(name, fn)
    return fn


def method_table() -> dict[str, Any]:
    """Every Tensor method and operator, from the declarations."""
    table: dict[str, Any] = {}
    for name, entry in ENTRIES.items():
        api, fn = entry.api, entry.fn
        if api.method:
            method = api.method_fn or (keepdims_alias(fn) if api.keepdims else fn)
            table[name] = _checked_method(name, method, api)
        for operator in api.operators:
            table[operator] = operand(fn)
        if api.inplace and name == api.name:
            table[api.inplace] = _checked_method(api.inplace, in_place(fn), api)
            if api.inplace_operator:
                table[api.inplace_operator] = operand(in_place(fn))
        elif api.inplace and api.method:  # an alias's in-place form: x.subtract_(1) is x.sub_(1)
            table[f"{name}_"] = _checked_method(api.inplace, in_place(fn), api)
    for name, fn in METHODS_ONLY.items():
        table[name] = fn if isinstance(fn, property) else _checked_method(name, fn)
    table["backward"] = _backward
    return table


def _backward(
    self: Tensor, gradient: Any = None, retain_graph: bool | None = None, create_graph: bool = False, inputs: Any = None
) -> None:
    """Compute d(self)/d(leaf) for every leaf and add it to ``leaf.grad``.

    Example::

        >>> x = torch.tensor(2., requires_grad=True)
        >>> (x ** 2).backward(); x.grad
        tensor(4.)
    """
    autograd.backward(self, gradient, retain_graph, create_graph, inputs)


# methods PyTorch writes in Python: Python's own arity errors name them "Tensor.split()"
def _as_method(name: str, fn: Any, python: bool) -> Any:
    """``fn`` under the name Python's argument errors give it (``<lambda>``/``_named.<locals>.op`` would leak)."""
    if not isinstance(fn, types.FunctionType):
        return fn
    qualname = f"Tensor.{name}" if python else name
    if fn.__qualname__ == qualname:
        return fn
    if "<" in fn.__qualname__ or fn.__name__.startswith("_"):  # a closure or lambda of its own: rename it
        fn.__name__ = fn.__qualname__ = qualname
        return fn
    copy = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__, copy.__doc__, copy.__qualname__ = fn.__kwdefaults__, fn.__doc__, qualname
    return copy


# methods the Tensor class defines itself, checked here as PyTorch checks them
_CLASS_NO_ARGUMENTS = [
    "dim",
    "item",
    "tolist",
    "numel",
    "detach",
    "detach_",
    "retain_grad",
    "is_floating_point",
    "element_size",
]
_CLASS_SIGNED = ["float", "double", "long", "int", "bool", "cpu", "is_contiguous", "size", "requires_grad_"]


def _typed(type_: Any, names: dict[str, str]) -> Any:
    """``x.type()`` / ``x.type('torch.DoubleTensor')`` / ``x.type(torch.float64)``, refused as PyTorch refuses."""

    def type(self: Any, dtype: Any = None, non_blocking: bool = False) -> Any:  # noqa: A001  (PyTorch's own name for the op)
        if dtype is None or isinstance(dtype, dtypes.dtype):
            return type_(self, dtype)
        if isinstance(dtype, str) and dtype in names:
            return self.to(dtypes.from_numpy(np.dtype(names[dtype])))
        legacy = getattr(dtype, "_gt_tensor_type", None)  # torch.FloatTensor, torch.LongTensor, ...
        if isinstance(legacy, dtypes.dtype):
            return self.to(legacy)
        if isinstance(dtype, (str, builtins.type)):
            raise ValueError(f"invalid type: '{dtype if isinstance(dtype, str) else dtype.__name__}'")
        raise TypeError("dtype must be a type, str, or dtype object")

    type.__qualname__ = "type"
    return type


def install(cls: type[Tensor]) -> None:
    """Attach every generated method to ``cls`` (once, when ``engine.ops`` loads)."""
    python = {name for name, entry in ENTRIES.items() if entry.api.python_method}
    for name, fn in method_table().items():
        setattr(cls, name, _as_method(name, fn, name in python))
    for name in _CLASS_NO_ARGUMENTS:
        setattr(cls, name, no_arguments(name, cls.__dict__[name]))
    for name in _CLASS_SIGNED:
        setattr(cls, name, argcheck.signed(name, cls.__dict__[name], method=True))
    cls.type = _typed(cls.__dict__["type"], {f"torch.{v}Tensor": k for k, v in _TYPE_NAMES.items()})


__all__ = ["in_place", "install", "keepdims_alias", "method_table"]

"""Comparisons and logic: ``== != < <= > >=`` (``eq`` … ``ge``), ``& | ^ ~`` on bool and integer tensors,
``logical_and``/``or``/``not``, ``isnan``/``isinf``/``isfinite``, ``allclose``, ``isclose`` and ``equal``. None has
a gradient: their results are bools, new tensors outside the graph.

Example::

    >>> torch.tensor([1., 2.]) > 1.5
    tensor([False,  True])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.ops.api import tensor_methods, torch_op
from engine.ops.meta_rules import without_node
from engine.ops.operands import binary_operands, made
from engine.tensor import _TYPE_NAMES, Tensor

_TWO = ("Tensor input, Tensor other", "Tensor input, Number other")
_CLOSE = "Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"


def _compare(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def op(a: Any, b: Any) -> Any:
        if not isinstance(b, (Tensor, int, float, bool)):
            return NotImplemented
        a2, b2 = binary_operands(a, b)
        meta = without_node(np.bool_, a2, b2)
        return made(meta if meta is not None else np.asarray(fn(a2._data, b2._data)))

    op.__name__ = op.__qualname__ = name
    return op


def _bitwise(fn: Callable[..., Any], name: str | None = None) -> Callable[..., Any]:
    """``&``, ``|``, ``^`` (``torch.bitwise_and``/``or``/``xor``) on bool and integer tensors (no gradient: they are
    not differentiable)."""

    def op(a: Any, b: Any) -> Any:
        if not isinstance(b, (Tensor, int, float, bool)):
            return NotImplemented
        a2, b2 = binary_operands(a, b)
        kind = np.result_type(a2._data, b2._data)
        if kind.kind == "f":
            raise NotImplementedError(f"\"{fn.__name__}_cpu\" not implemented for '{_TYPE_NAMES[kind.name]}'")
        return made(np.asarray(fn(a2._data, b2._data)))

    if name is not None:
        op.__name__ = op.__qualname__ = name
    return op


for _name, _fn, _operator in (
    ("bitwise_and", np.bitwise_and, "__and__"),
    ("bitwise_or", np.bitwise_or, "__or__"),
    ("bitwise_xor", np.bitwise_xor, "__xor__"),
):
    torch_op(_name, signature=_TWO, operators=(_operator,), inplace=_name + "_")(_bitwise(_fn, _name))


@torch_op("bitwise_not", signature="Tensor input", inplace="bitwise_not_")
def bitwise_not(input: Tensor) -> Tensor:
    if input._data.dtype.kind == "f":
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{_TYPE_NAMES[input._data.dtype.name]}'")
    return _invert(input)


def _invert(a: Any) -> Any:
    if a._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return made(np.asarray(np.logical_not(a._data) if a._data.dtype == np.bool_ else np.invert(a._data)))


def _logical(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def op(a: Any, b: Any) -> Any:
        a2, b2 = binary_operands(a, b)
        return made(np.asarray(fn(a2._data, b2._data)))

    op.__name__ = op.__qualname__ = name
    return op


for _name, _fn, _operator in (
    ("eq", np.equal, "__eq__"),
    ("ne", np.not_equal, "__ne__"),
    ("lt", np.less, "__lt__"),
    ("le", np.less_equal, "__le__"),
    ("gt", np.greater, "__gt__"),
    ("ge", np.greater_equal, "__ge__"),
):
    torch_op(_name, signature=_TWO, operators=(_operator,))(_compare(_name, _fn))

for _name, _fn in (("logical_and", np.logical_and), ("logical_or", np.logical_or)):
    torch_op(_name, signature="Tensor input, Tensor other")(_logical(_name, _fn))


@torch_op("logical_not", signature="Tensor input")
def logical_not(input: Tensor) -> Tensor:
    return made(np.asarray(np.logical_not(input._data)))


def _test(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def op(input: Tensor) -> Tensor:
        return made(np.asarray(fn(input._data)))

    op.__name__ = op.__qualname__ = name
    return op


for _name, _fn in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)):
    torch_op(_name, signature="Tensor input")(_test(_name, _fn))


@torch_op("allclose", method=False, signature=_CLOSE)
def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    a, b = binary_operands(a, b)
    return bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@torch_op("isclose", method=False, signature=_CLOSE)
def isclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    a, b = binary_operands(a, b)
    return made(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@torch_op("equal", signature="Tensor input, Tensor other")
def equal(a: Tensor, b: Tensor) -> bool:
    return a._data.shape == b._data.shape and bool((a._data == b._data).all())


tensor_methods(
    {
        "__rand__": _bitwise(np.bitwise_and),
        "__ror__": _bitwise(np.bitwise_or),
        "__rxor__": _bitwise(np.bitwise_xor),
        "__invert__": _invert,
    }
)

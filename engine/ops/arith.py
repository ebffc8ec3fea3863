"""Arithmetic: ``+ - * / **`` and negation, each with its backward (the derivative a learner would write).

Example::

    >>> x = torch.tensor(3., requires_grad=True)
    >>> y = x * x; y.backward(); x.grad     # d(x*x)/dx = 2x
    tensor(6.)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import dtypes
from engine.ops.base import (
    Function, binary_operands, broadcast_shape, check_alloc, check_scalar, made, save_cross, unbroadcast,
)
from engine.tensor import Tensor


def _axpy(a: np.ndarray, alpha: Any, b: np.ndarray) -> np.ndarray:
    """a + alpha * b rounded once, as PyTorch's add kernel (a fused multiply-add) computes it."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) + float(np.float32(alpha)) * b.astype(np.float64)).astype(np.float32)
    return a + np.asarray(alpha).astype(a.dtype) * b


def _binary(cls: type[Function], a: Any, b: Any, **params: Any) -> Tensor:
    a, b = binary_operands(a, b)
    shape = broadcast_shape(a._data.shape, b._data.shape)
    if shape != a._data.shape and shape != b._data.shape:
        check_alloc(math.prod(shape))
    return cls.apply(a, b, **params)


class AddBackward0(Function):
    """a + alpha * b: the gradient passes through unchanged (summed over broadcast dimensions)."""

    _saved_fields = ("alpha",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx._shapes = (a.shape, b.shape)
        ctx._save(alpha=alpha)
        return a + b if alpha == 1 else _axpy(a, alpha, b)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        alpha = ctx._saved.get("alpha", 1)
        sa, sb = ctx._shapes
        return unbroadcast(g, sa), unbroadcast(g if alpha == 1 else g * alpha, sb)


class SubBackward0(Function):
    """a - alpha * b: +gradient for a, -gradient for b."""

    _saved_fields = ("alpha",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx._shapes = (a.shape, b.shape)
        ctx._save(alpha=alpha)
        return a - b if alpha == 1 else _axpy(a, -alpha, b)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        alpha = ctx._saved.get("alpha", 1)
        sa, sb = ctx._shapes
        return unbroadcast(g, sa), unbroadcast(-g if alpha == 1 else -g * alpha, sb)


class RsubBackward1(Function):
    """number - a (``1 - x``): the gradient is negated."""

    _saved_fields = ("alpha",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, other: Any = 0) -> np.ndarray:
        return np.asarray(other, dtype=a.dtype) - a

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (-g,)


class MulBackward0(Function):
    """a * b: d/da = b, d/db = a (product rule)."""

    _saved_fields = ("self", "other")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "other", b)
        ctx._shapes = (a.shape, b.shape)
        return a * b

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        sa, sb = ctx._shapes
        na, nb = ctx._needs_input_grad
        ga = unbroadcast(g * ctx._saved["other"], sa) if na else None
        gb = unbroadcast(g * ctx._saved["self"], sb) if nb else None
        return ga, gb


class DivBackward0(Function):
    """a / b: d/da = 1/b, d/db = -a/b²."""

    _saved_fields = ("self", "other")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        need = ctx._needs_input_grad
        if need and need[1]:
            ctx._save(self=a)
        ctx._save(other=b)
        ctx._shapes = (a.shape, b.shape)
        if a.dtype.kind != "f":  # true division of integers gives floats
            return (a / b).astype(np.float32)
        return a / b

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        b = ctx._saved["other"]
        sa, sb = ctx._shapes
        na, nb = ctx._needs_input_grad
        ga = unbroadcast(g / b, sa) if na else None
        gb = unbroadcast(-g * ctx._saved["self"] / (b * b), sb) if nb else None
        return ga, gb


class NegBackward0(Function):
    """-a: the gradient is negated."""

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return -a

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        return (-g,)


class ReciprocalBackward0(Function):
    """1 / a: d/da = -1/a² = -result²."""

    _saved_fields = ("result",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = np.reciprocal(a if a.dtype.kind == "f" else a.astype(np.float32))
        ctx._save(result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        r = ctx._saved["result"]
        return (-g * (r * r),)


class PowBackward0(Function):
    """a ** n for a number n: d/da = n * a^(n-1)."""

    _saved_fields = ("self", "exponent")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, exponent: Any = 2) -> np.ndarray:
        ctx._save(self=a, exponent=exponent)
        return _pow_scalar(a, exponent)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, n = ctx._saved["self"], ctx._saved["exponent"]
        if n == 0:
            return (np.zeros_like(a),)
        return (g * (np.asarray(n, dtype=a.dtype) * _pow_scalar(a, n - 1)),)


def _pow_scalar(a: np.ndarray, e: Any) -> np.ndarray:
    """a ** e as PyTorch computes it: exact products for small integer powers, else pow in double precision."""
    if a.dtype.kind != "f":
        return np.power(a, e)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if e == 2:
            return a * a
        if e == 3:
            return a * a * a
        if e == 1:
            return a.copy()
        if e == 0:
            return np.ones_like(a)
        if e == 0.5:
            return np.sqrt(a)
        if e == -1:
            return 1 / a
        if e == -2:
            return 1 / (a * a)
        return np.power(a.astype(np.float64), e).astype(a.dtype)


class PowBackward1(Function):
    """a ** b for two tensors: d/da = b * a^(b-1), d/db = a^b * ln(a)."""

    _saved_fields = ("self", "exponent", "result")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r = np.power(a, b)
        ctx._save(self=a, exponent=b, result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        a, b, r = ctx._saved["self"], ctx._saved["exponent"], ctx._saved["result"]
        na, nb = ctx._needs_input_grad
        ga = unbroadcast(np.where(b == 0, 0, g * (b * np.power(a, b - 1))).astype(a.dtype), a.shape) if na else None
        gb = None
        if nb:
            with np.errstate(divide="ignore", invalid="ignore"):
                val = g * (r * np.log(a))
            val = np.where((a == 0) & (b >= 0), 0, val).astype(b.dtype)
            gb = unbroadcast(val, b.shape)
        return ga, gb


class PowBackward2(Function):
    """number ** b: d/db = number^b * ln(number)."""

    _saved_fields = ("self", "result")

    @staticmethod
    def _forward(ctx: Any, b: np.ndarray, base: Any = 2.0) -> np.ndarray:
        r = np.power(np.asarray(base, dtype=b.dtype), b)
        ctx._save(self=base, result=r)
        return r

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        base, r = ctx._saved["self"], ctx._saved["result"]
        return (g * (r * np.log(np.asarray(base, dtype=r.dtype))),)


# ---- the functions Tensor methods and torch.* call ------------------------------------------------------------
def add(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    return _binary(AddBackward0, a, b, alpha=alpha)


def _check_bool_sub(a: Any, b: Any) -> None:
    """PyTorch refuses ``-`` on bools (a Python ``True`` counts as a bool tensor)."""
    is_bool = [isinstance(v, bool) or (isinstance(v, Tensor) and v._data.dtype == np.bool_) for v in (a, b)]
    if all(is_bool):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
            "operator instead."
        )
    if any(is_bool):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead."
        )


def sub(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    _check_bool_sub(a, b)
    return _binary(SubBackward0, a, b, alpha=alpha)


def rsub(a: Tensor, b: Any) -> Tensor:
    """``b - a`` where b is a Python number."""
    if isinstance(b, Tensor):
        return sub(b, a)
    check_scalar(b)
    _check_bool_sub(b, a)
    dt = dtypes.result_type(a.dtype, b)
    if dt._np != a._data.dtype:
        a = a.to(dt)
    return RsubBackward1.apply(a, other=b)


def mul(a: Any, b: Any) -> Tensor:
    return _binary(MulBackward0, a, b)


def div(a: Any, b: Any, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        return floor_divide(a, b) if rounding_mode == "floor" else _trunc_div(a, b)
    if isinstance(a, Tensor) and not isinstance(b, Tensor) and a.dtype.is_floating_point is False:
        a = a.to(dtypes.float32)
    return _binary(DivBackward0, a, b)


def rdiv(a: Tensor, b: Any) -> Tensor:
    """``b / a`` where b is a number: PyTorch computes ``reciprocal(a) * b``."""
    if isinstance(b, Tensor):
        return div(b, a)
    return mul(ReciprocalBackward0.apply(a), b)


def _int_zero_check(b: Tensor) -> None:
    if b._data.dtype.kind in "iu" and not b._data.all():
        raise RuntimeError("ZeroDivisionError")  # PyTorch's words for an integer division by zero


def floor_divide(a: Any, b: Any) -> Tensor:
    a, b = binary_operands(a, b)
    _int_zero_check(b)
    with np.errstate(all="ignore"):  # float x // 0 is ±inf or nan, silently, as in PyTorch
        return made(np.floor_divide(a._data, b._data))


def _trunc_div(a: Any, b: Any) -> Tensor:
    a, b = binary_operands(a, b)
    _int_zero_check(b)
    with np.errstate(all="ignore"):
        out = np.trunc(a._data / b._data)
    return made(out.astype(a._data.dtype))


def remainder(a: Any, b: Any) -> Tensor:
    a, b = binary_operands(a, b)
    _int_zero_check(b)
    with np.errstate(all="ignore"):
        return made(np.remainder(a._data, b._data))


def neg(a: Tensor) -> Tensor:
    if a._data.dtype == np.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
            "the `~` or `logical_not()` operator instead."
        )
    return NegBackward0.apply(a)


def reciprocal(a: Tensor) -> Tensor:
    return ReciprocalBackward0.apply(a)


def pow(a: Any, b: Any) -> Tensor:  # noqa: A001 - torch.pow
    check_scalar(a, b)
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        dt = dtypes.result_type(a.dtype, b)
        if dt._np != a._data.dtype:
            a = a.to(dt)
        if b < 0 and not dt.is_floating_point:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return PowBackward0.apply(a, exponent=b)
    if not isinstance(a, Tensor):
        dt = dtypes.result_type(b.dtype, a)
        if dt._np != b._data.dtype:
            b = b.to(dt)
        return PowBackward2.apply(b, base=a)
    return _binary(PowBackward1, a, b)


def rpow(a: Tensor, b: Any) -> Tensor:
    return pow(b, a)


class WhereBackward0(Function):
    """where(cond, a, b): the gradient goes to a where cond holds, to b elsewhere."""

    _saved_fields = ("condition",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, condition: Any = None) -> np.ndarray:
        ctx._save(condition=condition)
        ctx._shapes = (a.shape, b.shape)
        return np.where(condition, a, b)

    def _backward(ctx, g: np.ndarray) -> tuple[np.ndarray | None, ...]:
        c = ctx._saved["condition"]
        zero = np.zeros((), dtype=g.dtype)
        sa, sb = ctx._shapes
        return unbroadcast(np.where(c, g, zero), sa), unbroadcast(np.where(c, zero, g), sb)


def where(condition: Tensor, a: Any = None, b: Any = None) -> Any:
    if a is None and b is None:  # torch.where(condition): the indices of the true elements, one tensor per dim
        from engine.ops.ordering import nonzero

        return nonzero(condition, as_tuple=True)
    if condition._data.dtype not in (np.bool_, np.uint8):
        from engine.ops.argcheck import dtype_name

        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{dtype_name(condition)}")
    a, b = binary_operands(a, b)
    shape = broadcast_shape(broadcast_shape(a._data.shape, b._data.shape), condition._data.shape)
    check_alloc(math.prod(shape))
    return WhereBackward0.apply(a, b, condition=condition._data.astype(bool))


def maximum(a: Tensor, b: Tensor) -> Tensor:
    from engine.ops.reduce import MaximumBackward0

    return _binary(MaximumBackward0, a, b)


def minimum(a: Tensor, b: Tensor) -> Tensor:
    from engine.ops.reduce import MinimumBackward0

    return _binary(MinimumBackward0, a, b)

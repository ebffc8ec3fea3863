"""Arithmetic: ``+ - * / **`` and negation, each with its backward (the derivative a learner would write). Example::

>>> x = torch.tensor(3., requires_grad=True)
>>> y = x * x; y.backward(); x.grad     # d(x*x)/dx = 2x
tensor(6.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import dtypes, numerics
from engine.ops.api import Api, operand, reflected, tensor_methods, torch_op
from engine.ops.elementwise import ReciprocalBackward0
from engine.ops.function import Function, number, save_cross
from engine.ops.operands import binary, binary_operands, check_scalar, made
from engine.run_state import quiet_floats
from engine.tensor import Tensor

_SCALAR_OPS = "Tensor# input, Tensor# other"
# what PyTorch lists when it refuses add/sub (its other overloads are hidden)
_ALPHA_SHOWN = "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"
_ALPHA_SHOWN_METHOD = "Tensor other, *, Number alpha = 1"


def _axpy(a: np.ndarray, alpha: Any, b: np.ndarray) -> np.ndarray:
    """a + alpha * b rounded once, as PyTorch's add kernel (a fused multiply-add) computes it."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) + float(np.float32(alpha)) * b.astype(np.float64)).astype(np.float32)
    return a + np.asarray(alpha).astype(a.dtype) * b


class AddBackward0(Function):
    """a + alpha * b: the gradient passes through unchanged (summed over broadcast dimensions)."""

    api = Api(
        "add",
        signature=f"{_SCALAR_OPS}, Number alpha=1",
        operators=("__add__", "__radd__"),
        inplace="add_",
        inplace_operator="__iadd__",
        more_overloads=("both", _ALPHA_SHOWN),
        inplace_more_overloads=("method", _ALPHA_SHOWN_METHOD),
    )  # alpha by position: a deprecated form
    broadcasts = True
    _saved_fields = ("alpha",)

    @staticmethod
    def call(a: Any, b: Any, alpha: Any = 1) -> Tensor:
        return binary(AddBackward0, a, b, alpha=alpha)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx._save(alpha=alpha)
        return a + b if alpha == 1 else _axpy(a, alpha, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        alpha = s.get("alpha", 1)
        sa, sb = ctx._in_shapes
        return k.sum_to(g, sa), k.sum_to(g if alpha == 1 else g * alpha, sb)

    def _templates(self) -> tuple[str | None, ...]:
        alpha = self._saved.get("alpha", 1)
        return ("{grad}", "{grad}" if alpha == 1 else f"{{grad}} · {number(alpha)}")


add = AddBackward0.call


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


class SubBackward0(Function):
    """a - alpha * b: +gradient for a, -gradient for b."""

    api = Api(
        "sub",
        signature=f"{_SCALAR_OPS}, Number alpha=1",
        operators=("__sub__",),
        inplace="sub_",
        inplace_operator="__isub__",
        more_overloads=("both", _ALPHA_SHOWN),
        inplace_more_overloads=("method", _ALPHA_SHOWN_METHOD),
        aliases=("subtract",),
    )
    broadcasts = True
    _saved_fields = ("alpha",)

    @staticmethod
    def call(a: Any, b: Any, alpha: Any = 1) -> Tensor:
        _check_bool_sub(a, b)
        return binary(SubBackward0, a, b, alpha=alpha)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx._save(alpha=alpha)
        return a - b if alpha == 1 else _axpy(a, -alpha, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        alpha = s.get("alpha", 1)
        sa, sb = ctx._in_shapes
        return k.sum_to(g, sa), k.sum_to(-g if alpha == 1 else -g * alpha, sb)

    def _templates(self) -> tuple[str | None, ...]:
        alpha = self._saved.get("alpha", 1)
        return ("{grad}", "−{grad}" if alpha == 1 else f"−{{grad}} · {number(alpha)}")


sub = SubBackward0.call


class RsubBackward1(Function):
    """number - a (``1 - x``): the gradient is negated."""

    templates = ("−{grad}",)
    _saved_fields = ("alpha",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, other: Any = 0) -> np.ndarray:
        return np.asarray(other, dtype=a.dtype) - a

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (-g,)


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


class MulBackward0(Function):
    """a * b: d/da = b, d/db = a (product rule)."""

    api = Api(
        "mul",
        signature=_SCALAR_OPS,
        operators=("__mul__", "__rmul__"),
        inplace="mul_",
        inplace_operator="__imul__",
        aliases=("multiply",),
    )
    templates = ("{grad} · {1}", "{grad} · {0}")
    broadcasts = True
    _saved_fields = ("self", "other")

    @staticmethod
    def call(a: Any, b: Any) -> Tensor:
        return binary(MulBackward0, a, b)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "other", b)
        return a * b

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        return (k.sum_to(g * s["other"], sa) if na else None, k.sum_to(g * s["self"], sb) if nb else None)


mul = MulBackward0.call


class DivBackward0(Function):
    """a / b: d/da = 1/b, d/db = -a/b²."""

    api = Api(
        "div",
        signature=f"{_SCALAR_OPS}, *, str? rounding_mode=None",
        operators=("__truediv__",),
        inplace="div_",
        inplace_operator="__itruediv__",
        more_overloads=("both", None),
        inplace_more_overloads=("method", None),
        aliases=("divide", "true_divide"),
    )
    templates = ("{grad} / {1}", "−{grad} · {0} / {1}²")
    broadcasts = True
    _saved_fields = ("self", "other")

    @staticmethod
    def call(a: Any, b: Any, rounding_mode: str | None = None) -> Tensor:
        if rounding_mode is not None:
            return floor_divide(a, b) if rounding_mode == "floor" else _trunc_div(a, b)
        if isinstance(a, Tensor) and not isinstance(b, Tensor) and a.dtype.is_floating_point is False:
            a = a.to(dtypes.float32)
        return binary(DivBackward0, a, b)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        need = ctx._needs_input_grad
        if need and need[1]:
            ctx._save(self=a)
        ctx._save(other=b)
        if a.dtype.kind != "f":  # true division of integers gives floats
            return (a / b).astype(np.float32)
        return a / b

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        b = s["other"]
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        return (k.sum_to(g / b, sa) if na else None, k.sum_to(-g * s["self"] / (b * b), sb) if nb else None)


div = DivBackward0.call


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
    with quiet_floats():  # float x // 0 is ±inf or nan, silently, as in PyTorch
        return made(np.floor_divide(a._data, b._data))


def _trunc_div(a: Any, b: Any) -> Tensor:
    a, b = binary_operands(a, b)
    _int_zero_check(b)
    with quiet_floats():
        out = np.trunc(a._data / b._data)
    return made(out.astype(a._data.dtype))


class NegBackward0(Function):
    """-a: the gradient is negated."""

    api = Api("neg", signature="Tensor input", inplace="neg_")
    templates = ("−{grad}",)

    @staticmethod
    def call(a: Tensor) -> Tensor:
        if a._data.dtype == np.bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
                "use the `~` or `logical_not()` operator instead."
            )
        return NegBackward0.apply(a)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        return -a

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (-g,)


neg = NegBackward0.call


class PowBackward0(Function):
    """a ** n for a number n: d/da = n * a^(n-1)."""

    _saved_fields = ("self", "exponent")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, exponent: Any = 2) -> np.ndarray:
        ctx._save(self=a, exponent=exponent)
        return pow_scalar(a, exponent)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, n = s["self"], s["exponent"]
        if n == 0:
            return (k.zeros_like(a),)
        return (g * (k.pow(a, n - 1) * n),)

    def _templates(self) -> tuple[str | None, ...]:
        n = self._saved["exponent"]
        if n == 0:
            return ("{grad} · 0",)
        if n == 1:
            return ("{grad}",)
        power = {2: "", 3: "²", 4: "³"}.get(n, f"^{number(n - 1)}")
        return (f"{{grad}} · {number(n)}·{{0}}{power}",)


def pow_scalar(a: np.ndarray, e: Any) -> np.ndarray:
    """a ** e as PyTorch computes it: exact products for small integer powers, else pow in double precision."""
    if a.dtype.kind != "f":
        return np.power(a, e)
    with quiet_floats():  # 1 / 0 is inf, silently
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
        exact = numerics.pow_scalar(a, e)  # float32: ATen's vectorised kernel, SLEEF's powf (docs/NUMERICS.md)
        return exact if exact is not None else np.power(a.astype(np.float64), e).astype(a.dtype)


class PowBackward1(Function):
    """a ** b for two tensors: d/da = b * a^(b-1), d/db = a^b * ln(a)."""

    templates = ("{grad} · {1}·{0}^({1} − 1)", "{grad} · {out} · ln {0}")
    broadcasts = True
    _saved_fields = ("self", "exponent", "result")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r = numerics.pow_tensors(a, b)
        ctx._save(self=a, exponent=b, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b, r = s["self"], s["exponent"], s["result"]
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        ga = k.sum_to(k.like(k.where(b == 0, 0, g * (b * k.power(a, b - 1))), a), sa) if na else None
        gb = k.sum_to(k.like(k.where((a == 0) & (b >= 0), 0, g * (r * k.log(a))), b), sb) if nb else None
        return ga, gb


class PowBackward2(Function):
    """number ** b: d/db = number^b * ln(number)."""

    _saved_fields = ("self", "result")

    @staticmethod
    def _forward(ctx: Any, b: np.ndarray, base: Any = 2.0) -> np.ndarray:
        r = np.power(np.asarray(base, dtype=b.dtype), b)
        ctx._save(self=base, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        r = s["result"]
        return (g * (r * k.log_of(s["self"], r)),)

    def _templates(self) -> tuple[str | None, ...]:
        return (f"{{grad}} · {{out}} · ln {number(self._saved['self'])}",)


@torch_op(
    "pow",
    signature=("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent"),
    method_fn=operand(lambda a, b: pow(a, b)),
    operators=("__pow__",),
    inplace="pow_",
    inplace_signature=("Tensor input, Tensor exponent", "Tensor input, Number exponent"),
)
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
    return binary(PowBackward1, a, b)


@torch_op("square", signature="Tensor input")
def square(input: Tensor) -> Tensor:
    return pow(input, 2)


tensor_methods(
    {
        "__rsub__": operand(rsub),
        "__rtruediv__": operand(rdiv),
        "__rpow__": operand(lambda a, b: pow(b, a)),
        "__floordiv__": operand(floor_divide),
        "__rfloordiv__": reflected(floor_divide),
        "__pos__": lambda self: self,
        "__neg__": neg,
    }
)

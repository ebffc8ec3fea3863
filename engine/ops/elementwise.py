"""Elementwise functions and their derivatives: of one tensor, one row of ``TABLE`` each (exp, log, sqrt, tanh,
sigmoid, relu, abs, sin, cos, …); of two tensors (atan2, hypot, where); clamp. (The activations with parameters,
leaky_relu, softplus, elu, gelu, are in ``activations.py``.)

A row says: the node's name, the torch function (``None``: not one of PyTorch's), the forward on arrays, what it
keeps for backward (the input ``"self"`` or the output ``"result"``), the derivative ``grad(k, g, a, r)`` (``a`` the
input, ``r`` the output, ``k`` the kit: see ``engine.ops.kits``), the chain-rule template and the docstring.

Example::

    >>> x = torch.tensor(0., requires_grad=True)
    >>> torch.sigmoid(x).backward(); x.grad     # σ'(0) = σ(0)(1 - σ(0)) = 0.25
    tensor(0.2500)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from engine import dtypes, numerics
from engine.ops import inplace
from engine.ops.api import ENTRIES, Api, tensor_methods, torch_op
from engine.ops.function import Function, number
from engine.ops.operands import binary, binary_operands, broadcast_shape, check_alloc, check_scalar, made, promote
from engine.tensor import _TYPE_NAMES, Tensor


def as_float(a: np.ndarray) -> np.ndarray:
    return a if a.dtype.kind == "f" else a.astype(np.float32)


def precise(fn: Any, a: np.ndarray) -> np.ndarray:
    """fn(a) evaluated in double precision and rounded once: PyTorch's CPU math library is accurate to the last
    bit far more often than numpy's fast float32 versions."""
    a = as_float(a)
    if a.dtype == np.float32:
        return fn(a.astype(np.float64)).astype(np.float32)
    return fn(a)


def mkl(fn: Any, exact: Callable[[np.ndarray], np.ndarray], a: np.ndarray) -> np.ndarray:
    """float32 through ``engine.numerics``' model of PyTorch's kernel (MKL's or SLEEF's bits), else ``precise``."""
    a = as_float(a)
    return exact(a) if a.dtype == np.float32 else precise(fn, a)


class Elementwise(Function):
    """A one-input elementwise op declared by a row of ``TABLE``."""

    family = True
    _fn: ClassVar[Callable[[np.ndarray], np.ndarray]]
    _grad: ClassVar[Callable[..., Any]]
    _keeps: ClassVar[str | None]

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray) -> np.ndarray:  # type: ignore[override]
        r = cls._fn(a)
        if cls._keeps == "self":
            ctx._save(self=a)
        elif cls._keeps == "result":
            ctx._save(result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (type(ctx)._grad(k, g, s.get("self"), s.get("result")),)


def _row(
    node: str,
    name: str | None,
    forward: Callable[[np.ndarray], np.ndarray],
    keeps: str | None,
    grad: Callable[..., Any],
    template: str,
    doc: str,
    api: Api | None = None,
) -> type[Function]:
    attrs: dict[str, Any] = {
        "__doc__": doc,
        "__module__": __name__,
        "_fn": staticmethod(forward),
        "_grad": staticmethod(grad),
        "_keeps": keeps,
        "_saved_fields": (keeps,) if keeps else (),
        "templates": (template,),
    }
    if name is not None:
        attrs["api"] = api or Api(name, inplace=name + "_", signature="Tensor input")
    return type(node, (Elementwise,), attrs)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    a = as_float(a)
    if a.dtype == np.float32:
        return numerics.sigmoid(a)
    one = a.dtype.type(1)
    return (one / (one + precise(np.exp, -a))).astype(a.dtype)


def _silu(a: np.ndarray) -> np.ndarray:
    d = as_float(a).astype(np.float64)
    return (d / (1.0 + np.exp(-d))).astype(as_float(a).dtype)


def _silu_grad(k: Any, g: Any, a: Any, r: Any) -> Any:
    d = k.cast(a, np.float64)
    s = 1.0 / (1.0 + k.exp(-d))
    return k.like(g * (s * (1.0 + d * (1.0 - s))), g)


def _erf(a: np.ndarray) -> np.ndarray:
    a = as_float(a)
    return np.vectorize(math.erf, otypes=[np.float64])(a.astype(np.float64)).astype(a.dtype)


def _zero(k: Any, g: Any, a: Any, r: Any) -> Any:
    return k.zeros_like(g)


_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
# A table: one row per op, read across (the formatter leaves it as written).
# fmt: off
TABLE = [
    _row("ExpBackward0", "exp", lambda a: precise(np.exp, a), "result", lambda k, g, a, r: g * r,
         "{grad} · {out}", "e^a: its own derivative, so backward reuses the result."),
    _row("LogBackward0", "log", lambda a: precise(np.log, a), "self", lambda k, g, a, r: g / a,
         "{grad} / {0}", "ln(a): d/da = 1/a."),
    _row("SqrtBackward0", "sqrt", lambda a: mkl(np.sqrt, numerics.sqrt, a), "result", lambda k, g, a, r: g / (2 * r),
         "{grad} / (2·{out})", "√a: d/da = 1 / (2√a)."),
    _row("TanhBackward0", "tanh", lambda a: precise(np.tanh, a), "result", lambda k, g, a, r: g * k.one_minus_square(r),
         "{grad} · (1 − {out}²)", "tanh(a): d/da = 1 - tanh²(a)."),
    _row("SigmoidBackward0", "sigmoid", _sigmoid, "result", lambda k, g, a, r: g * (1 - r) * r,
         "{grad} · (1 − {out}) · {out}", "σ(a) = 1/(1+e^-a): d/da = σ(a)(1 - σ(a))."),
    _row("ReluBackward0", "relu", lambda a: np.maximum(a, np.zeros((), dtype=a.dtype)), "result",
         lambda k, g, a, r: k.where(r > 0, g, 0), "{grad} · ({0} > 0)",
         "max(a, 0): the gradient passes where the result is positive, is 0 elsewhere."),
    _row("AbsBackward0", "abs", np.abs, "self", lambda k, g, a, r: g * k.sign(a), "{grad} · sign({0})",
         "|a|: d/da = sign(a) (0 at 0)."),
    _row("SinBackward0", "sin", lambda a: mkl(np.sin, numerics.sin, a), "self", lambda k, g, a, r: g * k.cos(a),
         "{grad} · cos({0})", "sin(a): d/da = cos(a)."),
    _row("CosBackward0", "cos", lambda a: mkl(np.cos, numerics.cos, a), "self", lambda k, g, a, r: g * -k.sin(a),
         "{grad} · −sin({0})", "cos(a): d/da = -sin(a)."),
    _row("SinhBackward0", "sinh", lambda a: precise(np.sinh, a), "self", lambda k, g, a, r: g * k.cosh(a),
         "{grad} · cosh({0})", "sinh(a): d/da = cosh(a)."),
    _row("CoshBackward0", "cosh", lambda a: precise(np.cosh, a), "self", lambda k, g, a, r: g * k.sinh(a),
         "{grad} · sinh({0})", "cosh(a): d/da = sinh(a)."),
    _row("TanBackward0", "tan", lambda a: precise(np.tan, a), "result", lambda k, g, a, r: g * (1 + r * r),
         "{grad} · (1 + {out}²)", "tan(a): d/da = 1 + tan²(a)."),
    _row("Log1PBackward0", "log1p", lambda a: precise(np.log1p, a), "self", lambda k, g, a, r: g / (a + 1),
         "{grad} / (1 + {0})", "ln(1 + a), precise for small a: d/da = 1 / (1 + a)."),
    _row("Log2Backward0", "log2", lambda a: precise(np.log2, a), "self", lambda k, g, a, r: g / (a * _LN2),
         "{grad} / ({0} · ln 2)", "log₂(a): d/da = 1 / (a ln 2)."),
    _row("Log10Backward0", "log10", lambda a: precise(np.log10, a), "self", lambda k, g, a, r: g / (a * _LN10),
         "{grad} / ({0} · ln 10)", "log₁₀(a): d/da = 1 / (a ln 10)."),
    _row("Exp2Backward0", "exp2", lambda a: precise(np.exp2, a), "result", lambda k, g, a, r: g * r * _LN2,
         "{grad} · {out} · ln 2", "2^a: d/da = 2^a ln 2."),
    _row("RsqrtBackward0", "rsqrt", lambda a: precise(lambda v: 1.0 / np.sqrt(v), a), "result",
         lambda k, g, a, r: -0.5 * g * r * r * r, "{grad} · −0.5·{out}³",
         "1/√a: d/da = -1 / (2 a√a) = -r³/2."),
    _row("ReciprocalBackward0", "reciprocal", lambda a: np.reciprocal(as_float(a)), "result",
         lambda k, g, a, r: -g * (r * r), "−{grad} · {out}²", "1 / a: d/da = -1/a² = -result²."),
    _row("ErfBackward0", "erf", _erf, "self", lambda k, g, a, r: g * (_TWO_OVER_SQRT_PI * k.exp(-(a * a))),
         "{grad} · 2/√π · e^(−{0}²)", "erf(a) = 2/√π ∫₀ᵃ e^(-t²) dt: d/da = 2/√π e^(-a²)."),
    _row("SiluBackward0", None, _silu, "self", _silu_grad, "{grad} · σ({0})·(1 + {0}·(1 − σ({0})))",
         "a · σ(a): d/da = σ(a) (1 + a (1 - σ(a)))."),
    _row("SignBackward0", "sign", np.sign, None, _zero, "{grad} · 0",
         "sign(x): piecewise constant, so its gradient is 0."),
    _row("RoundBackward0", "round", np.round, None, _zero, "{grad} · 0",
         "round(x): piecewise constant, so its gradient is 0.",
         Api("round", inplace="round_", signature=("Tensor input, *, Tensor? out=None",
                                                   "Tensor input, *, int decimals, Tensor? out=None"))),
    _row("FloorBackward0", "floor", np.floor, None, _zero, "{grad} · 0",
         "floor(x): piecewise constant, so its gradient is 0."),
    _row("CeilBackward0", "ceil", np.ceil, None, _zero, "{grad} · 0",
         "ceil(x): piecewise constant, so its gradient is 0."),
    _row("AsinBackward0", "asin", lambda a: precise(np.arcsin, a), "self",
         lambda k, g, a, r: g * k.pow(1 - a * a, -0.5), "{grad} / √(1 − {0}²)", "arcsin(a): d/da = 1 / √(1 - a²).",
         Api("asin", aliases=("arcsin",), inplace="asin_", signature="Tensor input")),
    _row("AcosBackward0", "acos", lambda a: precise(np.arccos, a), "self",
         lambda k, g, a, r: -g * k.pow(1 - a * a, -0.5), "−{grad} / √(1 − {0}²)",
         "arccos(a): d/da = -1 / √(1 - a²).",
         Api("acos", aliases=("arccos",), inplace="acos_", signature="Tensor input")),
    _row("AtanBackward0", "atan", lambda a: precise(np.arctan, a), "self", lambda k, g, a, r: g / (a * a + 1),
         "{grad} / (1 + {0}²)", "arctan(a): d/da = 1 / (1 + a²).",
         Api("atan", aliases=("arctan",), inplace="atan_", signature="Tensor input")),
]
(ExpBackward0, LogBackward0, SqrtBackward0, TanhBackward0, SigmoidBackward0, ReluBackward0, AbsBackward0, SinBackward0,
 CosBackward0, SinhBackward0, CoshBackward0, TanBackward0, Log1PBackward0, Log2Backward0, Log10Backward0,
 Exp2Backward0, RsqrtBackward0, ReciprocalBackward0, ErfBackward0, SiluBackward0, SignBackward0, RoundBackward0,
 FloorBackward0, CeilBackward0, AsinBackward0, AcosBackward0, AtanBackward0) = TABLE

# the torch functions of the rows, for the ops built from them
_NAMES = ("exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "sin", "cos", "sinh", "cosh", "tan", "log1p", "log2",
          "log10", "exp2", "rsqrt", "reciprocal", "erf", "sign", "round", "floor", "ceil")
(exp, log, sqrt, tanh, sigmoid, relu, abs, sin, cos, sinh, cosh, tan, log1p, log2, log10, exp2, rsqrt, reciprocal, erf,  # noqa: A001
 sign, round, floor, ceil) = (ENTRIES[n].fn for n in _NAMES)  # noqa: A001 - torch.abs, torch.round
# fmt: on


def silu(a: Tensor, inplace: bool = False) -> Tensor:
    return SiluBackward0.apply(a)


# ---- of two tensors -------------------------------------------------------------------------------------------
class Atan2Backward0(Function):
    """atan2(a, b): the angle of the point (b, a), in (-π, π]: d/da = b / (a² + b²), d/db = -a / (a² + b²)."""

    api = Api("atan2", aliases=("arctan2",), signature="Tensor input, Tensor other", inplace="atan2_")
    templates = ("{grad} · {1} / ({0}² + {1}²)", "{grad} · −{0} / ({0}² + {1}²)")
    broadcasts = True
    _saved_fields = ("self", "other")

    @staticmethod
    def call(input: Tensor, other: Tensor) -> Tensor:
        return binary(Atan2Backward0, input, other)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ctx._save(self=a, other=b)
        b = as_float(b)
        return precise(lambda v: np.arctan2(v, b.astype(v.dtype)), a)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b = s["self"], s["other"]
        recip = 1 / (a * a + b * b)  # PyTorch's atan2_backward, in its order
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        return (k.sum_to(g * b * recip, sa) if na else None, k.sum_to(g * -a * recip, sb) if nb else None)


class HypotBackward0(Function):
    """hypot(a, b) = √(a² + b²), the length of (a, b): d/da = a / hypot, d/db = b / hypot."""

    api = Api("hypot", signature="Tensor input, Tensor other", inplace="hypot_")
    templates = ("{grad} · {0} / {out}", "{grad} · {1} / {out}")
    broadcasts = True
    _saved_fields = ("self", "other", "result")

    @staticmethod
    def call(input: Tensor, other: Tensor) -> Tensor:
        return binary(HypotBackward0, input, other)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r = np.hypot(as_float(a), as_float(b))
        ctx._save(self=a, other=b, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b, r = s["self"], s["other"], s["result"]
        sa, sb = ctx._in_shapes
        na, nb = ctx._needs_input_grad
        return (k.sum_to(g * a / r, sa) if na else None, k.sum_to(g * b / r, sb) if nb else None)


class WhereBackward0(Function):
    """where(cond, a, b): the gradient goes to a where cond holds, to b elsewhere."""

    templates = ("{grad} where the condition holds, 0 elsewhere", "{grad} where the condition fails, 0 elsewhere")
    broadcasts = True
    _saved_fields = ("condition",)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, condition: Any = None) -> np.ndarray:
        ctx._save(condition=condition)
        return np.where(condition, a, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        c = s["condition"]
        sa, sb = ctx._in_shapes
        return k.sum_to(k.where(c, g, 0), sa), k.sum_to(k.where(c, 0, g), sb)


@torch_op(
    "where",
    method=False,
    signature=(
        "Tensor condition",
        "Tensor condition, Tensor input, Tensor other",
        "Tensor condition, Number self, Tensor other",
        "Tensor condition, Tensor input, Number other",
        "Tensor condition, Number self, Number other",
    ),
)
def where(condition: Tensor, a: Any = None, b: Any = None) -> Any:
    if a is None and b is None:  # torch.where(condition): the indices of the true elements, one tensor per dim
        idx = np.argwhere(condition._data).astype(np.int64)  # as torch.nonzero(condition, as_tuple=True)
        return tuple(made(idx[:, i].copy()) for i in range(idx.shape[1]))
    if condition._data.dtype not in (np.bool_, np.uint8):
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{_TYPE_NAMES[condition._data.dtype.name]}"
        )
    a, b = binary_operands(a, b)
    shape = broadcast_shape(broadcast_shape(a._data.shape, b._data.shape), condition._data.shape)
    check_alloc(math.prod(shape), a, b, condition)
    return WhereBackward0.apply(a, b, condition=condition._data.astype(bool))


# ---- clamp ---------------------------------------------------------------------------------------------------
class ClampBackward1(Function):
    """clamp(a, min, max): the gradient passes where a lies inside [min, max], is 0 where it was clipped."""

    api = Api(
        "clamp",
        aliases=("clip",),
        signature=(
            "Tensor input, Tensor? min=None, Tensor? max=None",
            "Tensor input, Number? min=None, Number? max=None",
        ),
    )
    _saved_fields = ("self", "min", "max")

    @staticmethod
    def call(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
        a = input
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        check_scalar(min, max)
        if a._data.dtype.kind != "f":  # an int/bool tensor takes the bounds' dtype category (i.clamp(0.5) is float)
            for bound in (min, max):
                if bound is not None:
                    a = binary_operands(a, bound)[0]
        return ClampBackward1.apply(a, min=min, max=max)

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, min: Any = None, max: Any = None) -> np.ndarray:
        ctx._save(self=a, min=min, max=max)
        out = a
        if min is not None:
            out = np.maximum(out, np.asarray(min, dtype=a.dtype))
        if max is not None:
            out = np.minimum(out, np.asarray(max, dtype=a.dtype))
        return out if out is not a else a.copy()

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, lo, hi = s["self"], s["min"], s["max"]
        mask = None if lo is None else a >= lo
        if hi is not None:
            mask = a <= hi if mask is None else mask & (a <= hi)
        return (k.where(mask, g, 0),)

    def _templates(self) -> tuple[str | None, ...]:
        lo, hi = self._saved.get("min"), self._saved.get("max")
        if lo is None:
            return (f"{{grad}} · ({{0}} ≤ {number(hi)})",)
        if hi is None:
            return (f"{{grad}} · ({{0}} ≥ {number(lo)})",)
        return (f"{{grad}} · ({number(lo)} ≤ {{0}} ≤ {number(hi)})",)


clamp = ClampBackward1.call


@torch_op("clamp_min", signature=("Tensor input, Tensor min", "Tensor input, Number min"))
def clamp_min(input: Tensor, min: Any) -> Tensor:
    return clamp(input, min=min)


@torch_op("clamp_max", signature=("Tensor input, Tensor max", "Tensor input, Number max"))
def clamp_max(input: Tensor, max: Any) -> Tensor:
    return clamp(input, max=max)


def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """``x.clamp_(…)``; its cast check names the tensor's C++ type (``… output type long int``)."""
    dt = self.dtype
    for bound in (min, max):  # the result's dtype, worked out without computing it
        if isinstance(bound, Tensor):
            dt = promote(Tensor._make(np.empty((1,) * self._data.ndim, dtype=dt._np)), bound)
        elif bound is not None:
            dt = dtypes.result_type(dt, bound)
    src, dst = np.dtype(dt._np), self._data.dtype
    if src != dst and not np.can_cast(src, dst, casting="same_kind"):
        raise RuntimeError(
            f"result type {_TYPE_NAMES[src.name]} can't be cast to the desired output type {dtypes.C_NAMES[dst.name]}"
        )
    return inplace.apply_inplace(self, lambda x: clamp(x, min, max))


tensor_methods(
    {"clamp_": clamp_, "__abs__": abs},
    signatures={
        "clamp_": (
            "Tensor input, Tensor? min=None, Tensor? max=None",
            "Tensor input, Number? min=None, Number? max=None",
        )
    },
)


__all__ = ["TABLE", "as_float", "clamp", "precise", "silu"]

"""The function forms of torch's namespace that courses write beside the plain ones: those that take ``out=``
(``torch.add(x, y, out=result)``, applied by the facade after the argument checks: engine/ops/outparam.py) and the
in-place ones (``torch.sin_(x)``: the tensor's own in-place method)."""

from __future__ import annotations

from typing import Any

from engine.tensor import Tensor

# The function forms that take ``out=`` (PyTorch's own list is longer: these are the ones courses write).
OUT_FORMS = frozenset(
    [
        "add",
        "sub",
        "subtract",
        "mul",
        "multiply",
        "div",
        "divide",
        "true_divide",
        "matmul",
        "mm",
        "bmm",
        "mv",
        "dot",
        "addmm",
        "pow",
        "exp",
        "log",
        "log2",
        "sqrt",
        "rsqrt",
        "abs",
        "neg",
        "sin",
        "cos",
        "tan",
        "tanh",
        "sigmoid",
        "clamp",
        "floor",
        "ceil",
        "round",
        "sign",
        "reciprocal",
        "square",
        "maximum",
        "minimum",
        "remainder",
        "fmod",
        "cat",
        "stack",
        "sum",
        "mean",
        "prod",
        "cumsum",
        "zeros",
        "ones",
        "rand",
        "randn",
        "arange",
        "linspace",
    ]
)


# torch.sin_(x) and the other in-place function forms PyTorch's namespace has: the tensor's own in-place method.
INPLACE_FUNCTIONS = [
    "abs_",
    "ceil_",
    "cos_",
    "erf_",
    "exp2_",
    "exp_",
    "floor_",
    "log1p_",
    "log2_",
    "log_",
    "neg_",
    "reciprocal_",
    "relu_",
    "round_",
    "rsqrt_",
    "sigmoid_",
    "sin_",
    "sqrt_",
    "tan_",
    "tanh_",
]


def inplace_function(name: str) -> Any:
    """``torch.<name>(x, ...)``: the tensor's own in-place method, refusing anything but a tensor as PyTorch does."""
    method = getattr(Tensor, name)

    def inplace(input: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        return method(input, *args, **kwargs)

    inplace.__name__ = inplace.__qualname__ = name
    return inplace

"""The sandbox's ``numpy``: the functions courses use to make data and check results, each a wrapper that
unwraps our arrays (``engine.ndarray``), asks the run's budget for the size of the result before numpy computes
it, and wraps what numpy returns. The real module is never reachable: no ``np.load``, ``np.lib``, ``frombuffer``,
object or string dtypes or callables; ``out=`` only into the learner's own arrays; ``set_printoptions`` per run.

Example::

    >>> np = make_numpy(Budget())
    >>> np.linspace(0, 1, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> np.zeros(10**10)
    Traceback (most recent call last):
    LimitExceeded: a tensor of 10000000000 elements is over the limit of 4,194,304 elements per tensor
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.ndarray import (
    array_of,
    broadcast_size,
    check,
    matmul_size,
    ndarray,
    np_dtype,
    printopts,
    prod,
    shape_arg,
    wrap,
)
from engine.ndarray.kinds import MODULE_TYPES, SCALAR_TYPES
from engine.ndarray.values import product_cost, unwrap_args, work_cost
from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace
from engine.stdlib.numpy_random import make_numpy_random

Sizer = Callable[[list[Any], dict[str, Any], int], int]


def _shape(v: Any) -> tuple[int, ...]:
    return v.shape if isinstance(v, (np.ndarray, np.generic)) else np.shape(v)


def _elementwise(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    return broadcast_size(*(_shape(a) for a in args if not isinstance(a, (str, np.dtype))))


def _inputs(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    return n  # at most as big as what came in (reductions, sorts, copies, joins)


def _matmul(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    if len(args) < 2:
        return 0
    size = matmul_size(_shape(args[0]), _shape(args[1]))
    check(size)
    product_cost(args[0], args[1])
    return size


def _dot(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    if len(args) < 2:
        return 0
    size = matmul_size(_shape(args[0]), _shape(args[1]), dot=True)
    check(size)
    product_cost(args[0], args[1])
    return size


def _outer(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    return prod(_shape(args[0])) * prod(_shape(args[1])) if len(args) >= 2 else 0


def _convolve(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    if len(args) < 2:
        return 0
    a, v = prod(_shape(args[0])), prod(_shape(args[1]))
    work_cost(a * v)  # every output element is a dot product of up to min(a, v) pairs
    return a + v


def _tile(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    reps = args[1] if len(args) > 1 else kwargs.get("reps", 1)
    return prod(_shape(args[0])) * (prod(reps) if isinstance(reps, (list, tuple)) else int(reps))


def _repeat(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    reps = np.asarray(args[1] if len(args) > 1 else kwargs.get("repeats", 1))
    size = prod(_shape(args[0]))
    return int(reps.sum()) * max(size // max(len(reps), 1), 1) if reps.ndim else int(reps) * size


def _meshgrid(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    return len(args) * prod(prod(_shape(a)) for a in args)


def _diag(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    shape = _shape(args[0])
    k = abs(int(args[1] if len(args) > 1 else kwargs.get("k", 0)))
    return (shape[0] + k) ** 2 if len(shape) == 1 else n


def _broadcast_to(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    shape = args[1] if len(args) > 1 else kwargs.get("shape", ())
    return prod(shape) if isinstance(shape, (list, tuple)) else int(shape)


def _like(args: list[Any], kwargs: dict[str, Any], n: int) -> int:
    shape = kwargs.get("shape")
    return prod(_shape(args[0])) if shape is None else prod(shape if isinstance(shape, tuple) else (shape,))


def _fn(name: str, sizer: Sizer, real: Callable[..., Any] | None = None) -> Callable[..., Any]:
    fn = real if real is not None else getattr(np, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        plain, named, n = unwrap_args(args, kwargs)
        check(n)
        check(sizer(plain, named, n))
        result = fn(*plain, **named)
        out = kwargs.get("out")
        return out if out is not None else wrap(result)  # numpy gives back the out= array itself

    call.__name__ = call.__qualname__ = name
    return call


_UNARY = [
    "abs",
    "absolute",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "cbrt",
    "square",
    "sign",
    "floor",
    "ceil",
    "rint",
    "trunc",
    "negative",
    "positive",
    "reciprocal",
    "isnan",
    "isinf",
    "isfinite",
    "logical_not",
    "degrees",
    "radians",
    "deg2rad",
    "rad2deg",
    "fabs",
    "signbit",
]
_BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "power",
    "float_power",
    "mod",
    "remainder",
    "fmod",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "where",
    "clip",
    "heaviside",
    "copysign",
    "isclose",
]
_REDUCING = [
    "sum",
    "mean",
    "std",
    "var",
    "max",
    "min",
    "amax",
    "amin",
    "prod",
    "argmax",
    "argmin",
    "median",
    "average",
    "any",
    "all",
    "cumsum",
    "cumprod",
    "sort",
    "argsort",
    "unique",
    "count_nonzero",
    "nonzero",
    "argwhere",
    "reshape",
    "ravel",
    "transpose",
    "squeeze",
    "expand_dims",
    "swapaxes",
    "moveaxis",
    "flip",
    "fliplr",
    "flipud",
    "rot90",
    "copy",
    "array_equal",
    "allclose",
    "trace",
    "diagonal",
    "concatenate",
    "stack",
    "vstack",
    "hstack",
    "column_stack",
    "dstack",
    "round",
    "around",
    "ptp",
    "nanmean",
    "nansum",
    "nanmax",
    "nanmin",
    "triu",
    "tril",
    "diff",
    "atleast_1d",
    "atleast_2d",
    "ndim",
    "size",
    "shape",
    "sign",
    "searchsorted",
]


def _arange(*args: Any, dtype: Any = None) -> Any:
    plain, named, _ = unwrap_args(args, {} if dtype is None else {"dtype": dtype})
    if not 1 <= len(plain) <= 3 or not all(isinstance(v, (int, float, np.generic)) for v in plain):
        return wrap(np.arange(*plain, **named))  # numpy's own error (no positional size to bound)
    start, stop, step = (0, plain[0], 1) if len(plain) == 1 else (*plain[:2], plain[2] if len(plain) > 2 else 1)
    if step != 0:
        try:
            check(max(math.ceil((stop - start) / step), 0))
        except (OverflowError, ValueError):
            pass  # infinite or NaN bounds: numpy refuses them before allocating
    return wrap(np.arange(*plain, **named))


def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False, **kw: Any) -> Any:
    plain, named, _ = unwrap_args((start, stop), kw)
    check(int(num) * broadcast_size(_shape(plain[0]), _shape(plain[1])))
    linspace: Any = np.linspace  # numpy's overloads cannot be told from unwrapped arguments
    return wrap(linspace(*plain, num=num, endpoint=endpoint, retstep=retstep, **named))


def _filled(kind: str) -> Callable[..., Any]:
    def make(shape: Any, *args: Any, **kwargs: Any) -> Any:
        dims = shape_arg(shape)
        plain, named, _ = unwrap_args(args, kwargs)
        fn = np.full if kind == "full" else np.ones if kind == "ones" else np.zeros  # empty: zeros (no stale memory)
        return wrap(fn(dims, *plain, **named))

    make.__name__ = make.__qualname__ = kind
    return make


def _eye(n: int, m: int | None = None, k: int = 0, dtype: Any = float) -> Any:
    check(int(n) * int(n if m is None else m))
    return wrap(np.eye(n, m, k, dtype=np_dtype(dtype)))


def _identity(n: int, dtype: Any = float) -> Any:
    return _eye(n, dtype=dtype)


def _array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Any:
    plain, named, n = unwrap_args((obj,), {} if dtype is None else {"dtype": dtype})
    check(n)
    if isinstance(obj, ndarray) and not copy and dtype is None:
        return obj
    return wrap(np.array(plain[0], copy=copy, ndmin=ndmin, **named))


def _asarray(obj: Any, dtype: Any = None) -> Any:
    if isinstance(obj, ndarray) and (dtype is None or np_dtype(dtype) == obj.dtype._d):
        return obj
    return _array(obj, dtype)


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    plain, named, n = unwrap_args((x,), {"axis": axis} if axis is not None else {})
    check(n)
    return wrap(np.linalg.norm(plain[0], ord=ord, keepdims=keepdims, **named))


def _members() -> dict[str, Any]:
    m: dict[str, Any] = {}
    for name in _UNARY + _BINARY:
        m[name] = _fn(name, _elementwise)
    for name in _REDUCING:
        m[name] = _fn(name, _inputs)
    m.update(
        matmul=_fn("matmul", _matmul),
        dot=_fn("dot", _dot),
        inner=_fn("inner", _dot),
        outer=_fn("outer", _outer),
        convolve=_fn("convolve", _convolve),
        correlate=_fn("correlate", _convolve),
        diag=_fn("diag", _diag),
        tile=_fn("tile", _tile),
        repeat=_fn("repeat", _repeat),
        meshgrid=_fn("meshgrid", _meshgrid),
        broadcast_to=_fn("broadcast_to", _broadcast_to),
        zeros_like=_fn("zeros_like", _like),
        ones_like=_fn("ones_like", _like),
        empty_like=_fn("empty_like", _like, np.zeros_like),
        full_like=_fn("full_like", _like),
        zeros=_filled("zeros"),
        ones=_filled("ones"),
        empty=_filled("empty"),
        full=_filled("full"),
        arange=_arange,
        linspace=_linspace,
        eye=_eye,
        identity=_identity,
        array=_array,
        asarray=_asarray,
        ndarray=ndarray,
        pi=math.pi,
        e=math.e,
        inf=math.inf,
        nan=math.nan,
        newaxis=None,
        set_printoptions=printopts.set_printoptions,
        get_printoptions=printopts.get_printoptions,
    )
    m["round_"] = m["round"]
    for name, target in MODULE_TYPES.items():
        m[name] = SCALAR_TYPES[np.dtype(target)]
    m["bool"] = m["bool_"]
    return m


_MEMBERS = _members()  # functions and immutable values only: every run gets its own namespace of them


def make_numpy(budget: Budget) -> SafeNamespace:
    """A fresh ``numpy`` for one run, with its own ``np.random`` (numpy's legacy MT19937 stream)."""
    printopts.reset()  # numpy's print options live in a ContextVar: no run starts with another's
    linalg = SafeNamespace("numpy.linalg", {"norm": _norm})
    members = {**_MEMBERS, "random": make_numpy_random(budget), "linalg": linalg, "__version__": np.__version__}
    return SafeNamespace("numpy", members)


__all__ = ["array_of", "make_numpy"]

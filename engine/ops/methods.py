"""The list of Tensor methods and operators, and the op each one runs (attached to ``Tensor`` by ``install``).

Example::

    >>> torch.tensor([1., 2.]).exp()      # Tensor.exp is ops.unary.exp
    tensor([2.7183, 7.3891])
"""

from __future__ import annotations

import builtins
import types
from typing import Any

import numpy as np

from engine.ops import (
    argcheck, arith, elementwise, indexing, inplace, linalg, nnops, ordering, pieces, reduce, shape, stats, unary,
)
from engine.ops.base import binary_operands, made


def _compare(fn: Any) -> Any:
    def op(a: Any, b: Any) -> Any:
        from engine.tensor import Tensor

        if not isinstance(b, (Tensor, int, float, bool)):
            return NotImplemented
        a2, b2 = binary_operands(a, b)
        return made(np.asarray(fn(a2._data, b2._data)))

    return op


def _bitwise(fn: Any) -> Any:
    """``&``, ``|``, ``^`` on bool and integer tensors (no gradient: they are not differentiable)."""

    def op(a: Any, b: Any) -> Any:
        from engine.tensor import Tensor

        if not isinstance(b, (Tensor, int, bool)):
            return NotImplemented
        a2, b2 = binary_operands(a, b)
        if a2._data.dtype.kind == "f":
            raise NotImplementedError(f'"{fn.__name__}_cpu" not implemented for \'{_type_name(a2)}\'')
        return made(np.asarray(fn(a2._data, b2._data)))

    return op


def _type_name(t: Any) -> str:
    from engine.tensor import _TYPE_NAMES

    return _TYPE_NAMES[t._data.dtype.name]


def _invert(a: Any) -> Any:
    if a._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return made(np.asarray(np.logical_not(a._data) if a._data.dtype == np.bool_ else np.invert(a._data)))


def _logical(fn: Any) -> Any:
    def op(a: Any, b: Any) -> Any:
        a2, b2 = binary_operands(a, b)
        return made(np.asarray(fn(a2._data, b2._data)))

    return op


def _inplace_binary(fn: Any) -> Any:
    def op(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        return inplace.apply_inplace(self, lambda x: fn(x, other, *args, **kwargs))

    return op


def _inplace_unary(fn: Any) -> Any:
    def op(self: Any, *args: Any, **kwargs: Any) -> Any:
        return inplace.apply_inplace(self, lambda x: fn(x, *args, **kwargs))

    return op


def _size_args(self: Any, *sizes: Any) -> Any:
    return shape.view(self, *sizes)


def _reflected(fn: Any) -> Any:
    def op(self: Any, other: Any) -> Any:
        from engine.tensor import Tensor

        if not isinstance(other, (Tensor, int, float, bool)):
            return NotImplemented
        return fn(other, self)

    return op


def _forward(fn: Any) -> Any:
    def op(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        from engine.tensor import Tensor

        if not isinstance(other, (Tensor, int, float, bool)):
            return NotImplemented
        return fn(self, other, *args, **kwargs)

    return op


def _normal_(self: Any, mean: float = 0.0, std: float = 1.0) -> Any:
    from engine import random

    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    return inplace.copy_(self, random.normal_fill(self.shape, mean, std, self.dtype))


_CPP_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool", "float64": "double", "float32": "float", "float16": "c10::Half"}


def _clamp_(self: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    """``x.clamp_(…)``; its cast check names the tensor's C++ type (``… output type long int``)."""
    from engine import dtypes
    from engine.ops.base import _promote
    from engine.tensor import Tensor

    dt = self.dtype
    for bound in (min, max):  # the result's dtype, worked out without computing it
        if isinstance(bound, Tensor):
            dt = _promote(Tensor._make(np.empty((1,) * self._data.ndim, dtype=dt._np)), bound)
        elif bound is not None:
            dt = dtypes.result_type(dt, bound)
    src, dst = np.dtype(dt._np), self._data.dtype
    if src != dst and not np.can_cast(src, dst, casting="same_kind"):
        from engine.tensor import _TYPE_NAMES

        raise RuntimeError(f"result type {_TYPE_NAMES[src.name]} can't be cast to the desired output type "
                           f"{_CPP_NAMES[dst.name]}")
    return inplace.apply_inplace(self, lambda x: unary.clamp(x, min, max))


def _copy_(self: Any, src: Any, non_blocking: bool = False) -> Any:
    """``x.copy_(src)``; a Python number is copied as a 0-d tensor (PyTorch wraps it)."""
    from engine.tensor import Tensor

    return inplace.copy_(self, src if isinstance(src, Tensor) else made(np.asarray(src, dtype=self._data.dtype)))


def _uniform_(self: Any, a: float = 0.0, b: float = 1.0) -> Any:
    from engine import random

    return inplace.copy_(self, random.uniform_fill(self.shape, a, b, self.dtype))


def _factories() -> Any:
    from engine.ops import factories

    return factories


def _numpy(t: Any, force: bool = False) -> Any:
    if t.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    raise NotImplementedError("numpy is not available here: use .tolist() or .item() to get Python values")


METHODS: dict[str, Any] = {
    # arithmetic and operators
    "add": arith.add, "sub": arith.sub, "mul": arith.mul, "div": arith.div,
    "pow": _forward(arith.pow), "neg": arith.neg, "reciprocal": arith.reciprocal,
    "__add__": _forward(arith.add), "__radd__": _forward(arith.add),
    "__sub__": _forward(arith.sub), "__rsub__": _forward(arith.rsub),
    "__mul__": _forward(arith.mul), "__rmul__": _forward(arith.mul),
    "__truediv__": _forward(arith.div), "__rtruediv__": _forward(arith.rdiv),
    "__floordiv__": _forward(arith.floor_divide), "__rfloordiv__": _reflected(arith.floor_divide),
    "__mod__": _forward(arith.remainder),
    "__pow__": _forward(arith.pow), "__rpow__": _forward(arith.rpow),
    "__neg__": arith.neg, "__pos__": lambda self: self, "__abs__": unary.abs,
    "__matmul__": _forward(linalg.matmul), "__rmatmul__": _reflected(linalg.matmul),
    "__eq__": _compare(np.equal), "__ne__": _compare(np.not_equal), "__lt__": _compare(np.less),
    "__le__": _compare(np.less_equal), "__gt__": _compare(np.greater), "__ge__": _compare(np.greater_equal),
    "eq": _compare(np.equal), "ne": _compare(np.not_equal), "lt": _compare(np.less), "le": _compare(np.less_equal),
    "gt": _compare(np.greater), "ge": _compare(np.greater_equal),
    "__and__": _bitwise(np.bitwise_and), "__or__": _bitwise(np.bitwise_or), "__xor__": _bitwise(np.bitwise_xor),
    "__rand__": _bitwise(np.bitwise_and), "__ror__": _bitwise(np.bitwise_or), "__invert__": _invert,
    "logical_and": _logical(np.logical_and), "logical_or": _logical(np.logical_or),
    "logical_not": lambda self: made(np.asarray(np.logical_not(self._data))),
    "__getitem__": indexing.getitem, "__setitem__": indexing.setitem,
    # elementwise
    "exp": unary.exp, "log": unary.log, "sqrt": unary.sqrt, "tanh": unary.tanh, "sigmoid": unary.sigmoid,
    "relu": unary.relu, "abs": unary.abs, "sin": unary.sin, "cos": unary.cos, "clamp": unary.clamp,
    "clip": unary.clamp, "square": lambda self: arith.pow(self, 2),
    "clamp_min": lambda self, m: unary.clamp(self, min=m), "clamp_max": lambda self, m: unary.clamp(self, max=m),
    # reductions
    "sum": reduce.sum, "mean": reduce.mean, "max": reduce.max, "min": reduce.min, "prod": reduce.prod,
    "argmax": reduce.argmax, "argmin": reduce.argmin, "amax": pieces.amax, "amin": pieces.amin,
    # pieces
    "split": pieces.split, "chunk": pieces.chunk, "unbind": pieces.unbind, "gather": pieces.gather,
    # order and position
    "sort": ordering.sort, "argsort": ordering.argsort, "topk": ordering.topk, "cumsum": ordering.cumsum,
    "flip": ordering.flip, "triu": ordering.triu, "tril": ordering.tril, "diag": ordering.diag,
    "outer": ordering.outer, "nonzero": ordering.nonzero, "count_nonzero": ordering.count_nonzero,
    "unique": ordering.unique,
    # more elementwise
    "log1p": elementwise.log1p, "rsqrt": elementwise.rsqrt, "tan": elementwise.tan, "log2": elementwise.log2,
    "exp2": elementwise.exp2,
    # linear algebra
    "matmul": linalg.matmul, "mm": linalg.mm, "bmm": linalg.bmm, "mv": linalg.mv, "dot": linalg.dot, "t": shape.t,
    "T": property(shape.T), "mT": property(lambda self: shape.transpose(self, -2, -1)),
    # shape
    "reshape": shape.reshape, "view": shape.view, "flatten": shape.flatten, "transpose": shape.transpose,
    "permute": shape.permute, "squeeze": shape.squeeze, "unsqueeze": shape.unsqueeze, "expand": shape.expand,
    "clone": shape.clone, "contiguous": shape.contiguous, "to_dtype": None,
    "view_as": lambda self, other: shape.view(self, other.shape),
    "reshape_as": lambda self, o: shape.reshape(self, o.shape),
    "expand_as": lambda self, other: shape.expand(self, other.shape),
    "softmax": nnops.softmax, "log_softmax": nnops.log_softmax,
    "std": stats.std, "var": stats.var, "norm": stats.norm, "logsumexp": stats.logsumexp, "all": stats.all,
    "any": stats.any, "sign": stats.sign, "round": stats.round, "floor": stats.floor, "ceil": stats.ceil,
    "masked_fill": stats.masked_fill, "repeat": stats.repeat,
    "maximum": arith.maximum, "minimum": arith.minimum,
    "new_tensor": lambda self, data, dtype=None, requires_grad=False: _factories().tensor(
        data, dtype=dtype or self.dtype, requires_grad=requires_grad),
    "new_zeros": lambda self, *size, dtype=None: _factories().zeros(
        _factories()._size(size, "new_zeros"), dtype=dtype or self.dtype),
    "new_ones": lambda self, *size, dtype=None: _factories().ones(
        _factories()._size(size, "new_ones"), dtype=dtype or self.dtype),
    "numpy": _numpy,
    # in place
    "add_": _inplace_binary(arith.add), "sub_": _inplace_binary(arith.sub),
    "mul_": _inplace_binary(arith.mul), "div_": _inplace_binary(arith.div),
    "pow_": _inplace_binary(arith.pow),
    "__iadd__": _forward(_inplace_binary(arith.add)), "__isub__": _forward(_inplace_binary(arith.sub)),
    "__imul__": _forward(_inplace_binary(arith.mul)), "__itruediv__": _forward(_inplace_binary(arith.div)),
    "masked_fill_": _inplace_binary(stats.masked_fill),
    "relu_": _inplace_unary(unary.relu), "exp_": _inplace_unary(unary.exp),
    "neg_": _inplace_unary(arith.neg),
    "zero_": inplace.zero_, "fill_": inplace.fill_, "copy_": _copy_, "clamp_": _clamp_,
    "normal_": _normal_, "uniform_": _uniform_,
    "bernoulli_": lambda self, p=0.5, generator=None: _factories().bernoulli_(self, p, generator),
    "exponential_": lambda self, lambd=1.0, generator=None: _factories().exponential_(self, lambd, generator),
    "random_": lambda self, *a, generator=None: _factories().random_(self, *a, generator=generator),
    "multinomial": lambda self, n, replacement=False, generator=None: _factories().multinomial(
        self, n, replacement, generator),
}


KEEPDIMS = ("sum", "mean", "max", "min", "prod", "amax", "amin", "argmax", "argmin", "std", "var", "norm",
            "logsumexp", "all", "any", "cat", "stack", "softmax", "log_softmax", "cumsum", "sort", "argsort",
            "squeeze", "unsqueeze", "split", "chunk", "unbind", "count_nonzero", "size")


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


for _name in KEEPDIMS:
    if _name in METHODS:
        METHODS[_name] = keepdims_alias(METHODS[_name])


for _name in argcheck.SIGNATURES:  # PyTorch's argument parser refuses wrongly typed arguments first
    if _name in METHODS:
        METHODS[_name] = argcheck.signed(_name, METHODS[_name], method=True)


def _no_arguments(name: str, fn: Any) -> Any:
    """A method PyTorch declares without parameters (``x.exp()``): any argument is refused in CPython's words."""

    def op(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
        if args:
            raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return fn(self)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = fn.__doc__
    return op


_NO_ARGUMENTS = ("neg reciprocal logical_not exp log sqrt tanh sigmoid relu abs sin cos square log1p rsqrt tan log2 "
                 "exp2 t sign floor ceil relu_ exp_ neg_ zero_").split()
for _name in _NO_ARGUMENTS:
    METHODS[_name] = _no_arguments(_name, METHODS[_name])


def _split(self: Any, split_size: Any, dim: int = 0) -> Any:
    """``x.split(2)`` / ``x.split([1, 3])``: PyTorch's Python ``Tensor.split`` (its parameter is ``split_size``)."""
    return pieces.split(self, split_size, dim)


METHODS["split"] = _split

# methods PyTorch writes in Python: Python's own arity errors name them "Tensor.split()"
_PYTHON_METHODS = ("split", "unique", "norm")


def _as_method(name: str, fn: Any) -> Any:
    """``fn`` under the name Python's argument errors give it (``<lambda>``/``_named.<locals>.op`` would leak)."""
    if not isinstance(fn, types.FunctionType):
        return fn
    qualname = f"Tensor.{name}" if name in _PYTHON_METHODS else name
    if fn.__qualname__ == qualname:
        return fn
    if "<" in fn.__qualname__ or fn.__name__.startswith("_"):  # a closure or lambda of its own: rename it
        fn.__name__ = fn.__qualname__ = qualname
        return fn
    copy = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__, copy.__doc__, copy.__qualname__ = fn.__kwdefaults__, fn.__doc__, qualname
    return copy


# methods the Tensor class defines itself, checked here as PyTorch checks them
_CLASS_NO_ARGUMENTS = "dim item tolist numel detach detach_ retain_grad is_floating_point element_size".split()
_CLASS_SIGNED = "float double long int bool cpu is_contiguous size requires_grad_ to".split()


def _typed(type_: Any, names: dict[str, str]) -> Any:
    """``x.type()`` / ``x.type('torch.DoubleTensor')`` / ``x.type(torch.float64)``, refused as PyTorch refuses."""
    from engine import dtypes

    def type(self: Any, dtype: Any = None, non_blocking: bool = False) -> Any:  # noqa: A001
        if dtype is None or isinstance(dtype, dtypes.dtype):
            return type_(self, dtype)
        if isinstance(dtype, str) and dtype in names:
            return self.to(dtypes.from_numpy(np.dtype(names[dtype])))
        if isinstance(dtype, (str, builtins.type)):
            raise ValueError(f"invalid type: '{dtype if isinstance(dtype, str) else dtype.__name__}'")
        raise TypeError("dtype must be a type, str, or dtype object")

    return type


def install(cls: type) -> None:
    for name, fn in METHODS.items():
        if fn is not None:
            setattr(cls, name, _as_method(name, fn))
    for name in _CLASS_NO_ARGUMENTS:
        setattr(cls, name, _no_arguments(name, cls.__dict__[name]))
    for name in _CLASS_SIGNED:
        setattr(cls, name, argcheck.signed(name, cls.__dict__[name], method=True))
    from engine.tensor import _TYPE_NAMES

    cls.type = _typed(cls.__dict__["type"], {f"torch.{v}Tensor": k for k, v in _TYPE_NAMES.items()})

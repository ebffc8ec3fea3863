"""numpy's scalars (``a.sum()``, ``a[0]``, ``np.float32(1.5)``) as user code sees them: a stand-in holding the
real scalar privately. It prints, formats and computes exactly as the real one (``np.float32(1.5)`` in a repr,
``1.5`` in a print, ``f"{s:.3f}"``), converts with ``float()``/``int()``/``round()``, and offers ``item()``,
``tolist()``, ``dtype``, ``shape``, ``ndim``, ``size`` and ``astype`` only.

Example::

    >>> s = scalar_of(np.float32(1.5))
    >>> repr(s), str(s), f"{s:.3f}"
    ('np.float32(1.5)', '1.5', '1.500')
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.ndarray.array import broadcast_size
from engine.ndarray.kinds import NAMES, SCALAR_DTYPES, SCALAR_TYPES, dtype_of, np_dtype
from engine.ndarray.values import HOST, MAKERS, check, unwrap, wrap
from engine.tensor import Tensor


def _binary(fn: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Any, Any], Any]:
    def op(self: Scalar, other: Any) -> Any:
        if isinstance(other, Tensor):  # with a tensor, a numpy scalar acts as the Python number it holds (PyTorch)
            value = self._v.item()
            return fn(other, value) if reflected else fn(value, other)
        o, _ = unwrap(other)
        check(broadcast_size(np.shape(o)))
        return wrap(fn(o, self._v) if reflected else fn(self._v, o))

    return op


class Scalar:
    """A numpy scalar: ``np.float32(1.5)``, ``np.int64(3)``, ``np.True_``. Each dtype has its subclass, named and
    printed as numpy's (``np.float32`` is ``<class 'numpy.float32'>``); calling it converts, as numpy's does."""

    __slots__ = ("_v",)
    _np_type: Any = None

    def __new__(cls, value: Any = 0) -> Any:
        if cls._np_type is None:
            raise TypeError("numpy scalars are made by np.float32(x), np.int64(x), ... here")
        return convert(cls._np_type, value)

    def __repr__(self) -> str:
        return repr(self._v)

    def __str__(self) -> str:
        return str(self._v)

    def __format__(self, spec: str) -> str:
        return format(self._v, spec)

    def __hash__(self) -> int:
        return hash(self._v)

    @property
    def dtype(self) -> Any:
        return dtype_of(self._v.dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return ()

    @property
    def ndim(self) -> int:
        return 0

    @property
    def size(self) -> int:
        return 1

    @property
    def itemsize(self) -> int:
        return self._v.itemsize

    @property
    def real(self) -> Any:
        return self

    def item(self) -> Any:
        return self._v.item()

    def tolist(self) -> Any:
        return self._v.item()

    def astype(self, dtype: Any) -> Any:
        return wrap(self._v.astype(np_dtype(dtype)))

    def is_integer(self) -> bool:
        return bool(self._v.is_integer())

    __add__ = _binary(operator.add)
    __radd__ = _binary(operator.add, True)
    __sub__ = _binary(operator.sub)
    __rsub__ = _binary(operator.sub, True)
    __mul__ = _binary(operator.mul)
    __rmul__ = _binary(operator.mul, True)
    __truediv__ = _binary(operator.truediv)
    __rtruediv__ = _binary(operator.truediv, True)
    __floordiv__ = _binary(operator.floordiv)
    __rfloordiv__ = _binary(operator.floordiv, True)
    __mod__ = _binary(operator.mod)
    __rmod__ = _binary(operator.mod, True)
    __pow__ = _binary(operator.pow)
    __rpow__ = _binary(operator.pow, True)
    __and__ = _binary(operator.and_)
    __rand__ = _binary(operator.and_, True)
    __or__ = _binary(operator.or_)
    __ror__ = _binary(operator.or_, True)
    __eq__ = _binary(operator.eq)  # type: ignore[assignment]
    __ne__ = _binary(operator.ne)  # type: ignore[assignment]
    __lt__ = _binary(operator.lt)
    __le__ = _binary(operator.le)
    __gt__ = _binary(operator.gt)
    __ge__ = _binary(operator.ge)

    def __neg__(self) -> Any:
        return wrap(-self._v)

    def __pos__(self) -> Any:
        return wrap(+self._v)

    def __abs__(self) -> Any:
        return wrap(abs(self._v))

    def __invert__(self) -> Any:
        return wrap(~self._v)

    def __bool__(self) -> bool:
        return bool(self._v)

    def __float__(self) -> float:
        return float(self._v)

    def __int__(self) -> int:
        return int(self._v)

    def __index__(self) -> int:
        return operator.index(self._v)

    def __round__(self, ndigits: int | None = None) -> Any:
        return wrap(round(self._v, ndigits)) if ndigits is not None else round(self._v)

    def __trunc__(self) -> int:
        return math.trunc(self._v)

    def __floor__(self) -> int:
        return math.floor(self._v)

    def __ceil__(self) -> int:
        return math.ceil(self._v)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:  # host code only
        return np.asarray(self._v, dtype=dtype)


def scalar_of(value: np.generic) -> Scalar:
    out: Scalar = object.__new__(SCALAR_TYPES[value.dtype])
    out._v = value
    return out


def _host(value: Scalar) -> np.generic:
    return value._v


def convert(kind: type, value: Any) -> Any:
    """``np.float32(value)``: a scalar from a number, an array (cast) from an array or a list."""
    v, n = unwrap(value)
    check(n)
    return wrap(kind(v))


def _scalar_class(name: str) -> type:
    d = np.dtype(name)
    # module "numpy" and the marker: printed <class 'numpy.float32'>, and user code may read its public names
    cls = type(d.type.__name__, (Scalar,), {"__slots__": (), "__module__": "numpy", "_gt_numpy": True})
    cls._np_type = d.type
    return cls


for _name in NAMES:
    _cls = _scalar_class(_name)
    SCALAR_TYPES[np.dtype(_name)] = _cls
    SCALAR_DTYPES[_cls] = np.dtype(_name)
    HOST[_cls] = _host
MAKERS["scalar"] = scalar_of
MAKERS["dtype"] = dtype_of

__all__ = ["Scalar", "convert", "scalar_of"]

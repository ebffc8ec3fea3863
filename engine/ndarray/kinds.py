"""numpy's dtypes and scalar types as user code sees them: stand-ins that print and compare as numpy 2's.

``np.float32`` is our scalar class of that dtype (``engine.ndarray.scalar``: ``np.float32(1.5)`` makes one, and
it is a dtype for ``dtype=``); ``a.dtype`` is a ``DType`` (``dtype('float32')``, prints ``float32``, equal to
``np.float32`` and to ``'float32'``). Only numbers and bools exist here: object, string, bytes, void, datetime and
complex dtypes are refused (an object array would hold Python objects numpy reaches into; the others print and
convert in ways no course needs). Both are immutable and shared by every run.

Example::

    >>> np_dtype("float32")
    dtype('float32')
    >>> DType(np.dtype("float64")) == "float64"
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
)
ALLOWED = frozenset(np.dtype(n) for n in NAMES)


def unsupported(dt: Any) -> TypeError:
    return TypeError(f"numpy dtype '{dt}' is not supported here (only bool, integer and float dtypes)")


class DType:
    """``a.dtype``: ``dtype('float32')``, printed ``float32``."""

    __slots__ = ("_d",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("numpy.dtype(...) is not available here: use np.float32, np.int64, ... or a.dtype")

    @staticmethod
    def _of(d: np.dtype) -> DType:
        out = object.__new__(_dtype_class(d))
        object.__setattr__(out, "_d", d)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("numpy dtypes cannot be changed")

    def __repr__(self) -> str:
        return repr(self._d)

    def __str__(self) -> str:
        return str(self._d)

    def __eq__(self, other: Any) -> bool:
        try:
            return bool(self._d == np_dtype(other))
        except TypeError:
            return False

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._d.name)

    @property
    def name(self) -> str:
        return self._d.name

    @property
    def itemsize(self) -> int:
        return self._d.itemsize

    @property
    def kind(self) -> str:
        return self._d.kind

    @property
    def char(self) -> str:
        return self._d.char

    @property
    def type(self) -> type:
        return SCALAR_TYPES[self._d]


# our scalar class of each dtype (np.float32 is one: engine/ndarray/scalar.py fills this) and back
SCALAR_TYPES: dict[np.dtype, type] = {}
SCALAR_DTYPES: dict[type, np.dtype] = {}


def _dtype_class(d: np.dtype) -> type:
    """``type(a.dtype)``: numpy 2's class of that dtype (``<class 'numpy.dtypes.Float64DType'>``)."""
    return type(type(d).__name__, (DType,), {"__slots__": (), "__module__": "numpy.dtypes", "_gt_numpy": True})


DTYPES: dict[np.dtype, DType] = {np.dtype(n): DType._of(np.dtype(n)) for n in NAMES}

# numpy's names for its scalar types, as attributes of the module (np.float_ and friends are gone in numpy 2)
MODULE_TYPES = {
    "bool_": "bool",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "half": "float16",
    "single": "float32",
    "double": "float64",
    "intp": "int64",
    "int_": "int64",
    "longlong": "int64",
    "ubyte": "uint8",
    "byte": "int8",
    "short": "int16",
    "intc": "int32",
}


def np_dtype(value: Any) -> np.dtype:
    """The real numpy dtype ``value`` names (a dtype, a scalar type, a name such as ``'float32'``, ``float``,
    ``int``, ``bool``), refused unless it is a number or bool dtype."""
    if isinstance(value, DType):
        return value._d
    if isinstance(value, type) and value in SCALAR_DTYPES:
        return SCALAR_DTYPES[value]
    if value is float or value is int or value is bool:
        d = np.dtype(value)
    elif isinstance(value, str):
        if len(value) > 16:
            raise unsupported(value[:16] + "...")
        try:
            d = np.dtype(value)
        except TypeError:
            raise TypeError(f"data type '{value}' not understood") from None
    else:
        raise TypeError(f"Cannot interpret '{value!r}' as a data type")
    if d not in ALLOWED:
        raise unsupported(d)
    return d


def dtype_of(d: np.dtype) -> DType:
    """The stand-in of an allowed numpy dtype."""
    out = DTYPES.get(d)
    if out is None:
        raise unsupported(d)
    return out


__all__ = ["ALLOWED", "DType", "MODULE_TYPES", "SCALAR_DTYPES", "SCALAR_TYPES", "dtype_of", "np_dtype"]

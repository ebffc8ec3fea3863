"""PyTorch's dtypes as small named objects over numpy dtypes.

Example::

    >>> torch.float32
    torch.float32
    >>> torch.tensor([1, 2]).dtype
    torch.int64
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.run_state import state


class dtype:
    """A tensor element type, printed as ``torch.float32``. The nine dtypes are made once per process and shared by
    every run, so they are read-only: no instance can be made from user code (``torch.dtype(...)`` is PyTorch's
    ``TypeError``), no attribute can be set, and the class has no ``__init__`` that could remake one."""

    __slots__ = ("_name", "_np", "is_floating_point", "itemsize", "_number")
    _name: str
    _np: np.dtype[Any]
    is_floating_point: bool
    itemsize: int
    _number: int

    def __new__(cls, *args: Any, **kwargs: Any) -> dtype:
        raise TypeError("cannot create 'torch.dtype' instances")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.dtype' objects is not writable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.dtype' objects is not writable")

    def __hash__(self) -> int:  # the same in every process (the default would be its memory address)
        return self._number

    def __reduce__(self) -> tuple[Any, tuple[str]]:  # copy.deepcopy / pickle give back the one dtype of its name
        return (_named, (self._name,))

    @property
    def is_complex(self) -> bool:
        return False

    @property
    def is_signed(self) -> bool:
        return self._name != "uint8" and self._name != "bool"

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    __str__ = __repr__


def _make(name: str, np_dtype: type, is_floating_point: bool) -> dtype:
    made = object.__new__(dtype)
    for key, value in (
        ("_name", name),
        ("_np", np.dtype(np_dtype)),
        ("is_floating_point", is_floating_point),
        ("itemsize", int(np.dtype(np_dtype).itemsize)),
        ("_number", 0x7D000 + len(_MADE)),
    ):
        object.__setattr__(made, key, value)
    _MADE[name] = made
    return made


_MADE: dict[str, dtype] = {}
float32 = _make("float32", np.float32, True)
float64 = _make("float64", np.float64, True)
float16 = _make("float16", np.float16, True)
int64 = _make("int64", np.int64, False)
int32 = _make("int32", np.int32, False)
int16 = _make("int16", np.int16, False)
int8 = _make("int8", np.int8, False)
uint8 = _make("uint8", np.uint8, False)
bool_ = _make("bool", np.bool_, False)


def _named(name: str) -> dtype:
    return _MADE[name]


ALL = (float32, float64, float16, int64, int32, int16, int8, uint8, bool_)
_BY_NP = {d._np: d for d in ALL}

# Aliases exposed in the torch namespace: torch.float is torch.float32, torch.long is torch.int64, ...
ALIASES = {
    "float32": float32,
    "float": float32,
    "float64": float64,
    "double": float64,
    "float16": float16,
    "half": float16,
    "int64": int64,
    "long": int64,
    "int32": int32,
    "int": int32,
    "int16": int16,
    "short": int16,
    "int8": int8,
    "uint8": uint8,
    "bool": bool_,
}


def from_numpy(np_dtype: np.dtype) -> dtype:
    """The engine dtype of a numpy dtype (float32 for anything unknown)."""
    return _BY_NP.get(np.dtype(np_dtype), float32)


def promote(a: dtype, b: dtype) -> dtype:
    """Result dtype of a binary op between two tensors (PyTorch's category-aware promotion)."""
    if a is b:
        return a
    return from_numpy(np.promote_types(a._np, b._np))


def get_default_dtype() -> dtype:
    """``torch.get_default_dtype()``: float32 unless this run called ``torch.set_default_dtype``."""
    return getattr(state(), "default_float", None) or float32


def set_default_dtype(d: dtype) -> None:
    """``torch.set_default_dtype(torch.float64)``: the dtype of new float tensors in this run."""
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    state().default_float = d


def default_np() -> Any:
    """The numpy dtype of new float tensors (float32 by default)."""
    return get_default_dtype()._np


def result_type(t: dtype, scalar: object) -> dtype:
    """Result dtype of tensor ``op`` Python number: a number only raises the category (int → float), never the
    width."""
    if isinstance(scalar, bool):
        return t
    if isinstance(scalar, float) and not t.is_floating_point:
        return get_default_dtype()
    if isinstance(scalar, int) and t is bool_:
        return int64
    return t


# the C++ names PyTorch's kernel messages give dtypes ("expected m1 and m2 to have the same dtype … float != double")
C_NAMES = {
    "float32": "float",
    "float64": "double",
    "int64": "long int",
    "int32": "int",
    "float16": "c10::Half",
    "bool": "bool",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
}

TYPE_NAMES = {  # the legacy type names: torch.FloatTensor, x.type()
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "bool": "Bool",
}

"""Crossing the line between user code and real numpy: ``unwrap`` turns what user code passes (numbers, lists,
our arrays and scalars) into what numpy takes, counting how many elements that is; ``wrap`` turns what numpy
returns into our stand-ins, refusing any dtype but bool, integers and floats. The run's budget is asked before
numpy allocates (``check``) and charged a step cost per array made (``made``).

Example::

    >>> data, n = unwrap([[1, 2], [3, 4]])
    >>> n
    4
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ndarray.kinds import ALLOWED, SCALAR_DTYPES, DType, np_dtype, unsupported
from engine.run_state import state
from engine.tensor import Tensor

ARRAY_STEPS = 8  # steps each array made costs, as each tensor made does (engine/sandbox/meter.py)
_PLAIN = (int, float, bool)


def check(numel: int) -> None:
    """Ask the run's budget before numpy allocates an array of ``numel`` elements."""
    budget = state().budget
    if budget is not None:
        budget.check_alloc(numel)


_BLAS = (np.dtype(np.float32), np.dtype(np.float64))
PRODUCT_WORK_PER_STEP = 1000  # multiply-adds of a product numpy does without BLAS, per step of the budget


def product_cost(a: Any, b: Any) -> None:
    """Charge a matrix product's work before numpy does it when numpy has no BLAS for it (ints, float16, bool):
    its own loop takes 1.4 s (int64) to 5 s (float16) for one 1000 x 1000 x 1000 product in one C call, which the
    clock cannot stop, so a product that big ends at the step limit instead."""
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da in _BLAS and db in _BLAS:
        return
    sa, sb = np.shape(a), np.shape(b)
    work = prod(sa) * (sb[-1] if len(sb) > 1 else 1)
    budget = state().budget
    if budget is not None and work > PRODUCT_WORK_PER_STEP:
        budget.charge(work // PRODUCT_WORK_PER_STEP)


def work_cost(work: int) -> None:
    """Charge ``work`` multiply-adds that one numpy call is about to do (``np.convolve`` of two long vectors) before
    it does them: the clock cannot stop a C call, so work that big ends at the step limit instead."""
    budget = state().budget
    if budget is not None and work > PRODUCT_WORK_PER_STEP:
        budget.charge(work // PRODUCT_WORK_PER_STEP)


def made(arr: np.ndarray) -> None:
    """An array was made: charge its steps and count its buffer alive until it is freed."""
    budget = state().budget
    if budget is None:
        return
    charge = getattr(budget, "charge", None)
    if charge is not None:
        charge(ARRAY_STEPS)
    track = getattr(budget, "track", None)
    if track is not None:
        track(arr, arr.size)


def prod(shape: Any) -> int:
    if type(shape) is tuple:
        return math.prod(shape)
    return math.prod(int(s) for s in shape)


def shape_arg(shape: Any) -> tuple[int, ...]:
    """A shape as user code writes it (``3``, ``(2, 3)``, ``[2, 3]``), checked against the budget."""
    if isinstance(shape, (list, tuple)):
        if len(shape) > 64:
            raise ValueError(f"maximum supported dimension for an ndarray is currently 64, found {len(shape)}")
        dims = tuple(_index(s) for s in shape)
    else:
        dims = (_index(shape),)
    for d in dims:
        if d < 0:
            raise ValueError("negative dimensions are not allowed")
    check(prod(dims))
    return dims


def _index(value: Any) -> int:
    from_scalar = getattr(value, "_v", None)
    if from_scalar is not None and isinstance(from_scalar, np.integer):
        return int(from_scalar)
    if isinstance(value, int):
        return int(value)
    raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")


class _Counter:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


def unwrap(value: Any) -> tuple[Any, int]:
    """``value`` as numpy takes it, and the elements it holds (our arrays count their size, however often they
    occur in a list). Anything that is not a number, a list or tuple of them, an array or a tensor is refused:
    numpy would make an object array of it."""
    counter = _Counter()
    out = _unwrap(value, counter, 0)
    return out, counter.n


def _unwrap(value: Any, counter: _Counter, depth: int) -> Any:
    t = type(value)
    if t in _PLAIN:
        counter.n += 1
        return value
    host = HOST.get(t)
    if host is not None:
        arr = host(value)
        counter.n += arr.size
        return arr
    if t is list or t is tuple:
        if depth > 64:
            raise ValueError("setting an array element with a sequence: nested too deep")
        items = [_unwrap(v, counter, depth + 1) for v in value]
        return items if t is list else tuple(items)
    if isinstance(value, Tensor):
        if value.requires_grad and state().grad_enabled:  # numpy reads it by Tensor.numpy(), as in PyTorch
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        counter.n += value._data.size
        return value._data
    if isinstance(value, DType) or (t is type and (value in SCALAR_DTYPES or value in (int, float, bool))):
        return np_dtype(value)
    if value is None:
        counter.n += 1
        return None
    raise TypeError(f"numpy here takes numbers, lists, tuples and arrays, not '{t.__name__}'")


def unwrap_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any], int]:
    """Positional and keyword arguments as numpy takes them, and the elements the biggest of them holds (a list
    numpy turns into one array: ``np.concatenate([a, b])`` holds both); ``dtype=`` is checked. Short strings pass
    (``order='C'``, ``'float32'``): numpy reads them as names, and a dtype they name is checked on the way out."""
    total = 0
    plain: list[Any] = []
    for a in args:
        if isinstance(a, str) and len(a) <= 16:  # a.astype('float32'), np.zeros(3, 'int64'): checked on the way out
            plain.append(a)
            continue
        v, n = unwrap(a)
        plain.append(v)
        total = max(total, n)
    named: dict[str, Any] = {}
    for k, a in kwargs.items():
        if k == "dtype":
            named[k] = None if a is None else np_dtype(a)
        elif k == "out":  # np.add(a, 1, out=a): only into arrays of the learner's own
            named[k] = _out(a)
        elif isinstance(a, str) and len(a) <= 16:
            named[k] = a
        else:
            v, n = unwrap(a)
            named[k] = v
            total = max(total, n)
    return plain, named, total


def _out(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is tuple:
        return tuple(_out(v) for v in value)
    host = HOST.get(type(value))
    if host is None or not isinstance(host(value), np.ndarray):
        raise TypeError("return arrays must be of ArrayType")
    return host(value)


# type -> the real array behind it (filled in by the array module: our ndarray and scalar classes)
HOST: dict[type, Any] = {}
# the makers of our stand-ins (filled in by the array module)
MAKERS: dict[str, Any] = {}


def wrap(value: Any) -> Any:
    """What numpy returned, as user code may hold it: our ndarray, our scalar, a Python number or a tuple."""
    t = type(value)
    if t is np.ndarray:
        if value.dtype not in ALLOWED:
            raise unsupported(value.dtype)
        made(value)
        return MAKERS["array"](value)
    if isinstance(value, np.generic):
        if value.dtype not in ALLOWED:
            raise unsupported(value.dtype)
        return MAKERS["scalar"](value)
    if t in _PLAIN or value is None:
        return value
    if t is tuple or t is list:
        return t(wrap(v) for v in value)
    if isinstance(value, np.dtype):
        return MAKERS["dtype"](value)
    raise TypeError(f"numpy returned a '{t.__name__}', which is not available here")


__all__ = [
    "ARRAY_STEPS",
    "HOST",
    "MAKERS",
    "check",
    "made",
    "prod",
    "product_cost",
    "shape_arg",
    "unwrap",
    "unwrap_args",
    "wrap",
]

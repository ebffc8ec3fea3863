"""``numpy.ndarray`` as user code sees it: a stand-in holding a real numpy array privately and exposing a vetted
set of attributes and methods (no ``base``, ``ctypes``, ``data``, ``tofile``, ``__array_interface__``, ...: user
code only ever reads public names, and this class defines no others). Results come back as our arrays and
scalars (``engine.ndarray.scalar``), printed exactly as numpy 2 prints them, since numpy itself prints them.

Every result's size is checked against the run's budget before numpy allocates it, and each array made costs
steps (``engine.ndarray.values``). ``t.numpy()`` and ``torch.from_numpy(a)`` share the buffer
(``engine/ops/numpy_bridge.py``): an in-place change to either shows in the other, as in PyTorch.

Example::

    >>> a = array_of(np.arange(6).reshape(2, 3))
    >>> a.T.shape, a.sum()
    ((3, 2), np.int64(15))
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from engine.ndarray.indexing import index_key, result_size
from engine.ndarray.kinds import dtype_of, np_dtype
from engine.ndarray.values import HOST, MAKERS, check, prod, product_cost, shape_arg, unwrap, unwrap_args, wrap
from engine.run_state import state
from engine.tensor import Tensor

_NUMBERS = (int, float, bool)


def broadcast_size(*shapes: tuple[int, ...]) -> int:
    """Elements of the broadcast result of ``shapes`` (0 when they don't broadcast: numpy refuses by itself)."""
    if len(shapes) == 2:  # the common case, without numpy's general machinery: equal shapes, or a number
        a, b = shapes
        if a == b or not b:
            return prod(a)
        if not a:
            return prod(b)
    try:
        return prod(np.broadcast_shapes(*shapes))
    except ValueError:
        return 0


def matmul_size(sa: tuple[int, ...], sb: tuple[int, ...], dot: bool = False) -> int:
    """Elements of ``a @ b`` (or ``np.dot(a, b)``) for those shapes, before computing it."""
    if not sa or not sb:
        return prod(sa) * prod(sb)
    if dot:
        return prod(sa[:-1]) * (prod(sb[:-2]) * sb[-1] if len(sb) > 1 else 1)
    out = sa[:-1] if len(sb) == 1 else ()
    if len(sb) > 1:
        batch = broadcast_size(sa[:-2], sb[:-2]) if len(sa) > 1 else prod(sb[:-2])
        rows = sa[-2] if len(sa) > 1 else 1
        return batch * rows * sb[-1]
    return prod(out)


def _shape(value: Any) -> tuple[int, ...]:
    if type(value) in _NUMBERS:
        return ()
    return value.shape if isinstance(value, (np.ndarray, np.generic)) else np.shape(value)


def _binary(fn: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Any, Any], Any]:
    def op(self: ndarray, other: Any) -> Any:
        if isinstance(other, Tensor):
            # `tensor * array` is the tensor's op on the array as a tensor (torch's answer); `array * tensor` is
            # refused, as real numpy 2 with PyTorch 2.13 refuses it
            return fn(other, as_tensor(self._a)) if reflected else NotImplemented
        o, _ = unwrap(other)
        check(broadcast_size(self._a.shape, _shape(o)))
        return wrap(fn(o, self._a) if reflected else fn(self._a, o))

    return op


def as_tensor(arr: np.ndarray) -> Tensor:
    """The array as a tensor over the same buffer (announced to the observer, as torch.from_numpy's is)."""
    t = Tensor._make(arr)
    obs = state().observer
    if obs is not None:
        obs.tensor_created(t)
    return t


def _inplace(fn: Callable[..., Any]) -> Callable[[Any, Any], Any]:
    def op(self: ndarray, other: Any) -> Any:
        if isinstance(other, Tensor):
            return NotImplemented
        o, _ = unwrap(other)
        fn(self._a, o, out=self._a)
        return self

    return op


def _matmul(a: Any, b: Any) -> Any:
    check(matmul_size(_shape(a), _shape(b)))
    product_cost(a, b)
    return np.matmul(a, b)


def _same_size(name: str) -> Callable[..., Any]:
    """A method whose result is at most as big as the array (a reduction, a reshape, a copy, a cast)."""

    def method(self: ndarray, *args: Any, **kwargs: Any) -> Any:
        a, kw, _ = unwrap_args(args, kwargs)
        check(self._a.size)
        return wrap(getattr(self._a, name)(*a, **kw))

    method.__name__ = name
    return method


class ndarray:
    """A numpy array of bools, integers or floats."""

    __slots__ = ("_a", "__weakref__")
    __module__ = "numpy"  # printed <class 'numpy.ndarray'>; user code reads its public names (the marker below)
    _gt_numpy = True
    __hash__ = None  # type: ignore[assignment]  # unhashable, as numpy's

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("np.ndarray(...) is not available here: use np.array, np.zeros, np.empty, ...")

    # -- what numpy prints -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return repr(self._a)

    def __str__(self) -> str:
        return str(self._a)

    def __format__(self, spec: str) -> str:
        return format(self._a, spec)

    # -- attributes ------------------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._a.shape

    @shape.setter
    def shape(self, value: Any) -> None:
        self._a.shape = shape_arg(value)

    @property
    def ndim(self) -> int:
        return self._a.ndim

    @property
    def size(self) -> int:
        return self._a.size

    @property
    def dtype(self) -> Any:
        return dtype_of(self._a.dtype)

    @property
    def itemsize(self) -> int:
        return self._a.itemsize

    @property
    def nbytes(self) -> int:
        return self._a.nbytes

    @property
    def T(self) -> ndarray:
        return wrap(self._a.T)  # type: ignore[no-any-return]

    # -- methods ---------------------------------------------------------------------------------------------
    sum = _same_size("sum")
    mean = _same_size("mean")
    std = _same_size("std")
    var = _same_size("var")
    max = _same_size("max")
    min = _same_size("min")
    prod = _same_size("prod")
    argmax = _same_size("argmax")
    argmin = _same_size("argmin")
    any = _same_size("any")
    all = _same_size("all")
    cumsum = _same_size("cumsum")
    cumprod = _same_size("cumprod")
    reshape = _same_size("reshape")
    transpose = _same_size("transpose")
    swapaxes = _same_size("swapaxes")
    flatten = _same_size("flatten")
    ravel = _same_size("ravel")
    squeeze = _same_size("squeeze")
    copy = _same_size("copy")
    astype = _same_size("astype")
    round = _same_size("round")
    clip = _same_size("clip")
    argsort = _same_size("argsort")
    nonzero = _same_size("nonzero")
    item = _same_size("item")

    def tolist(self) -> Any:
        return self._a.tolist()

    def fill(self, value: Any) -> None:
        v, _ = unwrap(value)
        self._a.fill(v)

    def sort(self, axis: int = -1, kind: str | None = None) -> None:
        self._a.sort(axis=axis, kind=kind)

    def dot(self, other: Any) -> Any:
        o, _ = unwrap(other)
        check(matmul_size(self._a.shape, _shape(o), dot=True))
        product_cost(self._a, o)
        return wrap(self._a.dot(o))

    def repeat(self, repeats: Any, axis: int | None = None) -> Any:
        r, _ = unwrap(repeats)
        reps = np.asarray(r)
        if reps.dtype.kind not in "iu":
            raise TypeError(
                "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'"
            )
        per = self._a.size if axis is None else self._a.size // max(self._a.shape[axis], 1)
        check(int(reps.sum()) * per if reps.ndim else int(reps) * self._a.size)
        return wrap(self._a.repeat(r, axis=axis))

    # -- operators -------------------------------------------------------------------------------------------
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
    __matmul__ = _binary(_matmul)
    __rmatmul__ = _binary(_matmul, True)
    __and__ = _binary(operator.and_)
    __rand__ = _binary(operator.and_, True)
    __or__ = _binary(operator.or_)
    __ror__ = _binary(operator.or_, True)
    __xor__ = _binary(operator.xor)
    __rxor__ = _binary(operator.xor, True)
    __eq__ = _binary(operator.eq)  # type: ignore[assignment]
    __ne__ = _binary(operator.ne)  # type: ignore[assignment]
    __lt__ = _binary(operator.lt)
    __le__ = _binary(operator.le)
    __gt__ = _binary(operator.gt)
    __ge__ = _binary(operator.ge)
    __iadd__ = _inplace(np.add)
    __isub__ = _inplace(np.subtract)
    __imul__ = _inplace(np.multiply)
    __itruediv__ = _inplace(np.true_divide)
    __ifloordiv__ = _inplace(np.floor_divide)
    __ipow__ = _inplace(np.power)

    def __neg__(self) -> Any:
        return wrap(-self._a)

    def __pos__(self) -> Any:
        return wrap(+self._a)

    def __abs__(self) -> Any:
        return wrap(abs(self._a))

    def __invert__(self) -> Any:
        return wrap(~self._a)

    # -- Python's protocols ----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self) -> Iterator[Any]:
        a = self._a
        if a.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(a.shape[0]):
            yield wrap(a[i])

    def __contains__(self, value: Any) -> bool:
        v, _ = unwrap(value)
        return bool(v in self._a)

    def __bool__(self) -> bool:
        return bool(self._a)

    def __float__(self) -> float:
        return float(self._a)

    def __int__(self) -> int:
        return int(self._a)

    def __index__(self) -> int:
        return operator.index(self._a)

    def __getitem__(self, key: Any) -> Any:
        k = index_key(key)
        check(result_size(self._a.shape, k))
        return wrap(self._a[k])

    def __setitem__(self, key: Any, value: Any) -> None:
        k = index_key(key)
        v, _ = unwrap(value)
        self._a[k] = v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:  # host code only (np.asarray in the engine)
        return self._a if dtype is None else self._a.astype(dtype)


def array_of(arr: np.ndarray) -> ndarray:
    """Our stand-in for ``arr`` (no copy: it is the same buffer)."""
    out = object.__new__(ndarray)
    out._a = arr
    return out


def host_array(value: Any) -> np.ndarray:
    """The real array behind one of our arrays (host code only)."""
    return value._a  # type: ignore[no-any-return]


def as_dtype(value: Any) -> np.dtype:
    return np_dtype(value)


HOST[ndarray] = host_array
MAKERS["array"] = array_of

__all__ = ["array_of", "broadcast_size", "host_array", "matmul_size", "ndarray"]

"""Reading ``torch.tensor(data)``'s nested data the way PyTorch's ``internal_new_from_data`` reads it, refusals in
its order and words: the sizes come from the chain of first elements (``too many dimensions 'str'``), then the
dtype is inferred from every element (``new(): invalid data type 'str'``, ``Could not infer dtype of NoneType``),
then the elements are stored (``expected sequence of length 2 at dim 1 (got 3)``, ``not a sequence``,
``must be real number, not list``, ``only one element tensors can be converted to Python scalars``).

Example::

    >>> torch.tensor([1, 'a'])
    TypeError: new(): invalid data type 'str'
    >>> torch.tensor([[1, 2], 3])
    TypeError: not a sequence
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ndarray import Scalar, ndarray
from engine.ops.api import tensor_methods
from engine.ops.argcheck import invalid_combination, is_int, type_name
from engine.ops.operands import check_alloc
from engine.run_state import state
from engine.size_device import Size
from engine.tensor import Tensor

MAX_DIMS = 64
_SEQUENCES = (list, tuple, range, str)  # what PyTorch reads as a sequence (PySequence_Check) of these
_NUMBERS = {float: "float", int: "int", bool: "bool"}


def sizes(data: Any) -> list[int]:
    """The shape, from the first element of each level (PyTorch's ``compute_sizes``); a tensor ends the chain."""
    out: list[int] = []
    while isinstance(data, _SEQUENCES):
        out.append(len(data))
        if len(out) > MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(data).__name__}'")
        if not data:
            break
        data = data[0]
    return out


def _no_dtype(value: Any) -> Exception:
    if isinstance(value, str):
        return TypeError(f"new(): invalid data type '{type(value).__name__}'")
    return RuntimeError(f"Could not infer dtype of {type_name(value)}")


class Reader:
    """One walk over the data: the kinds of numbers found (``float``/``int``/``bool``), the first refusal of the
    store step (raised by ``check`` once the dtype is known), and a dtype-inference refusal raised at once."""

    def __init__(self, shape: list[int], infer: bool) -> None:
        self.shape, self.infer = shape, infer
        self.kinds: set[str] = set()
        self.bad_leaf: str | None = None  # the type of the first element that is not a number where one goes
        self.store_error: Exception | None = None

    def _store(self, error: Exception) -> None:
        if self.store_error is None and self.bad_leaf is None:
            self.store_error = error

    def walk(self, data: Any, depth: int = 0) -> None:
        if isinstance(data, Tensor):
            self.kinds.add({"f": "float", "b": "bool"}.get(data._data.dtype.kind, "int"))
            ndim = len(self.shape) - depth
            got = data._data.shape
            for d in range(min(ndim, len(got))):  # iterated as a sequence down to the leaves
                if got[d] != self.shape[depth + d]:
                    self._store(
                        ValueError(
                            f"expected sequence of length {self.shape[depth + d]} at dim {depth + d} (got {got[d]})"
                        )
                    )
                    return
            if len(got) < ndim:
                self._store(TypeError("not a sequence"))
            elif _prod(got[ndim:]) != 1:
                self._store(ValueError("only one element tensors can be converted to Python scalars"))
            return
        if depth < len(self.shape):
            if not isinstance(data, _SEQUENCES):
                if self.infer and not isinstance(data, (int, float)):
                    raise _no_dtype(data)
                self._store(TypeError("not a sequence"))
                return
            if len(data) != self.shape[depth]:
                self._store(
                    ValueError(f"expected sequence of length {self.shape[depth]} at dim {depth} (got {len(data)})")
                )
            if isinstance(data, str):
                if self.infer:
                    raise _no_dtype(data)
                if depth + 1 == len(self.shape) and data:
                    self._leaf(data[0])
                return
            if depth + 1 == len(self.shape):  # the innermost level: usually all plain numbers (checked at C speed)
                types = set(map(type, data))
                if types <= _NUMBERS.keys():
                    self.kinds.update(_NUMBERS[t] for t in types)
                    return
            for item in data:
                self.walk(item, depth + 1)
            return
        self._leaf(data)

    def _leaf(self, value: Any) -> None:
        if isinstance(value, Scalar):  # a numpy scalar (engine/ndarray) reads as the number it holds
            value = value.item()
        if isinstance(value, bool):
            self.kinds.add("bool")
        elif isinstance(value, int):
            self.kinds.add("int")
        elif isinstance(value, float):
            self.kinds.add("float")
        else:
            if self.infer:
                if isinstance(value, (list, tuple, range)):
                    for item in value:  # inference reads every element, however deep
                        self._infer_only(item, 1)
                else:
                    raise _no_dtype(value)
            if self.store_error is None and self.bad_leaf is None:
                self.bad_leaf = type(value).__name__

    def _infer_only(self, value: Any, depth: int) -> None:
        if isinstance(value, Tensor):
            self.kinds.add({"f": "float", "b": "bool"}.get(value._data.dtype.kind, "int"))
        elif isinstance(value, (list, tuple, range)):
            if depth > MAX_DIMS:
                raise ValueError(f"too many dimensions '{type(value).__name__}'")
            for item in value:
                self._infer_only(item, depth + 1)
        elif isinstance(value, (bool, int, float)):
            self._leaf(value)
        else:
            raise _no_dtype(value)

    def check(self, np_dtype: Any) -> None:
        """Raise the store step's refusal, in the words of the dtype the values go into."""
        if self.bad_leaf is not None:
            name = self.bad_leaf
            if np_dtype.kind == "f":
                raise TypeError(f"must be real number, not {name}")
            raise TypeError(f"'{name}' object cannot be interpreted as an integer")
        if self.store_error is not None:
            raise self.store_error


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def plain(data: Any, depth: int, ndim: int) -> Any:
    """``data`` as nested Python lists of numbers (a tensor at a leaf gives its one value)."""
    if isinstance(data, Tensor):
        return data._data.item() if depth >= ndim else data._data.tolist()
    if isinstance(data, (list, tuple, range)):
        return [plain(d, depth + 1, ndim) for d in data]
    return data.item() if isinstance(data, Scalar) else data


def legacy(args: tuple[Any, ...], np_dtype: Any) -> Any:
    """The array of the legacy constructors, ``torch.Tensor(2, 3)`` (sizes: zeros here, PyTorch leaves them
    uninitialised) or ``torch.Tensor([1, 2])`` / ``torch.LongTensor([1, 2])`` (data), read as PyTorch's ``new()``."""
    np_dtype = np.dtype(np_dtype)
    if len(args) == 1 and not is_int(args[0]) and not isinstance(args[0], Size):
        data = args[0]
        if isinstance(data, (Tensor, ndarray)):  # torch.Tensor(np_array): a float32 copy
            return np.asarray(data).astype(np_dtype) if isinstance(data, ndarray) else data._data.astype(np_dtype)
        if isinstance(data, str):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        if not isinstance(data, (list, tuple)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        shape = sizes(data)
        reader = Reader(shape, infer=False)
        reader.walk(data)
        reader.check(np_dtype)
        check_alloc(_prod(tuple(shape)))
        return np.array(plain(data, 0, len(shape)), dtype=np_dtype).reshape(shape)
    if len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])
    elif args and not is_int(args[0]):  # sizes start with an int: anything else matches no form of new()
        raise invalid_combination(
            "new",
            args,
            {},
            [
                "*, torch.device device = None",
                "tuple of ints size, *, torch.device device = None",
                "object data, *, torch.device device = None",
            ],
        )
    for i, a in enumerate(args):
        if not is_int(a):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {type_name(a)}"'
            )
    shape = tuple(int(a) for a in args) if args else (0,)  # torch.Tensor(): empty
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, shape))}]")
    check_alloc(_prod(shape))
    return np.zeros(shape, dtype=np_dtype)


def _legacy_init(self: Tensor, *args: Any) -> None:
    """``torch.Tensor(2, 3)`` (uninitialised in PyTorch: zeros here) or ``torch.Tensor([1, 2])`` (a float32 copy)."""
    self._data = legacy(args, np.float32)
    self._requires_grad = False
    self._grad = None
    self._grad_fn = None
    self._version = 0
    self._accumulator = None
    self._retains_grad = False
    self._trace_id = None
    self._owner = None
    self._hooks = None
    obs = state().observer
    if obs is not None:
        obs.tensor_created(self)


tensor_methods({"__init__": _legacy_init})

__all__ = ["MAX_DIMS", "Reader", "legacy", "plain", "sizes"]

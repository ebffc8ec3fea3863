"""``Tensor``: a numpy array plus autograd bookkeeping (requires_grad, grad, grad_fn, is_leaf, _version).

The array lives in ``_data`` (never exposed publicly: ``.data`` returns a Tensor, as in PyTorch). This class holds
the data and the autograd bookkeeping only; every method that computes something (``x.exp()``, ``x + y``,
``x.backward()``, ``x.to(…)``) is an op, attached by ``engine.ops`` when it loads (generated from the ops'
declarations), so import ``engine.ops`` (or ``engine.facade``) before calling one.

Example::

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> y = (x * 2).sum()
    >>> y
    tensor(12., grad_fn=<SumBackward0>)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import dtypes
from engine.graph import NON_LEAF_GRAD_WARNING, AccumulateGrad, Node
from engine.meta import NO_DATA, NO_ITEM, is_meta, no_values
from engine.printing import tensor_repr
from engine.run_state import charge_bulk, serial_hash, state
from engine.size_device import CPU, META, RemovableHandle, Size, check_device, device

_TYPE_NAMES = dtypes.TYPE_NAMES  # (its name as engine.ops imports it)


class Tensor:
    """A multi-dimensional array that can record the operations applied to it for autograd.

    Example::

        >>> torch.tensor([[1., 2.], [3., 4.]]).shape
        torch.Size([2, 2])
    """

    __slots__ = (
        "_data",
        "_requires_grad",
        "_grad",
        "_grad_fn",
        "_version",
        "_accumulator",
        "_retains_grad",
        "_trace_id",
        "_owner",
        "_hooks",
        "__weakref__",
    )
    _data: np.ndarray
    _requires_grad: bool
    _grad: Tensor | None
    _grad_fn: Node | None
    _version: int
    _accumulator: AccumulateGrad | None
    _retains_grad: bool
    _trace_id: int | None
    _owner: Tensor | None
    _hooks: list[Any] | None

    if TYPE_CHECKING:  # the methods engine/ops adds to Tensor (generated from the op declarations), as core uses them

        def to(self, *args: Any, **kwargs: Any) -> Tensor: ...
        def __getitem__(self, key: Any) -> Tensor: ...
        def __add__(self, other: Any) -> Tensor: ...

    # ---- construction -------------------------------------------------------------------------------------
    @classmethod
    def _make(cls, data: Any, grad_fn: Node | None = None, requires_grad: bool = False) -> Tensor:
        t = object.__new__(cls)
        # numpy turns 0-d results into numpy scalars: always keep an ndarray
        t._data = data if type(data) is np.ndarray or is_meta(data) else np.asarray(data)
        t._requires_grad = requires_grad
        t._grad = None
        t._grad_fn = grad_fn
        t._version = 0
        t._accumulator = None
        t._retains_grad = False
        t._trace_id = None
        t._owner = None  # for a .grad tensor: the tensor whose .grad it is (so .zero_() can be reported)
        t._hooks = None  # functions register_hook() added (run on this tensor's gradient during backward)
        return t

    # ---- autograd attributes ------------------------------------------------------------------------------
    @property
    def grad_fn(self) -> Node | None:
        """The node that made this tensor (None for leaves)."""
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        """True for tensors not made by a recorded op (created by the user, or not requiring grad)."""
        return self._grad_fn is None

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if type(value) is not bool:
            raise RuntimeError("requires_grad must be a bool")
        if value and not dtypes.from_numpy(self._data.dtype).is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if self._grad_fn is not None and value:  # the attribute form refuses even a no-op on a non-leaf
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Start (or stop) recording operations on this leaf. Returns self."""
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
                )
            return self
        if requires_grad and not dtypes.from_numpy(self._data.dtype).is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by backward (leaves and ``retain_grad()`` tensors only)."""
        if self._grad_fn is not None and not self._retains_grad:
            obs = state().observer
            if obs is not None:
                obs.warning(NON_LEAF_GRAD_WARNING)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(
                f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
            )
        if value is not None and value._data.shape != self._data.shape:
            raise RuntimeError(
                f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size"
            )
        if value is not None and value._data.dtype != self._data.dtype:
            c_name = dtypes.C_NAMES[value._data.dtype.name]
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{c_name}' to a tensor with "
                f"grad_dtype '{_TYPE_NAMES[self._data.dtype.name]}'. The gradient must match the tensor's grad_dtype "
                "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific "
                "dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                "its gradient may break downstream systems that assume they match."
            )
        self._grad = value
        if value is not None:
            value._owner = self
        if value is None:
            obs = state().observer
            if obs is not None:
                obs.grad_reset(self, "none")

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Ask backward to fill ``.grad`` of this non-leaf tensor too."""
        if self._grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        self._retains_grad = True
        self._grad_fn._retained = self

    def register_hook(self, hook: Any) -> RemovableHandle:
        """Call ``hook(grad)`` whenever backward computes this tensor's gradient; if it returns a tensor, that
        replaces the gradient. Returns a handle whose ``remove()`` takes the hook away."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            hooks = self._grad_fn._hooks
            if hooks is None:
                hooks = self._grad_fn._hooks = []
        else:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Any) -> RemovableHandle:
        """Call ``hook(tensor)`` each time backward has added to this leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        acc = self._accumulator
        if acc is None:
            acc = self._accumulator = AccumulateGrad(self)
        hooks = acc._post_hooks
        if hooks is None:
            hooks = acc._post_hooks = []
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def detach(self) -> Tensor:
        """A new tensor sharing this one's data, cut off from the graph."""
        t = Tensor._make(self._data)
        obs = state().observer
        if obs is not None:
            obs.tensor_created(t)
        return t

    def detach_(self) -> Tensor:
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """The values without autograd history (shares memory, like PyTorch's ``.data``)."""
        t = Tensor._make(self._data)
        t._owner = self._owner  # so that w.grad.data.zero_() is still a reset of w.grad
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        self._data = value._data

    # ---- shape and values ---------------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        """The shape (``torch.Size``), or the length of one dimension."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_dim(dim, self._data.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.from_numpy(self._data.dtype)

    @property
    def device(self) -> device:
        return META if is_meta(self._data) else CPU

    @property
    def is_meta(self) -> bool:
        """True for a tensor on the meta device: a shape and a dtype, no elements (``device="meta"``)."""
        return is_meta(self._data)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_contiguous(self) -> bool:
        return is_meta(self._data) or bool(self._data.flags.c_contiguous)

    def element_size(self) -> int:
        return int(self._data.itemsize)

    @property
    def itemsize(self) -> int:
        return int(self._data.itemsize)

    @property
    def nbytes(self) -> int:
        return int(self._data.nbytes)

    def is_complex(self) -> bool:
        return False

    def stride(self, dim: int | None = None) -> Any:
        """Elements to step over for one step along each dimension (a view's, as its storage is laid out)."""
        data = self._data
        # PyTorch's contiguous layout (numpy may give a size-1 dimension any stride; a meta tensor is contiguous)
        if is_meta(data) or data.flags.c_contiguous:
            strides = tuple(_unit(data.shape, i) for i in range(data.ndim))
        else:
            strides = tuple(s // data.itemsize for s in data.strides)
        return strides if dim is None else strides[_dim(dim, self._data.ndim)]

    def type(self, dtype: Any = None) -> Any:
        if dtype is None:
            return f"torch.{_TYPE_NAMES[self._data.dtype.name]}Tensor"
        return self.to(dtype)

    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        no_values(self._data, RuntimeError(NO_ITEM))
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists; a plain number for a 0-d tensor."""
        no_values(self._data, NotImplementedError(NO_DATA))
        return self._data.tolist()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return int(self._data.shape[0])

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        charge_bulk(self._data.shape[0])
        return iter([self[i] for i in range(self._data.shape[0])])

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        no_values(self._data, RuntimeError(NO_ITEM))
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = serial_hash  # by identity, as in PyTorch, but numbered by the run: sets of tensors iterate alike

    def __repr__(self) -> str:
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and not is_meta(self._data):
            return str(self.item().__format__(spec))
        return object.__format__(self, spec)

    # dtype conversions (``to`` is an op: engine.ops.shape)
    def float(self) -> Tensor:
        return self.to(dtypes.float32)

    def double(self) -> Tensor:
        return self.to(dtypes.float64)

    def long(self) -> Tensor:
        return self.to(dtypes.int64)

    def int(self) -> Tensor:
        return self.to(dtypes.int32)

    def bool(self) -> Tensor:
        return self.to(dtypes.bool_)

    def byte(self) -> Tensor:
        return self.to(dtypes.uint8)

    def char(self) -> Tensor:
        return self.to(dtypes.int8)

    def short(self) -> Tensor:
        return self.to(dtypes.int16)

    def half(self) -> Tensor:
        return self.to(dtypes.float16)

    def cpu(self) -> Tensor:
        no_values(self._data, NotImplementedError(NO_DATA))
        return self

    def cuda(self, device: Any = None) -> Tensor:
        check_device("cuda")
        return self

    def _check_inplace(self) -> None:
        if self._grad_fn is None and self._requires_grad and state().grad_enabled:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _unit(shape: tuple[int, ...], i: int) -> int:
    """The stride PyTorch gives a dimension of size 1 in a contiguous layout: the product of the sizes after it."""
    n = 1
    for size in shape[i + 1 :]:
        n *= size
    return n


def _dim(d: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


__all__ = ["Tensor", "Size", "AccumulateGrad"]

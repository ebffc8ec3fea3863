"""The graph: ``Node`` (PyTorch's ``grad_fn``) with ``name()`` and ``next_functions``, and ``AccumulateGrad``,
the node through which gradient reaches a leaf (its ``.variable``).

Example::

    >>> y = (x * x).sum()
    >>> y.grad_fn.name(), y.grad_fn.next_functions
    ('SumBackward0', ((<MulBackward0 object at 0x...>, 0),))
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from engine.tensor import Tensor

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward."
)
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak."
)

_sequence = itertools.count()
_FREED = object()


class Node:
    """A step of the backward graph (PyTorch's ``grad_fn``): ``name()`` and ``next_functions``."""

    _saved_fields: tuple[str, ...] = ()  # names shown as ``_saved_<name>`` (PyTorch's spelling)

    def __init__(self) -> None:
        self.next_functions: tuple[tuple[Node | None, int], ...] = ()
        self._trace_id: Any = None
        self._seq = next(_sequence)
        self._saved: dict[str, Any] = {}
        self._freed = False
        self._retained: Any = None  # the non-leaf tensor that called retain_grad(), if any
        self._hooks: list[Any] | None = None  # register_hook() functions of the tensor this node made
        self._needs_input_grad: tuple[bool, ...] = ()

    def name(self) -> str:
        """The node's name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __call__(self, *grad_outputs: Any) -> Any:
        """``y.grad_fn(g)``: this node's local chain rule on an upstream gradient ``g``, as tensors: one per input
        (a tuple when there are several), differentiable like PyTorch's."""
        from engine.run_state import state
        from engine.ops.double import backward_with_graph
        from engine.tensor import Tensor

        if not grad_outputs or not isinstance(grad_outputs[0], Tensor):
            raise TypeError(f"{self.name()}: expected a Tensor holding the gradient of the output")
        st = state()
        prev, st.grad_enabled = st.grad_enabled, True
        try:
            grads = backward_with_graph(self, grad_outputs[0])
        finally:
            st.grad_enabled = prev
        return grads[0] if len(grads) == 1 else tuple(grads)

    def __getattr__(self, attr: str) -> Any:
        # y.grad_fn._saved_self & co.: the values an op kept for backward, as PyTorch names them.
        if attr.startswith("_saved_") and attr[7:] in type(self)._saved_fields:
            value = self.__dict__["_saved"].get(attr[7:])
            if value is _FREED:
                raise RuntimeError(FREED_MESSAGE)
            return self._unpack(value)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def _unpack(self, value: Any) -> Any:
        """A saved value as user code sees it: the input tensor itself, or the output (with this grad_fn)."""
        from engine.tensor import Tensor

        if isinstance(value, np.ndarray):
            for t in self.__dict__.get("_inputs", ()):
                if t is not None and t._data is value:
                    return t
            if value is self.__dict__.get("_result_data"):
                return Tensor._make(value, self, True)
            return Tensor._make(value)
        return value

    def _save(*args: Any, **values: Any) -> None:
        args[0]._saved.update(values)  # (positional-only node: "self" is a saved name, as in _saved_self)

    def _apply(self, grad: np.ndarray) -> tuple[np.ndarray | None, ...]:
        if self._freed and any(v is _FREED for v in self._saved.values()):
            raise RuntimeError(FREED_MESSAGE)
        return self._backward(grad)

    def _backward(self, grad_output: np.ndarray) -> tuple[np.ndarray | None, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _release(self) -> None:
        # Saved tensors are freed after backward; sizes, dims and other plain values stay.
        self._saved = {k: _FREED if isinstance(v, (np.ndarray, np.generic)) else v for k, v in self._saved.items()}
        self._freed = True
        self.__dict__.pop("_inputs", None)
        self.__dict__.pop("_result_data", None)


class AccumulateGrad(Node):
    """The node that adds the gradient reaching a leaf to the leaf's ``.grad`` (``.variable`` is the leaf)."""

    def __init__(self, variable: "Tensor") -> None:
        super().__init__()
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __call__(self, *grad_outputs: Any) -> tuple[()]:
        return ()


def _edge(t: "Tensor") -> tuple[Node | None, int]:
    """The (node, output_nr) pair through which gradient reaches ``t``."""
    if not t._requires_grad:
        return (None, 0)
    if t.grad_fn is not None:
        return (t.grad_fn, 0)
    acc = t._accumulator
    if acc is None:
        acc = t._accumulator = AccumulateGrad(t)
    return (acc, 0)

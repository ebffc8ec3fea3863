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

from engine.run_state import address_of, serial_hash
from engine.size_device import RemovableHandle

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
FREED = object()  # what a saved array becomes once backward has freed it


class Node:
    """A step of the backward graph (PyTorch's ``grad_fn``): ``name()`` and ``next_functions``."""

    _saved_fields: tuple[str, ...] = ()  # names shown as ``_saved_<name>`` (PyTorch's spelling)
    # A node with several outputs (a custom ``autograd.Function`` returning two tensors) numbers them: its
    # ``_output_index`` maps each output tensor's id to its output_nr, and backward hands it one gradient per output.
    _n_outputs: int = 1
    _output_index: dict[int, int] | None = None
    _node_hooks: list[Any] | None = None  # register_hook() functions of this node: fn(grad_inputs, grad_outputs)

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
        return f"<{type(self).__name__} object at {address_of(self)}>"

    __hash__ = serial_hash

    def register_hook(self, fn: Any) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs once this node has computed the gradients for its inputs (one per
        ``next_functions`` edge, None where none flows); a tuple it returns replaces them."""
        if self._node_hooks is None:
            self._node_hooks = []
        self._node_hooks.append(fn)
        return RemovableHandle(self._node_hooks, fn)

    def formulas(self) -> list[str | None]:
        """The local chain-rule step for each edge of ``next_functions`` (ops fill it in; see ``Function``)."""
        return [None] * len(self.next_functions)

    def _save(*args: Any, **values: Any) -> None:
        args[0]._saved.update(values)  # (positional-only node: "self" is a saved name, as in _saved_self)

    def _apply(self, grad: np.ndarray) -> tuple[np.ndarray | None, ...]:  # pragma: no cover - abstract
        """This node's gradients for its inputs from the gradient of its output (numpy arrays)."""
        raise NotImplementedError

    def _apply_with_graph(self, grad: Any) -> tuple[Any, ...]:  # pragma: no cover - abstract
        """The same on tensors, recording a graph (``create_graph=True``)."""
        raise NotImplementedError

    def _release(self) -> None:
        # Saved tensors are freed after backward; sizes, dims and other plain values stay.
        self._saved = {k: FREED if isinstance(v, (np.ndarray, np.generic)) else v for k, v in self._saved.items()}
        self._freed = True


class AccumulateGrad(Node):
    """The node that adds the gradient reaching a leaf to the leaf's ``.grad`` (``.variable`` is the leaf)."""

    _post_hooks: list[Any] | None = None  # register_post_accumulate_grad_hook() functions of the leaf

    def __init__(self, variable: Tensor) -> None:
        super().__init__()
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __call__(self, *grad_outputs: Any) -> tuple[()]:
        return ()

    def formulas(self) -> list[str | None]:
        """None: this node has no inputs; what reaches it is added to the leaf's ``.grad``."""
        return []


def edge(t: Tensor) -> tuple[Node | None, int]:
    """The (node, output_nr) pair through which gradient reaches ``t``."""
    if not t._requires_grad:
        return (None, 0)
    fn = t._grad_fn
    if fn is not None:
        index = fn._output_index
        return (fn, 0 if index is None else index.get(id(t), 0))
    acc = t._accumulator
    if acc is None:
        acc = t._accumulator = AccumulateGrad(t)
    return (acc, 0)

"""``torch.autograd.Function``: the learner's own op, with a ``forward`` and a ``backward`` written in tensor ops.

``MyReLU.apply(x)`` runs ``forward(ctx, x)`` with grad mode off, then records one graph node for its outputs: the
``ctx`` itself, an instance of ``MyReLUBackward`` (made for each subclass, printed as PyTorch prints it:
``<torch.autograd.function.MyReLUBackward object at 0x…>``). Backward calls the learner's ``backward(ctx, *grads)``
with one gradient per output (zeros for outputs no gradient reached, as PyTorch materialises them), in grad mode only
when ``create_graph=True``, so that a backward made of tensor ops can be differentiated again.

Example::

    >>> class MyReLU(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x.clamp(min=0)
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         x, = ctx.saved_tensors
    ...         return g * (x > 0)
    >>> MyReLU.apply(torch.tensor([-1., 2.], requires_grad=True))
    tensor([0., 2.], grad_fn=<MyReLUBackward>)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.graph import FREED_MESSAGE, Node, edge
from engine.ops.function import modified_message
from engine.ops.kits import ARRAYS, TENSORS
from engine.run_state import address_of, state
from engine.tensor import Tensor

_LEGACY = (
    "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd function "
    "with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
)
_READ_ONLY = frozenset(("next_functions", "saved_tensors", "saved_variables", "metadata", "name"))


class BackwardCFunction(Node):
    """The ``ctx`` a custom Function's ``forward`` and ``backward`` receive, which is also its outputs' ``grad_fn``."""

    _forward_cls: Any = None  # the learner's Function subclass
    _outputs_meta: tuple[tuple[tuple[int, ...], Any] | None, ...]
    _tensor_args: tuple[tuple[tuple[int, ...], Any], ...]
    _arg_is_tensor: tuple[bool, ...]
    _materialize: bool

    def __init__(self) -> None:
        super().__init__()
        self.needs_input_grad: tuple[bool, ...] = ()
        self.__dict__["_materialize"] = True
        self.non_differentiable: tuple[Tensor, ...] = ()
        self.to_save: tuple[Any, ...] = ()
        self.__dict__["_tensor_args"] = ()  # for each tensor input: (shape, dtype) of what next_functions holds
        self.__dict__["_arg_is_tensor"] = ()
        self.__dict__["_outputs_meta"] = ()  # for each output: (shape, dtype), or None for a non-tensor
        self.__dict__["_ready"] = True

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_ready") and (name in _READ_ONLY or hasattr(type(self), name)):  # its methods stay
            raise AttributeError(f"attribute '{name}' of 'torch._C._FunctionBase' objects is not writable")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object at {address_of(self)}>"

    # ---- what forward calls ------------------------------------------------------------------------------
    def save_for_backward(self, *tensors: Any) -> None:
        """Keep these tensors (or None) for backward; ``ctx.saved_tensors`` gives them back, checked for in-place
        changes since."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_backward can only save variables, but argument {i} is of type {type(t).__name__}"
                )
        self.to_save = tensors
        self.__dict__["_saved_versions"] = tuple(None if t is None else t._version for t in tensors)

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """These outputs get no ``grad_fn`` and do not require grad (indices, masks)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """False: backward receives None, not zeros, for outputs no gradient reached."""
        self.__dict__["_materialize"] = bool(value)

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Inputs forward changed in place: returned, each becomes the node's output itself, one version on (a
        tensor saved before the change then fails its check in backward, as in PyTorch)."""
        self.__dict__["_dirty"] = tensors

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        versions = self.__dict__.get("_saved_versions", ())
        for t, v in zip(self.to_save, versions):
            if t is not None and t._version != v:
                raise RuntimeError(modified_message(t, v, t._grad_fn))
        return tuple(self.to_save)

    saved_variables = saved_tensors

    # ---- the node ------------------------------------------------------------------------------------------
    def formulas(self) -> list[str | None]:
        """The chain-rule step is the learner's own ``backward``."""
        text = f"{{grad}} through {type(self)._forward_cls.__name__}.backward"
        return [None if n is None else text for n, _ in self.next_functions]

    def _release(self) -> None:
        self._freed = True
        self.to_save = ()

    def _apply(self, grad: Any) -> tuple[Any, ...]:
        return self._run_backward(grad, False)

    def _apply_with_graph(self, grad: Any) -> tuple[Any, ...]:
        return self._run_backward(grad, True)

    def _run_backward(self, grad: Any, graph: bool) -> tuple[Any, ...]:
        grads = grad if self._n_outputs != 1 else [grad]
        shown: list[Tensor | None] = []
        for g, meta in zip(grads, self._outputs_meta):
            if g is None:
                materialize = meta is not None and self._materialize
                shown.append(Tensor._make(np.zeros(meta[0], meta[1])) if meta is not None and materialize else None)
            else:
                shown.append(g if graph else Tensor._make(g))
        st = state()
        prev, st.grad_enabled = st.grad_enabled, graph
        try:
            result = type(self)._forward_cls.backward(self, *shown)
        finally:
            st.grad_enabled = prev
        return self._check_grads(result if isinstance(result, tuple) else (result,), graph)

    def _check_grads(self, result: tuple[Any, ...], graph: bool) -> tuple[Any, ...]:
        """One gradient per forward argument, as PyTorch checks them: None for non-tensors, a shape the input
        broadcasts to (summed back to it), the input's dtype."""
        is_tensor = self._arg_is_tensor
        name = self.name()
        if len(result) != len(is_tensor):
            if len(result) > len(is_tensor) and all(r is None for r in result[len(is_tensor) :]):
                result = result[: len(is_tensor)]
            else:
                raise RuntimeError(
                    f"function {name} returned an incorrect number of gradients "
                    f"(expected {len(is_tensor)}, got {len(result)})"
                )
        out: list[Any] = []
        for i, (r, tensor_arg) in enumerate(zip(result, is_tensor)):
            if not tensor_arg:
                if r is not None:
                    raise RuntimeError(
                        f"function {name} returned a gradient different than None at position {i + 1}, but the "
                        "corresponding forward input was not a Variable"
                    )
                continue
            out.append(r)
        grads: list[Any] = []
        for i, (r, (shape, dtype), (node, _)) in enumerate(zip(out, self._tensor_args, self.next_functions)):
            if r is None or node is None:
                grads.append(None)
                continue
            if not isinstance(r, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
            got = r._data.shape
            if got != shape:
                if not _expandable(shape, got):
                    raise RuntimeError(
                        f"Function {name} returned an invalid gradient at index {i} - got {list(got)} but expected "
                        f"shape compatible with {list(shape)}"
                    )
                r = TENSORS.sum_to(r, shape) if graph else Tensor._make(ARRAYS.sum_to(r._data, shape))
            if r._data.dtype != dtype:
                r = r.to(dtype) if graph else Tensor._make(r._data.astype(dtype))
            grads.append(r if graph else r._data)
        return tuple(grads)


def _expandable(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    if len(shape) > len(to):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(to)))


class Function:
    """Base of the learner's own ops: subclass it with ``@staticmethod forward(ctx, …)`` and
    ``backward(ctx, *grads)``, then call ``MyOp.apply(…)``."""

    _backward_cls: Any = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        node = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"_forward_cls": cls})
        node.__module__ = "torch.autograd.function"
        cls._backward_cls = node

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(_LEGACY)

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
            "backward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` without recording, then make its tensor outputs the outputs of one ``…Backward`` node."""
        if cls._backward_cls is None:
            raise RuntimeError("torch.autograd.Function itself cannot be applied: subclass it")
        st = state()
        tensors = [a for a in args if isinstance(a, Tensor)]
        record = st.grad_enabled and any(t._requires_grad for t in tensors)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        prev, st.grad_enabled = st.grad_enabled, False
        try:
            out = cls.forward(ctx, *args, **kwargs)
        finally:
            st.grad_enabled = prev
        for t in ctx.__dict__.get("_dirty", ()):
            if any(t is a for a in args):
                t._version += 1  # changed in place by forward (PyTorch counts the change here, recorded or not)
        if not record:
            return out
        several = isinstance(out, tuple)
        outs = out if several else (out,)
        d = ctx.__dict__
        d["_arg_is_tensor"] = tuple(isinstance(a, Tensor) for a in args)
        d["_tensor_args"] = tuple((t._data.shape, t._data.dtype) for t in tensors)
        d["next_functions"] = tuple(edge(t) for t in tensors)
        d["_outputs_meta"] = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor) else None for o in outs)
        d["_n_outputs"] = len(outs)
        index: dict[int, int] = {}
        results = []
        for i, o in enumerate(outs):
            if not isinstance(o, Tensor) or any(o is n for n in ctx.non_differentiable):
                results.append(o)
                continue
            if any(o is t for t in d.get("_dirty", ())) and any(o is a for a in args):
                if o._grad_fn is None and o._requires_grad:
                    raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
                # changed in place by forward: the node's output is the input itself (rebased), as PyTorch's
            elif o._grad_fn is not None or o._requires_grad or any(o is a for a in args):
                o = Tensor._make(o._data)  # an input or outside tensor returned as it is: a new tensor on its data
            o._grad_fn, o._requires_grad = ctx, True
            index[id(o)] = i
            results.append(o)
        if len(outs) > 1:
            d["_output_index"] = index
        obs = st.observer
        if obs is not None:
            for o in results:
                if isinstance(o, Tensor) and o._grad_fn is ctx:
                    obs.tensor_created(o)
        return tuple(results) if several else results[0]


def once_differentiable(fn: Any) -> Any:
    """``@once_differentiable``: accepted; backward then runs as written (a second derivative through it is the
    learner's own tensor ops)."""
    return fn


class _VariableMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:  # isinstance(t, Variable): every tensor is one
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``torch.autograd.Variable(t, requires_grad=False)``: the old wrapper, today a new tensor on ``t``'s data."""

    def __new__(cls, data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Any:
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = Tensor._make(data._data)
        if requires_grad:
            if not t.dtype.is_floating_point:
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            t._requires_grad = True
        obs = state().observer
        if obs is not None:
            obs.tensor_created(t)
        return t


Function.__module__ = "torch.autograd.function"  # printed as PyTorch's classes
Variable.__module__ = "torch.autograd.variable"

__all__ = ["BackwardCFunction", "Function", "Variable", "once_differentiable"]

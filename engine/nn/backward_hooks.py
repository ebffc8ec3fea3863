"""A module's full backward hooks, as PyTorch runs them: ``register_full_backward_pre_hook(hook(module, grad_output))``
and ``register_full_backward_hook(hook(module, grad_input, grad_output))``.

While a module with such hooks runs, its tensor inputs and its outputs pass through an identity op,
``BackwardHookFunction`` (a ``torch.autograd.Function``, so its node prints ``BackwardHookFunctionBackward`` as
PyTorch's does). In backward, the outputs' node receives the gradient of the outputs (the pre-hooks see it, and may
replace it); the inputs' node then receives the gradients for the inputs and calls the hooks with both (a tuple
returned replaces the gradients for the inputs). When no input requires grad, the hooks run at the outputs' node with
``grad_input`` all None.

Example::

    >>> m = nn.Linear(2, 1)
    >>> h = m.register_full_backward_hook(lambda mod, gin, gout: print(gout))
    >>> m(torch.ones(1, 2, requires_grad=True)).sum().backward()
    (tensor([[1.]]),)
"""

from __future__ import annotations

from typing import Any

from engine.autograd_function import Function
from engine.run_state import state
from engine.size_device import RemovableHandle
from engine.tensor import Tensor

NO_INPUT_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs since no inputs require "
    "gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
    "#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHookFunction(Function):
    """The identity, whose backward hands its gradients to the module's hooks."""

    @staticmethod
    def forward(ctx: Any, *args: Tensor) -> tuple[Tensor, ...]:
        ctx.mark_non_differentiable(*[a for a in args if not a._requires_grad])
        ctx.set_materialize_grads(False)
        return args

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        return ctx.on_backward(grads)


class BackwardHooks:
    """One call of a module with backward hooks: what its outputs' gradient was, to give the hooks with the inputs'."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_inputs = 0
        self.input_index: list[int] | None = None

    @staticmethod
    def add(module: Any, key: str, hook: Any) -> RemovableHandle:
        hooks = module.__dict__.setdefault(key, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    @staticmethod
    def of(module: Any) -> BackwardHooks | None:
        d = module.__dict__
        if not (d.get("_bwd_hooks") or d.get("_bwd_pre_hooks")) or not state().grad_enabled:
            return None
        return BackwardHooks(module)

    def _wrap(self, values: tuple[Any, ...], on_backward: Any) -> tuple[tuple[Any, ...], list[int] | None]:
        index = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
        if not any(values[i]._requires_grad for i in index):
            return values, None
        wrapped = BackwardHookFunction.apply(*[values[i] for i in index])
        node = next(t._grad_fn for t in wrapped if t._grad_fn is not None)
        node.__dict__["on_backward"] = on_backward
        out = list(values)
        for i, t in zip(index, wrapped):
            out[i] = t
        return tuple(out), index

    def wrap_inputs(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        self.n_inputs = len(args)
        args, self.input_index = self._wrap(args, self._inputs_backward)
        return args

    def wrap_outputs(self, out: Any) -> Any:
        single = isinstance(out, Tensor)
        values, index = self._wrap(
            (out,) if single else tuple(out) if isinstance(out, tuple) else (), self._outputs_backward
        )
        if index is None:
            return out
        return values[0] if single else values

    def _outputs_backward(self, grads: tuple[Any, ...]) -> tuple[Any, ...]:
        for hook in list(self.module.__dict__.get("_bwd_pre_hooks", ())):
            changed = hook(self.module, grads)
            if changed is not None:
                grads = tuple(changed) if isinstance(changed, (tuple, list)) else (changed,)
        self.grad_outputs = grads
        if self.input_index is None:  # no input requires grad: the hooks run now, with grad_input all None
            obs = state().observer
            if obs is not None and self.module.__dict__.get("_bwd_hooks"):
                obs.warning(NO_INPUT_WARNING)
            self._call_hooks((None,) * self.n_inputs)
        return grads

    def _inputs_backward(self, grads: tuple[Any, ...]) -> tuple[Any, ...]:
        packed = [None] * self.n_inputs
        for i, g in zip(self.input_index or (), grads):
            packed[i] = g
        result = self._call_hooks(tuple(packed))
        if result is None:
            return grads
        return tuple(result[i] for i in self.input_index or ())

    def _call_hooks(self, grad_input: tuple[Any, ...]) -> tuple[Any, ...] | None:
        replaced = None
        for hook in list(self.module.__dict__.get("_bwd_hooks", ())):
            changed = hook(self.module, grad_input if replaced is None else replaced, self.grad_outputs)
            if changed is not None:
                replaced = tuple(changed) if isinstance(changed, (tuple, list)) else (changed,)
                if len(replaced) != len(grad_input):
                    raise RuntimeError(
                        f"Backward hook returned an invalid number of grad_input, got {len(replaced)}, but expected "
                        f"{len(grad_input)}"
                    )
        return replaced


__all__ = ["BackwardHookFunction", "BackwardHooks"]

"""``Function``: the base of every op. An op is one class, named like PyTorch's node (``MulBackward0``), that holds
everything about it side by side:

- ``_forward(ctx, *arrays, **params)``: the result from numpy arrays; saves what backward needs with ``ctx._save``;
- ``_backward(ctx, k, grad, saved)``: ONE backward, written with operators and the kit ``k``'s functions. Plain
  backward runs it on numpy arrays (``k`` is ``kits.ARRAYS``, ``saved`` the saved arrays); ``create_graph=True``
  runs the same formula on tensors (``k`` is ``kits.TENSORS``, ``saved`` the saved values as tensors: the inputs
  themselves, or the output with this node as its ``grad_fn``), so that the gradient has a graph of its own;
- ``templates``: the local chain-rule step for each input, as the frontend shows it (``"{grad} · {1}"``);
- ``api``: PyTorch's names (``torch.exp``, ``x.exp()``, ``x.exp_()``) and signature (see ``engine.ops.api``).

The leading underscores keep the math out of reach of user code, which sees the node as ``y.grad_fn`` and must
never get a numpy array from it.

Example::

    >>> class ExpBackward0(Function):
    ...     api = Api("exp", signature="Tensor input")
    ...     templates = ("{grad} · {out}",)
    ...     @staticmethod
    ...     def _forward(ctx, a): r = np.exp(a); ctx._save(result=r); return r
    ...     def _backward(ctx, k, g, s): return (g * s["result"],)
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, ClassVar

import numpy as np

from engine.graph import FREED, FREED_MESSAGE, Node, edge
from engine.meta import MetaArray, check_devices
from engine.ops.api import Api, declare
from engine.run_state import hold, state
from engine.tensor import _TYPE_NAMES, Tensor

# The two kits backward formulas run with (numpy arrays, tensors), set by engine.ops.kits when it loads.
_KITS: list[Any] = [None, None]


def use_kits(arrays: Any, tensors: Any) -> None:
    """Set the kits every ``_backward`` runs with (``engine.ops.kits`` does, once)."""
    _KITS[0], _KITS[1] = arrays, tensors


class Unsupported(NotImplementedError):
    """A formula needs a function the tensor kit does not have: ``create_graph=True`` cannot go through that node."""


class _NoCtx:
    """Stand-in ctx when no graph is recorded: saving is a no-op."""

    _needs_input_grad: tuple[bool, ...] = ()

    def _save(*args: Any, **values: Any) -> None:
        pass

    def __setattr__(self, name: str, value: Any) -> None:
        pass


NO_CTX = _NoCtx()


class Function(Node):
    """Base of every op: ``apply`` runs forward and, when grad mode is on and an input requires grad, records this
    node as the result's ``grad_fn``."""

    api: ClassVar[Api | None] = None  # PyTorch's names for this op, when it is a torch function of its own
    templates: ClassVar[tuple[str | None, ...]] = ()  # the chain-rule step for each input (see ``formulas``)
    broadcasts: ClassVar[bool] = False  # inputs broadcast to the result: their gradients are summed back
    family: ClassVar[bool] = False  # a base class of a family of ops (the table rows' ``Elementwise``), no node
    _saved_fields: ClassVar[tuple[str, ...]] = ()  # names shown as ``_saved_<name>`` (PyTorch's spelling)
    # The meta rule: the result's shape and dtype from the inputs' (``engine.ops.meta_rules``), for meta tensors.
    meta: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        api = cls.__dict__.get("api")
        if api is not None:
            declare(api, _function_of(cls, api.name), f"{cls.__module__}.{cls.__name__}")

    @staticmethod
    def _forward(ctx: Any, *args: Any, **kwargs: Any) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs: Tensor, **params: Any) -> Tensor:
        st = state()
        record = st.grad_enabled and any(t._requires_grad for t in inputs)
        ctx: Any = cls() if record else NO_CTX
        if record:
            ctx._needs_input_grad = tuple(t._requires_grad for t in inputs)
            ctx.next_functions = tuple(edge(t) for t in inputs)
        arrays = [t._data for t in inputs]
        if MetaArray in map(type, arrays):  # the meta device: the shape and dtype only, by the op's meta rule
            out = _meta_forward(cls, ctx, inputs, params)
        elif st.floats_quiet:  # the run ignores them already (engine.runner)
            out = cls._forward(ctx, *arrays, **params)
        else:
            with np.errstate(all="ignore"):  # inf/nan follow IEEE rules silently, as in PyTorch
                out = cls._forward(ctx, *arrays, **params)
        # numpy gives scalars for 0-d results: keep arrays (and what was saved)
        if type(out) is not np.ndarray and type(out) is not MetaArray:
            arr = np.asarray(out)
            if record:
                for key, v in ctx._saved.items():
                    if v is out:
                        ctx._saved[key] = arr
            out = arr
        result = Tensor._make(out, ctx if record else None, record)
        if record:
            ctx._in_shapes = tuple(t._data.shape for t in inputs)
            if ctx._saved:
                _track_saved(ctx, inputs, result)
                if st.budget is not None:  # what the node keeps outlives the tensors (y = y.relu() in a loop)
                    for v in ctx._saved.values():
                        if type(v) is np.ndarray:
                            hold(v)
        obs = st.observer
        if obs is not None:
            obs.tensor_created(result)
        return result

    # ---- backward: one formula, run on arrays or on tensors ---------------------------------------------------
    def _apply(self, grad: np.ndarray) -> tuple[np.ndarray | None, ...]:
        self._check_saved()
        if type(grad) is MetaArray:  # a meta gradient: each input's has that input's shape and dtype, no values
            return tuple(
                MetaArray(shape, getattr(self, "_in_dtypes", {}).get(i, grad.dtype)) if need else None
                for i, (shape, need) in enumerate(zip(self._in_shapes, self._needs_input_grad, strict=True))
            )
        return self._backward(_KITS[0], grad, self._saved)

    def _apply_with_graph(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        self._check_saved()
        saved = {key: self._unpack(v) for key, v in self._saved.items()}
        try:
            return self._backward(_KITS[1], grad, saved)
        except Unsupported:
            raise NotImplementedError(
                f"create_graph=True through {self.name()} is not supported by gradtrace's engine"
            ) from None

    def _check_saved(self) -> None:
        if self._freed and any(v is FREED for v in self._saved.values()):
            raise RuntimeError(FREED_MESSAGE)
        versions = self.__dict__.get("_versions")
        if versions and not self._freed:
            for ref, v, is_result in versions:
                t = ref() if is_result else ref
                if t is not None and t._version != v:
                    raise RuntimeError(_modified_message(t, v, self if is_result else t._grad_fn))

    def __call__(self, *grad_outputs: Any) -> Any:
        """``y.grad_fn(g)``: this node's local chain rule on an upstream gradient ``g``, as tensors: one per input
        (a tuple when there are several), differentiable like PyTorch's."""
        if not grad_outputs or not isinstance(grad_outputs[0], Tensor):
            raise TypeError(f"{self.name()}: expected a Tensor holding the gradient of the output")
        st = state()
        prev, st.grad_enabled = st.grad_enabled, True
        try:
            with np.errstate(all="ignore"):
                grads = self._apply_with_graph(grad_outputs[0])
        finally:
            st.grad_enabled = prev
        return grads[0] if len(grads) == 1 else tuple(grads)

    # ---- saved values, as user code sees them (y.grad_fn._saved_self) ----------------------------------------
    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_saved_") and attr[7:] in type(self)._saved_fields:
            value = self.__dict__["_saved"].get(attr[7:])
            if value is FREED:
                raise RuntimeError(FREED_MESSAGE)
            return self._unpack(value)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def _unpack(self, value: Any) -> Any:
        """A saved value as a tensor: the input tensor itself, or the output (with this grad_fn), or a constant."""
        if type(value) is MetaArray:
            return Tensor._make(value)
        if isinstance(value, np.ndarray):
            for t in self.__dict__.get("_inputs", ()):
                if t is not None and t._data is value:
                    return t
            if value is self.__dict__.get("_result_data"):
                return Tensor._make(value, self, True)
            return Tensor._make(value)
        return value

    def _release(self) -> None:
        super()._release()
        self.__dict__.pop("_versions", None)
        self.__dict__.pop("_inputs", None)
        self.__dict__.pop("_result_data", None)

    # ---- the chain rule as the frontend shows it --------------------------------------------------------------
    def formulas(self) -> list[str | None]:
        """The local chain-rule step for each edge of ``next_functions`` (None where no gradient flows), written
        with placeholders: ``{grad}`` (this node's incoming gradient), ``{out}`` (its output), ``{0}``, ``{1}`` …
        (its inputs) and ``{0.shape}`` …; Python numbers are written in (``x * 2``: ``"{grad} · 2"``).

        Example::

            >>> (x * y).grad_fn.formulas()
            ['{grad} · {1}', '{grad} · {0}']
        """
        present = tuple(node is not None for node, _ in self.next_functions)
        constants = tuple(self.__dict__.get("_constants", {}).items())
        shapes = self.__dict__.get("_in_shapes", ())
        return list(_formulas(tuple(self._templates()), shapes, self.broadcasts, constants, present))

    def _templates(self) -> tuple[str | None, ...]:
        """The templates of this node (an op whose formula depends on its parameters overrides this)."""
        return type(self).templates


def _meta_forward(cls: type[Function], ctx: Any, inputs: tuple[Tensor, ...], params: dict[str, Any]) -> Any:
    """The result of ``cls`` on meta tensors: its shape and dtype, by the op's meta rule; nothing is computed. A
    Python number or a 0-d CPU tensor may take part (as in PyTorch); any other CPU tensor may not."""
    check_devices([(t._data, type(t) is WrappedNumber) for t in inputs])
    rule = cls.meta
    if rule is None:
        name = cls.api.name if cls.api is not None else cls.__name__
        raise NotImplementedError(
            f"{name}: attempted to run this operator with Meta tensors, but gradtrace's engine has no meta rule "
            "(shape and dtype without values) for it"
        )
    out = rule(cls, ctx, [t._data for t in inputs], params)
    if ctx is not NO_CTX:
        ctx._in_dtypes = {i: t._data.dtype for i, t in enumerate(inputs)}
        for key, v in ctx._saved.items():  # what the forward saved of its stand-ins: shapes, never values
            if isinstance(v, np.ndarray):
                ctx._saved[key] = MetaArray(v.shape, v.dtype)
    return out


@functools.lru_cache(maxsize=4096)
def _formulas(
    templates: tuple[str | None, ...],
    shapes: tuple[tuple[int, ...], ...],
    broadcasts: bool,
    constants: tuple[tuple[int, str], ...],
    present: tuple[bool, ...],
) -> tuple[str | None, ...]:
    """``Function.formulas`` of a node with these templates, input shapes, constants and edges (None where absent):
    the same few nodes run in every pass of a loop, so each is written once."""
    out_shape = _broadcast(shapes) if broadcasts and shapes else None
    found: list[str | None] = []
    for i, here in enumerate(present):
        text = templates[i] if i < len(templates) else templates[-1] if templates else None
        if not here or text is None:
            found.append(None)
            continue
        text = text.replace("{i}", f"{{{i}}}")
        if out_shape is not None and i < len(shapes) and shapes[i] != out_shape:
            text += f" summed to {{{i}.shape}}"
        for j, value in constants:
            text = text.replace(f"{{{j}}}", value)
        found.append(text)
    return tuple(found)


def number(v: Any) -> str:
    """A constant as a formula shows it: ``2``, ``0.5``, ``-1``."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:g}" if isinstance(v, float) else str(v)


def _broadcast(shapes: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    n = max(len(s) for s in shapes)
    padded = [(1,) * (n - len(s)) + tuple(s) for s in shapes]
    return tuple(max(dims) if 0 not in dims else 0 for dims in zip(*padded))


def _function_of(cls: type[Function], name: str) -> Any:
    """The torch function of an op class: its ``call`` (checks and conversions first), else ``apply`` on one input."""
    call = cls.__dict__.get("call")
    if call is not None:
        fn = call.__func__ if isinstance(call, staticmethod) else call
        fn.__name__ = fn.__qualname__ = name  # Python's own errors name the torch function: "add() takes …"
        return fn
    apply = cls.apply

    def op(input: Tensor) -> Tensor:
        return apply(input)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = cls.__doc__
    return op


def _track_saved(ctx: Function, inputs: tuple[Tensor, ...], result: Tensor) -> None:
    """Note the version of every tensor whose values backward will read (to catch in-place changes later), and
    keep those tensors (only those: an op that saves nothing keeps nothing alive, as in PyTorch)."""
    saved = ctx._saved
    keys = {id(v) for v in saved.values() if isinstance(v, np.ndarray)}
    versions = []
    kept: list[Tensor | None] = []
    for i, t in enumerate(inputs):
        if id(t._data) not in keys:
            kept.append(None)
            continue
        kept.append(t)
        if type(t) is not WrappedNumber:
            versions.append((t, t._version, False))
        else:  # a Python number the formula reads: written into it (x * 2: "{grad} · 2")
            ctx._constants = {**ctx.__dict__.get("_constants", {}), i: number(t._data.item())}
    ctx._inputs = tuple(kept)
    if id(result._data) in keys:
        ctx._result_data = result._data
        versions.append((weakref.ref(result), 0, True))  # weak: a node must not keep its own output alive
    if versions:
        ctx._versions = versions


class WrappedNumber(Tensor):
    """A Python number taking part in a tensor op (``x * 2``): a 0-d tensor that requires no grad."""

    __slots__ = ()


def _modified_message(t: Tensor, expected: int, node: Node | None) -> str:
    shape = ", ".join(str(s) for s in t._data.shape)
    desc = f"[torch.{_TYPE_NAMES[t._data.dtype.name]}Tensor [{shape}]]"
    if node is not None:
        name = node.name()
        base = name[: name.rfind("Backward")] if "Backward" in name else name
        desc += f", which is output 0 of {base},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"{desc} is at version {t._version}; expected version {expected} instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


modified_message = _modified_message  # (custom autograd Functions check their saved tensors with it)


def save_cross(ctx: Any, name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
    """Save what a product's backward needs: ``a`` only if b needs a gradient, ``b`` only if a does."""
    need = ctx._needs_input_grad
    if not need:
        return
    if need[1]:
        ctx._save(**{name_a: a})
    if need[0]:
        ctx._save(**{name_b: b})


__all__ = ["Function", "NO_CTX", "modified_message", "Unsupported", "WrappedNumber", "number", "save_cross", "use_kits"]

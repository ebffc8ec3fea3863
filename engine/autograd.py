"""The backward pass: ``backward`` and ``torch.autograd.grad`` over the graph of ``engine.graph``.

Every op result that requires grad carries a ``grad_fn`` node. A node knows the nodes of its inputs
(``next_functions``); leaves are reached through an ``AccumulateGrad`` node whose ``.variable`` is the leaf.
``backward`` walks the graph from the root in topological order, without recursion, handing each node the sum
of the gradients flowing into it (the chain rule), and adds what reaches a leaf to its ``.grad``.

Example::

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> y = (x ** 2).sum()
    >>> y.grad_fn.next_functions
    ((<PowBackward0 object at 0x...>, 0),)
    >>> y.backward(); x.grad
    tensor([2., 4., 6.])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engine.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401 - torch.autograd's
from engine.graph import (  # noqa: F401 - the graph's names are also torch.autograd's
    CREATE_GRAPH_WARNING,
    FREED_MESSAGE,
    NON_LEAF_GRAD_WARNING,
    AccumulateGrad,
    Node,
    edge,
)
from engine.meta import MetaArray, is_meta
from engine.ready_queue import ReadyQueue
from engine.run_state import hold, quiet_floats, state
from engine.tensor import Tensor

# create_graph=True copies a gradient into a leaf's fresh .grad with an op (CopyBackwards) of the floor above,
# which hands it down when it loads (engine.ops.shape); tensors' own operators do the rest (``old + delta``).
_copy_op: list[Callable[[Tensor], Tensor]] = []


def use_copy_op(copy: Callable[[Tensor], Tensor]) -> None:
    """Set the op that copies a gradient with a graph into a leaf's ``.grad`` (``CopyBackwards``)."""
    _copy_op[:] = [copy]


def _accumulate(leaf: Tensor, delta: np.ndarray) -> None:
    """Add ``delta`` to ``leaf.grad`` (creating it when None), telling the observer."""
    if is_meta(delta):  # a meta gradient: .grad is (stays) a meta tensor of the leaf's shape, no sum
        if leaf._grad is None:
            leaf._grad = Tensor._make(MetaArray(leaf._data.shape, leaf._data.dtype))
            leaf._grad._owner = leaf
        return
    obs = state().observer
    if delta.dtype != leaf._data.dtype:
        delta = delta.astype(leaf._data.dtype)
    if delta.shape != leaf._data.shape:
        delta = np.broadcast_to(delta, leaf._data.shape)
    g = leaf._grad
    if g is None:
        leaf._grad = Tensor._make(np.array(delta, copy=True))
        leaf._grad._owner = leaf
        hold(leaf._grad._data)
        if obs is not None:
            obs.grad_accumulated(leaf, None, delta, leaf._grad._data)
    else:
        before = g._data.copy() if obs is not None else None
        np.add(g._data, delta, out=g._data)  # PyTorch adds in place: a saved reference to .grad sees the change
        g._version += 1
        if obs is not None:
            obs.grad_accumulated(leaf, before, delta, g._data)


def _accumulate_with_graph(leaf: Tensor, delta: Tensor) -> None:
    """create_graph=True: ``.grad`` becomes a tensor with a graph (new, or ``old + delta``, out of place)."""
    obs = state().observer
    old = leaf._grad
    before = None if old is None else old._data
    if old is None:
        leaf._grad = _copy_op[0](delta) if delta._requires_grad else Tensor._make(delta._data.copy())
    else:
        leaf._grad = old + delta
    leaf._grad._owner = leaf
    hold(leaf._grad._data)
    if obs is not None:
        obs.grad_accumulated(leaf, before, delta._data, leaf._grad._data)


def _run_backward(
    roots: Sequence[Tensor],
    grads: Sequence[np.ndarray | Tensor],  # Tensors with create_graph=True
    retain_graph: bool,
    capture: Sequence[Tensor] | None = None,
    create_graph: bool = False,
) -> list[Any]:
    """The engine: run every node reachable from ``roots`` once, in topological order.

    With ``capture`` (``torch.autograd.grad``), gradients reaching those tensors are returned instead of
    accumulated into leaves."""
    obs = state().observer
    captured: dict[int, Any] = {}
    capture_keys: dict[int, tuple[int, int]] = {}
    if capture is not None:
        for i, t in enumerate(capture):
            node, nr = edge(t)
            if node is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            capture_keys[id(node)] = (i, nr)

    # 1. Count, for every node, how many edges lead into it (iterative DFS: graphs can be very deep).
    deps: dict[int, int] = {}
    start: list[Node] = []
    pending: dict[int, Any] = {}
    for root, g in zip(roots, grads):
        node, nr = edge(root)
        if node is None:
            continue
        start.append(node)
        _pend(pending, node, nr, g)
    seen: set[int] = set()
    stack = list(start)
    for n in start:
        seen.add(id(n))
    while stack:
        n = stack.pop()
        for nxt, _ in n.next_functions:
            if nxt is None:
                continue
            deps[id(nxt)] = deps.get(id(nxt), 0) + 1
            if id(nxt) not in seen:
                seen.add(id(nxt))
                stack.append(nxt)

    # 2. Run ready nodes, latest-created first (PyTorch's order); AccumulateGrad nodes run as soon as ready.
    ready = ReadyQueue()
    for n in dict((id(n), n) for n in start).values():
        if deps.get(id(n), 0) == 0:
            ready.push(n)
    while ready:
        node = ready.pop()
        grad = pending.pop(id(node))
        hooks = node.variable._hooks if isinstance(node, AccumulateGrad) else node._hooks
        if hooks and node._n_outputs == 1:
            grad = _run_hooks(hooks, grad, create_graph)
        if id(node) in capture_keys:
            i, nr = capture_keys[id(node)]
            captured[i] = grad if node._n_outputs == 1 else grad[nr]
        if isinstance(node, AccumulateGrad):
            if capture is None:
                (_accumulate_with_graph if create_graph else _accumulate)(node.variable, grad)
                for post in list(node._post_hooks or ()):
                    post(node.variable)
            continue
        if node._retained is not None and capture is None and node._n_outputs == 1:
            (_accumulate_with_graph if create_graph else _accumulate)(node._retained, grad)
        if create_graph:
            grad_inputs = node._apply_with_graph(grad)
            if obs is not None:
                shown = grad._data if node._n_outputs == 1 else _first(grad)._data
                obs.node_ran(node, (shown,), tuple(None if g is None else g._data for g in grad_inputs))
        else:
            grad_inputs = node._apply(grad)
            if obs is not None:
                obs.node_ran(node, (grad if node._n_outputs == 1 else _first(grad),), tuple(grad_inputs))
        if node._node_hooks:
            grad_inputs = _run_node_hooks(node, grad, grad_inputs, create_graph)
        if not retain_graph:
            node._release()
        for (nxt, nr), gi in zip(node.next_functions, grad_inputs):
            if nxt is None:
                continue
            key = id(nxt)
            if gi is not None:
                if nxt._n_outputs != 1:
                    _pend(pending, nxt, nr, gi)
                else:
                    prev = pending.get(key)
                    if prev is None:
                        pending[key] = gi
                    else:
                        pending[key] = prev + gi  # arrays, or tensors (create_graph=True: the sum has a graph)
            deps[key] -= 1
            if deps[key] == 0:
                if key in pending:
                    ready.push(nxt)
                else:  # no gradient flowed in at all: skip the whole branch below it
                    _skip(nxt, deps, pending, ready)
    return [captured.get(i) for i in range(len(capture))] if capture is not None else []


def _pend(pending: dict[int, Any], node: Node, nr: int, g: Any) -> None:
    """Add ``g`` to what is pending for output ``nr`` of ``node`` (a list, one slot per output, when it has
    several)."""
    key = id(node)
    prev = pending.get(key)
    if node._n_outputs == 1:
        pending[key] = g if prev is None else prev + g
        return
    if prev is None:
        prev = pending[key] = [None] * node._n_outputs
    prev[nr] = g if prev[nr] is None else prev[nr] + g


def _first(grads: list[Any]) -> Any:
    """The gradient a trace shows for a node with several outputs: the first one that flowed."""
    return next((g for g in grads if g is not None), None)


def _run_hooks(hooks: list[Any], grad: Any, create_graph: bool) -> Any:
    """Tensor hooks see the gradient as a tensor; one that returns a tensor replaces it."""
    for hook in list(hooks):
        shown = grad if create_graph else Tensor._make(grad)
        out = hook(shown)
        if out is not None:
            if not isinstance(out, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(out).__name__}'")
            had = shown._data
            name = getattr(hook, "__name__", "hook")
            if out._data.shape != had.shape:
                raise RuntimeError(f"hook '{name}' has changed the size of value")
            if out._data.dtype != had.dtype:
                raise RuntimeError(f"hook '{name}' has changed the type of value (was {shown.type()} got {out.type()})")
            grad = out if create_graph else out._data
    return grad


def _run_node_hooks(node: Node, grad: Any, grad_inputs: Sequence[Any], create_graph: bool) -> tuple[Any, ...]:
    """``node.register_hook`` functions see the gradients for the node's inputs and the ones it received, as
    tensors; a tuple one returns replaces the gradients for the inputs."""

    def shown(g: Any) -> Any:
        return g if g is None or create_graph else Tensor._make(g)

    ins = tuple(None if nxt is None else shown(g) for (nxt, _), g in zip(node.next_functions, grad_inputs))
    outs = tuple(shown(g) for g in ([grad] if node._n_outputs == 1 else grad))
    for hook in list(node._node_hooks or ()):
        out = hook(ins, outs)
        if out is not None:
            out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if len(out) != len(ins):
                name = getattr(hook, "__name__", "hook")
                raise RuntimeError(
                    f"hook '{name}' has returned an incorrect number of values (got {len(out)}, but expected "
                    f"{len(ins)})"
                )
            ins = out
    return tuple(g if g is None or create_graph else g._data for g in ins)


def _skip(n: Node, deps: dict[int, int], pending: dict[int, np.ndarray], ready: ReadyQueue) -> None:
    stack = [n]
    while stack:
        cur = stack.pop()
        for nxt, _ in cur.next_functions:
            if nxt is None:
                continue
            deps[id(nxt)] -= 1
            if deps[id(nxt)] == 0:
                if id(nxt) in pending:
                    ready.push(nxt)
                else:
                    stack.append(nxt)


def _check_inputs(inputs: Sequence[Any]) -> None:
    for t in inputs:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")


def _initial_grads(
    tensors: Sequence[Tensor], grad_tensors: Sequence[Any] | None, *, check_requires: bool = True
) -> list[np.ndarray]:
    out = []
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if check_requires and not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        g = None if grad_tensors is None else grad_tensors[i]
        if g is None:
            if t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            out.append(t._data.copy() if is_meta(t._data) else np.ones_like(t._data))
            continue
        arr = g._data if isinstance(g, Tensor) else np.asarray(g, dtype=t._data.dtype)
        if arr.shape != t._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_size(arr.shape)} and output[{i}] has a "
                f"shape of {_size(t._data.shape)}."
            )
        out.append(arr.astype(t._data.dtype, copy=False))
    return out


def _given_grads(given: Any) -> list[Any] | None:
    """``gradient=`` / ``grad_outputs=`` read as PyTorch reads them: None, one tensor, or an iterable of tensors
    (``backward(3.0)`` fails at ``list(3.0)``, ``backward([1.0])`` at the float inside)."""
    if given is None:
        return None
    listed: list[Any] = [given] if isinstance(given, Tensor) else list(given)
    for g in listed:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return listed


def _size(shape: tuple[int, ...]) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def backward(
    tensors: Tensor | Sequence[Tensor],
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """``torch.autograd.backward``: accumulate d(tensors)/d(leaf) into every leaf's ``.grad``."""
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    roots = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    grad_tensors = _given_grads(grad_tensors)
    grads = _initial_grads(roots, grad_tensors)
    if inputs is not None:
        _check_inputs(inputs)
    keep = bool(create_graph if retain_graph is None else retain_graph)
    obs = state().observer
    if obs is not None:
        if create_graph:
            obs.warning(CREATE_GRAPH_WARNING)
        for r, g in zip(roots, grads):
            obs.backward_started(r, g, keep)
    found = _run_guarded(roots, grads, keep, inputs, create_graph, grad_tensors)
    # backward(inputs=[a]): only these tensors' .grad change (leaves or not), as if the rest of the graph were frozen
    for t, g in zip(inputs or (), found):
        if g is not None:
            (_accumulate_with_graph if create_graph else _accumulate)(t, g)


def _run_guarded(
    roots: Sequence[Tensor], grads: list[np.ndarray], keep: bool, capture: Any, create_graph: bool, given: Any
) -> list[Any]:
    """Run the engine with numpy warnings off; with create_graph, in grad mode and on tensors."""
    with quiet_floats():
        if not create_graph:
            return _run_backward(roots, grads, keep, capture)
        st = state()
        prev, st.grad_enabled = st.grad_enabled, True
        try:
            seeds = [
                given[i] if given is not None and isinstance(given[i], Tensor) else Tensor._make(g)
                for i, g in enumerate(grads)
            ]
            return _run_backward(roots, seeds, keep, capture, create_graph=True)
        finally:
            st.grad_enabled = prev


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
) -> tuple[Tensor | None, ...]:
    """``torch.autograd.grad``: return d(outputs)/d(inputs) without touching any ``.grad``.

    Example::

        >>> x = torch.tensor(3., requires_grad=True)
        >>> torch.autograd.grad(x ** 2, x)
        (tensor(6.),)
    """
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grad_outputs = _given_grads(grad_outputs)
    grads = _initial_grads(outs, grad_outputs)
    _check_inputs(ins)  # after the outputs' checks, as PyTorch orders them
    keep = bool(create_graph if retain_graph is None else retain_graph)
    obs = state().observer
    if obs is not None:
        for r, g in zip(outs, grads):
            obs.backward_started(r, g, keep)
    found = _run_guarded(outs, grads, keep, ins, create_graph, grad_outputs)
    result: list[Tensor | None] = []
    for i, (t, g) in enumerate(zip(ins, found)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
            result.append(None)
            continue
        if create_graph:
            result.append(g)
            continue
        if g.shape != t._data.shape:
            g = np.broadcast_to(g, t._data.shape)
        out = Tensor._make(np.array(g, dtype=t._data.dtype, copy=True))
        if obs is not None:
            obs.tensor_created(out)
        result.append(out)
    return tuple(result)

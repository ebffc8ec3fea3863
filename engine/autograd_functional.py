"""``torch.autograd.functional``: ``jacobian``, ``hessian``, ``vjp`` and ``jvp``-free helpers built on
``torch.autograd.grad`` one output element at a time (as PyTorch's non-vectorized path does).

Example::

    >>> jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.autograd import enable_grad, grad
from engine.ops import factories, pieces, shape
from engine.ops.shape import clone
from engine.tensor import Tensor


def _as_tuple(x: Any) -> tuple[bool, tuple[Tensor, ...]]:
    return (True, tuple(x)) if isinstance(x, (tuple, list)) else (False, (x,))


def _checked_tuple(x: Any, what: str, fn: str) -> tuple[bool, tuple[Tensor, ...]]:
    """PyTorch's reading of ``inputs`` / outputs here: one tensor or a tuple of tensors (a list is one bad value)."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {what}"
            raise TypeError(
                f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but {where} has "
                f"type {type(el)}."
            )
    return is_tuple, items


def _prepare(inputs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(clone(t))  # keep the link to the caller's graph (hessian's outer jacobian needs it)
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out)


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """d func(inputs) / d inputs: for one input and one output, a tensor of shape ``out.shape + in.shape``."""
    return _jacobian(func, inputs, create_graph, "jacobian")


def _jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool, fn: str) -> Any:
    is_in_tuple, ins = _checked_tuple(inputs, "inputs", fn)
    with enable_grad():
        ins = _prepare(ins, create_graph)
        outputs = func(*ins)
        is_out_tuple, outs = _checked_tuple(outputs, "outputs of the user-provided function", fn)
        table: list[list[Tensor]] = []
        for out in outs:
            rows: list[list[Tensor]] = [[] for _ in ins]
            flat = shape.reshape(out, -1)
            for i in range(flat._data.size):
                if out.requires_grad:
                    gs = grad(flat[i], ins, retain_graph=True, create_graph=create_graph, allow_unused=True)
                else:
                    gs = (None,) * len(ins)
                for j, (g, x) in enumerate(zip(gs, ins)):
                    rows[j].append(g if g is not None else factories.zeros(*x.shape, dtype=x.dtype))
            per_input = []
            for j, x in enumerate(ins):
                if rows[j]:
                    stacked = pieces.stack(rows[j])
                else:
                    stacked = factories.zeros(0, *x.shape, dtype=x.dtype)
                per_input.append(shape.reshape(stacked, *(tuple(out.shape) + tuple(x.shape))))
            table.append(per_input)
    if not create_graph:
        table = [[t.detach() for t in row] for row in table]
    if is_out_tuple:
        return tuple(tuple(row) if is_in_tuple else row[0] for row in table)
    return tuple(table[0]) if is_in_tuple else table[0][0]


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The matrix of second derivatives of a scalar function: the jacobian of its gradient."""
    is_in_tuple, ins = _checked_tuple(inputs, "inputs", "hessian")

    def gradient(*xs: Tensor) -> Any:
        g = _jacobian(func, xs if is_in_tuple else xs[0], True, "hessian")
        return g

    return _jacobian(gradient, inputs, create_graph, "hessian")


def vjp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(inputs), vᵀ · J): the outputs and the vector-Jacobian product."""
    is_in_tuple, ins = _checked_tuple(inputs, "inputs", "vjp")
    with enable_grad():
        ins = _prepare(ins, create_graph)
        out = func(*ins)
        _checked_tuple(out, "outputs of the user-provided function", "vjp")
        gs = grad(out, ins, grad_outputs=v, create_graph=create_graph, allow_unused=True)
    gs = tuple(g if g is not None else factories.zeros(*x.shape) for g, x in zip(gs, ins))
    out = out if create_graph else out.detach()
    gs = gs if create_graph else tuple(g.detach() for g in gs)
    return out, (gs if is_in_tuple else gs[0])


def _grads(outputs: tuple[Tensor, ...], inputs: tuple[Tensor, ...], v: Any, create_graph: bool) -> tuple[Any, ...]:
    """PyTorch's ``_autograd_grad``: ``grad`` over the outputs that require grad only (None for every input if none
    does), each with its entry of ``v``."""
    vs = (None,) * len(outputs) if v is None else v
    kept = [(o, g) for o, g in zip(outputs, vs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    outs, gos = tuple(o for o, _ in kept), tuple(g for _, g in kept)
    return grad(outs, inputs, gos, create_graph=create_graph, allow_unused=True)


def _zeros_for_none(gs: tuple[Any, ...], refs: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
    return tuple(g if g is not None else factories.zeros_like(r) for g, r in zip(gs, refs))


def _vector(v: Any, fn: str) -> Any:
    return None if v is None else _checked_tuple(v, "v", fn)[1]


def jvp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(inputs), J · v), by PyTorch's double-backward trick: the vector-Jacobian product ``g ↦ Jᵀg`` is linear in
    ``g``, so its own vector-Jacobian product with ``v`` is ``J v``."""
    is_in_tuple, ins = _checked_tuple(inputs, "inputs", "jvp")
    vs = _vector(v, "jvp")
    with enable_grad():
        ins = _prepare(ins, create_graph)
        is_out_tuple, outs = _checked_tuple(func(*ins), "outputs of the user-provided function", "jvp")
        grad_outputs = tuple(factories.zeros_like(o).requires_grad_(True) for o in outs)
        grad_inputs = _grads(outs, ins, grad_outputs, True)
        res = _zeros_for_none(_grads(grad_inputs, grad_outputs, vs, create_graph), outs)
    return _finish(outs, is_out_tuple, res, is_out_tuple, create_graph)


def _scalar_function(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, fn: str) -> Any:
    """vhp's and hvp's common start: the inputs, ``v``, the one-element output and its gradient (with a graph)."""
    is_in_tuple, ins = _checked_tuple(inputs, "inputs", fn)
    vs = _vector(v, fn)
    ins = _prepare(ins, create_graph)
    is_out_tuple, outs = _checked_tuple(func(*ins), "outputs of the user-provided function", fn)
    if is_out_tuple:
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain a single element")
    return is_in_tuple, ins, vs, outs, _grads(outs, ins, None, True)


def vhp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(inputs), vᵀ · H) for a scalar ``func``: the gradient of the gradient, weighted by ``v``."""
    with enable_grad():
        is_in_tuple, ins, vs, outs, jac = _scalar_function(func, inputs, v, create_graph, "vhp")
        res = _zeros_for_none(_grads(jac, ins, vs, create_graph), ins)
    return _finish(outs, False, res, is_in_tuple, create_graph)


def hvp(
    func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """(func(inputs), H · v) for a scalar ``func``, by the double-backward trick on the gradient (as PyTorch)."""
    with enable_grad():
        is_in_tuple, ins, vs, outs, jac = _scalar_function(func, inputs, v, create_graph, "hvp")
        grad_jac = tuple(factories.zeros_like(x).requires_grad_(True) for x in ins)
        double_back = _grads(jac, ins, grad_jac, True)
        res = _zeros_for_none(_grads(double_back, grad_jac, vs, create_graph), ins)
    return _finish(outs, False, res, is_in_tuple, create_graph)


def _finish(outs: tuple[Tensor, ...], out_tuple: bool, res: tuple[Tensor, ...], res_tuple: bool, graph: bool) -> Any:
    if not graph:
        outs, res = tuple(o.detach() for o in outs), tuple(r.detach() for r in res)
    return (outs if out_tuple else outs[0]), (res if res_tuple else res[0])


__all__ = ["jacobian", "hessian", "vjp", "jvp", "vhp", "hvp", "gradcheck"]


class GradcheckError(RuntimeError):
    """``torch.autograd.gradcheck`` found analytical and numerical gradients that disagree."""


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    **_: Any,
) -> bool:
    """Compare backward's gradients with central finite differences (inputs should be float64). The numerical
    Jacobian takes one pair of forward calls per input element, every output at once (as PyTorch's does); the
    analytical one, one backward per output element."""
    _, ins = _as_tuple(inputs)
    with enable_grad():
        outs = _as_tuple(func(*ins))[1]
        diff = [x for x in ins if x.requires_grad]
        # numeric[j][k][i, m]: d out_k[i] / d x_j[m], from (f(x + eps) - f(x - eps)) / (2 eps)
        numeric = []
        for x in diff:
            data = x._data.reshape(-1)
            columns = [np.empty((out.numel(), data.size)) for out in outs]
            for m in range(data.size):
                orig = data[m]
                data[m] = orig + eps
                hi = [o._data.reshape(-1).astype(np.float64) for o in _as_tuple(func(*ins))[1]]
                data[m] = orig - eps
                lo = [o._data.reshape(-1).astype(np.float64) for o in _as_tuple(func(*ins))[1]]
                data[m] = orig
                for k, column in enumerate(columns):
                    column[:, m] = (hi[k] - lo[k]) / (2 * eps)
            numeric.append(columns)
        for k, out in enumerate(outs):
            flat_out = out.reshape(-1)
            for i in range(flat_out.numel()):
                analytic = grad(flat_out[i], diff, retain_graph=True, allow_unused=True)
                for j, a in enumerate(analytic):
                    a_vals = a._data.reshape(-1) if a is not None else None
                    for m in range(numeric[j][k].shape[1]):
                        num = float(numeric[j][k][i, m])
                        got = 0.0 if a_vals is None else float(a_vals[m])
                        if abs(got - num) > atol + rtol * abs(num):
                            if not raise_exception:
                                return False
                            raise GradcheckError(
                                f"Jacobian mismatch for output {k} with respect to input {j},\n"
                                f"numerical:{num}\nanalytical:{got}\n"
                            )
    return True

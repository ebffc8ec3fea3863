"""Backward formulas written with tensor ops, for ``create_graph=True`` (gradients of gradients).

Normally backward runs on plain arrays. With ``create_graph=True`` each node's gradient is computed by these
functions instead, using the same ops as user code, so the gradients are tensors with their own ``grad_fn``
and can be differentiated again.

Example::

    >>> x = torch.tensor(3., requires_grad=True)
    >>> (g,) = torch.autograd.grad(x ** 3, x, create_graph=True)    # 3x² = 27, with a graph
    >>> torch.autograd.grad(g, x)                                    # 6x = 18
    (tensor(18.),)
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from engine.ops import arith, indexing, linalg, reduce, shape, unary
from engine.ops.base import made
from engine.tensor import Tensor

Grads = tuple["Tensor | None", ...]


def _in(ctx: Any, i: int) -> Tensor:
    """An input whose values this node saved (the only inputs a node keeps)."""
    t = ctx._inputs[i]
    assert t is not None, f"{ctx.name()} did not save input {i}"
    return t


def _result(ctx: Any) -> Tensor:
    return Tensor._make(ctx._result_data, ctx, True)


def sum_to(g: Tensor, target: tuple[int, ...]) -> Tensor:
    """Sum a gradient back to an input's shape (the tensor version of ``unbroadcast``)."""
    if g._data.shape == tuple(target):
        return g
    extra = g._data.ndim - len(target)
    dims = list(range(extra)) + [i + extra for i, s in enumerate(target) if s == 1 and g._data.shape[i + extra] != 1]
    out = reduce.sum(g, dim=dims, keepdim=True) if dims else g
    return shape.reshape(out, *target) if out._data.shape != tuple(target) else out


def _need(ctx: Any, i: int) -> bool:
    return bool(ctx._needs_input_grad[i])


def _add(ctx: Any, g: Tensor) -> Grads:
    alpha = ctx._saved.get("alpha", 1)
    sa, sb = ctx._in_shapes
    return sum_to(g, sa), sum_to(g if alpha == 1 else arith.mul(g, alpha), sb)


def _sub(ctx: Any, g: Tensor) -> Grads:
    alpha = ctx._saved.get("alpha", 1)
    sa, sb = ctx._in_shapes
    return sum_to(g, sa), sum_to(arith.mul(g, -alpha), sb)


def _mul(ctx: Any, g: Tensor) -> Grads:
    sa, sb = ctx._in_shapes
    return (sum_to(arith.mul(g, _in(ctx, 1)), sa) if _need(ctx, 0) else None,
            sum_to(arith.mul(g, _in(ctx, 0)), sb) if _need(ctx, 1) else None)


def _div(ctx: Any, g: Tensor) -> Grads:
    sa, sb = ctx._in_shapes
    b = _in(ctx, 1)
    ga = sum_to(arith.div(g, b), sa) if _need(ctx, 0) else None
    gb = sum_to(arith.neg(arith.div(arith.mul(g, _in(ctx, 0)), arith.mul(b, b))), sb) if _need(ctx, 1) else None
    return ga, gb


def _pow0(ctx: Any, g: Tensor) -> Grads:
    a, n = _in(ctx, 0), ctx._saved["exponent"]
    if n == 0:
        return (made(np.zeros_like(a._data)),)
    return (arith.mul(g, arith.mul(arith.pow(a, n - 1), n)),)


def _pow1(ctx: Any, g: Tensor) -> Grads:
    a, b = _in(ctx, 0), _in(ctx, 1)
    sa, sb = ctx._in_shapes
    ga = sum_to(arith.mul(g, arith.mul(b, arith.pow(a, arith.sub(b, 1)))), sa) if _need(ctx, 0) else None
    gb = sum_to(arith.mul(g, arith.mul(_result(ctx), unary.log(a))), sb) if _need(ctx, 1) else None
    return ga, gb


def _relu(ctx: Any, g: Tensor) -> Grads:
    mask = Tensor._make((ctx._saved["result"] > 0).astype(g._data.dtype))
    return (arith.mul(g, mask),)


def _reduce_dims(ctx: Any) -> tuple[tuple[int, ...], tuple[int, ...] | None, bool]:
    s = ctx._saved
    return s["self_sym_sizes"], s.get("dim"), s.get("keepdim", False)


def _expand_back(g: Tensor, target: tuple[int, ...], dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
    if dims is not None and not keepdim:
        for d in sorted(dims):
            g = shape.unsqueeze(g, d)
    return shape.expand(g, *target) if g._data.shape != tuple(target) else g


def _sum(ctx: Any, g: Tensor) -> Grads:
    target, dims, keep = _reduce_dims(ctx)
    return (_expand_back(g, target, dims, keep),)


def _mean(ctx: Any, g: Tensor) -> Grads:
    target, dims, keep = _reduce_dims(ctx)
    n = int(np.prod(target)) if dims is None else int(np.prod([target[d] for d in dims]))
    return (_expand_back(arith.div(g, n), target, dims, keep),)


def _view(ctx: Any, g: Tensor) -> Grads:
    return (shape.reshape(g, *ctx._saved["self_sym_sizes"]),)


def _mm(ctx: Any, g: Tensor) -> Grads:
    return (linalg.mm(g, shape.t(_in(ctx, 1))) if _need(ctx, 0) else None,
            linalg.mm(shape.t(_in(ctx, 0)), g) if _need(ctx, 1) else None)


def _addmm(ctx: Any, g: Tensor) -> Grads:
    return (sum_to(g, ctx._in_shapes[0]) if _need(ctx, 0) else None,
            linalg.mm(g, shape.t(_in(ctx, 2))) if _need(ctx, 1) else None,
            linalg.mm(shape.t(_in(ctx, 1)), g) if _need(ctx, 2) else None)


def _dot(ctx: Any, g: Tensor) -> Grads:
    return (arith.mul(g, _in(ctx, 1)) if _need(ctx, 0) else None,
            arith.mul(g, _in(ctx, 0)) if _need(ctx, 1) else None)


def _scatter_back(ctx: Any, g: Tensor, key: Any) -> Grads:
    out = made(np.zeros(ctx._saved["self_sym_sizes"], dtype=g._data.dtype))
    indexing.setitem(out, key, g)
    return (out,)


def _select(ctx: Any, g: Tensor) -> Grads:
    s = ctx._saved
    return _scatter_back(ctx, g, (slice(None),) * s["dim"] + (s["index"],))


def _slice(ctx: Any, g: Tensor) -> Grads:
    s = ctx._saved
    return _scatter_back(ctx, g, (slice(None),) * s["dim"] + (slice(s["start"], s["end"], s["step"]),))


def _mse(ctx: Any, g: Tensor) -> Grads:
    a, b = _in(ctx, 0), _in(ctx, 1)
    n = int(np.prod(np.broadcast_shapes(*ctx._in_shapes)))
    norm = 2.0 / n if ctx._saved["reduction"] == "mean" else 2.0
    gi = arith.mul(arith.mul(arith.sub(a, b), norm), g)
    return (sum_to(gi, ctx._in_shapes[0]) if _need(ctx, 0) else None,
            sum_to(arith.neg(gi), ctx._in_shapes[1]) if _need(ctx, 1) else None)


FORMULAS: dict[str, Callable[[Any, Tensor], Grads]] = {
    "AddBackward0": _add,
    "SubBackward0": _sub,
    "RsubBackward1": lambda ctx, g: (arith.neg(g),),
    "MulBackward0": _mul,
    "DivBackward0": _div,
    "NegBackward0": lambda ctx, g: (arith.neg(g),),
    "ReciprocalBackward0": lambda ctx, g: (arith.neg(arith.mul(g, arith.mul(_result(ctx), _result(ctx)))),),
    "PowBackward0": _pow0,
    "PowBackward1": _pow1,
    "PowBackward2": lambda ctx, g: (arith.mul(g, arith.mul(_result(ctx), float(np.log(ctx._saved["self"])))),),
    "ExpBackward0": lambda ctx, g: (arith.mul(g, _result(ctx)),),
    "LogBackward0": lambda ctx, g: (arith.div(g, _in(ctx, 0)),),
    "SqrtBackward0": lambda ctx, g: (arith.div(g, arith.mul(_result(ctx), 2)),),
    "TanhBackward0": lambda ctx, g: (arith.mul(g, arith.rsub(arith.mul(_result(ctx), _result(ctx)), 1)),),
    "SigmoidBackward0": lambda ctx, g: (arith.mul(arith.mul(g, arith.rsub(_result(ctx), 1)), _result(ctx)),),
    "SinBackward0": lambda ctx, g: (arith.mul(g, unary.cos(_in(ctx, 0))),),
    "CosBackward0": lambda ctx, g: (arith.mul(g, arith.neg(unary.sin(_in(ctx, 0)))),),
    "ReluBackward0": _relu,
    "SumBackward0": _sum,
    "SumBackward1": _sum,
    "MeanBackward0": _mean,
    "MeanBackward1": _mean,
    "ViewBackward0": _view,
    "UnsafeViewBackward0": _view,
    "CloneBackward0": lambda ctx, g: (g,),
    "CopyBackwards": lambda ctx, g: (g,),
    "TBackward0": lambda ctx, g: (shape.t(g),),
    "TransposeBackward0": lambda ctx, g: (shape.transpose(g, ctx._saved["dim0"], ctx._saved["dim1"]),),
    "PermuteBackward0": lambda ctx, g: (shape.permute(g, *[int(i) for i in np.argsort(ctx._saved["dims"])]),),
    "UnsqueezeBackward0": lambda ctx, g: (shape.squeeze(g, ctx._saved["dim"]),),
    "SqueezeBackward0": _view,
    "SqueezeBackward1": _view,
    "SqueezeBackward4": _view,
    "ExpandBackward0": lambda ctx, g: (sum_to(g, ctx._saved["self_sym_sizes"]),),
    "SelectBackward0": _select,
    "SliceBackward0": _slice,
    "MmBackward0": _mm,
    "AddmmBackward0": _addmm,
    "DotBackward0": _dot,
    "MseLossBackward0": _mse,
    "LogSoftmaxBackward0": lambda ctx, g: (arith.sub(g, arith.mul(unary.exp(_result(ctx)), reduce.sum(
        g, dim=ctx._saved["dim"], keepdim=True))),),
    "SoftmaxBackward0": lambda ctx, g: (arith.mul(_result(ctx), arith.sub(g, reduce.sum(
        arith.mul(g, _result(ctx)), dim=ctx._saved["dim"], keepdim=True))),),
}


def backward_with_graph(node: Any, g: Tensor) -> Grads:
    """One node's gradients as tensors with a graph (for ``create_graph=True``)."""
    if node._freed:
        from engine.autograd import FREED_MESSAGE

        raise RuntimeError(FREED_MESSAGE)
    fn = FORMULAS.get(node.name())
    if fn is None:
        raise NotImplementedError(
            f"create_graph=True through {node.name()} is not supported by gradtrace's engine"
        )
    return fn(node, g)


__all__ = ["backward_with_graph", "sum_to", "FORMULAS"]


from engine.ops import double_more  # noqa: E402, F401 - registers its formulas in FORMULAS

"""More ``create_graph=True`` backward formulas (see ``double.py``), and the rule for piecewise-linear nodes.

A node like ``cat``, ``x[idx]``, ``clamp``, ``abs``, ``max`` or ``nll_loss`` has a local Jacobian J that does not
change when its differentiable inputs change a little (it only picks, scatters, scales by constants or clips), so
its backward ``g ↦ Jᵀg`` is a fixed linear map. We build that map's matrix once (one numpy backward per element
of ``g``) and apply it with a tensor ``mv``, so the gradient stays differentiable in ``g``.

Example::

    >>> x = torch.tensor([0.5, 2.], requires_grad=True)
    >>> (g,) = torch.autograd.grad(torch.cat([x ** 2, x ** 3]).sum(), x, create_graph=True)
    >>> torch.autograd.grad(g.sum(), x)        # d/dx (2x + 3x²) = 2 + 6x
    (tensor([ 5., 14.]),)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ops import arith, linalg, reduce, shape
from engine.ops.base import check_alloc, made
from engine.ops.double import FORMULAS, Grads, _expand_back, _in, _need, _result
from engine.tensor import Tensor

# Nodes whose local Jacobian is piecewise constant in their differentiable inputs.
CONSTANT_JACOBIAN = frozenset("""
    CatBackward0 StackBackward0 ClampBackward1 IndexBackward0 NllLossBackward0 AbsBackward0 WhereBackward0
    MaskedFillBackward0 MaxBackward0 MaxBackward1 MinBackward0 MinBackward1 AmaxBackward0 AminBackward0
    LeakyReluBackward0 RepeatBackward0 ToCopyBackward0 SplitBackward0 SplitWithSizesBackward0 UnbindBackward0
    GatherBackward0 MaximumBackward0 MinimumBackward0 SignBackward0 RoundBackward0 FloorBackward0 CeilBackward0
    CopySlices L1LossBackward0 SortBackward0 TopkBackward0 CumsumBackward0 FlipBackward0 TriuBackward0 TrilBackward0
    DiagEmbedBackward0 DiagonalBackward0_copy
""".split())


def constant_jacobian(ctx: Any, g: Tensor) -> Grads:
    """``Jᵀg`` as a tensor op: the columns of Jᵀ are the node's numpy backward of each basis vector."""
    m = g._data.size
    columns: list[list[np.ndarray | None]] = []
    for j in range(m):
        e = np.zeros(m, dtype=g._data.dtype)
        e[j] = 1
        outs = ctx._backward(e.reshape(g._data.shape))
        if not columns:
            columns = [[] for _ in outs]
            for o in outs:
                if o is not None:
                    check_alloc(int(np.size(o)) * m)
        for i, o in enumerate(outs):
            columns[i].append(None if o is None else np.asarray(o))
    flat_g = shape.reshape(g, m)
    grads: list[Tensor | None] = []
    for i, cols in enumerate(columns):
        if not cols or cols[0] is None or not _need(ctx, i):
            grads.append(None)
            continue
        in_shape, in_dtype = cols[0].shape, cols[0].dtype
        matrix = made(np.stack([c.reshape(-1) for c in cols], axis=1).astype(g._data.dtype))
        out = shape.reshape(linalg.mv(matrix, flat_g), *in_shape) if m else made(np.zeros(in_shape, in_dtype))
        if out._data.dtype != in_dtype:
            from engine import dtypes

            out = shape.to_dtype(out, dtypes.from_numpy(in_dtype))
        grads.append(out)
    return tuple(grads)


def _spread(ctx: Any, g: Tensor) -> tuple[Tensor, Tensor, int]:
    """For var/std: the input, the gradient given back its reduced dims, and n - correction."""
    s = ctx._saved
    a = _in(ctx, 0)
    dim = s["dim"]
    n = a._data.size if dim is None else int(np.prod([a._data.shape[i] for i in dim]))
    g = _expand_back(g, a._data.shape, dim, s["keepdim"]) if dim is not None else g
    return a, g, max(n - s["correction"], 0)


def _centered(ctx: Any, a: Tensor) -> Tensor:
    dim = ctx._saved["dim"]
    return arith.sub(a, reduce.mean(a, dim=list(dim) if dim is not None else None, keepdim=dim is not None))


def _var(ctx: Any, g: Tensor) -> Grads:
    a, g, dof = _spread(ctx, g)
    return (arith.mul(arith.mul(g, 2.0 / dof), _centered(ctx, a)),)


def _std(ctx: Any, g: Tensor) -> Grads:
    a, g, dof = _spread(ctx, g)
    s = ctx._saved
    r = _result(ctx)
    if s["dim"] is not None:
        r = _expand_back(r, a._data.shape, s["dim"], s["keepdim"])
    return (arith.mul(arith.div(g, arith.mul(r, dof)), _centered(ctx, a)),)


def _mv(ctx: Any, g: Tensor) -> Grads:
    a, b = ctx._inputs
    return (arith.mul(shape.unsqueeze(g, 1), b) if _need(ctx, 0) else None,
            linalg.mv(shape.t(a), g) if _need(ctx, 1) else None)


def _bmm(ctx: Any, g: Tensor) -> Grads:
    a, b = ctx._inputs
    return (linalg.bmm(g, shape.transpose(b, 1, 2)) if _need(ctx, 0) else None,
            linalg.bmm(shape.transpose(a, 1, 2), g) if _need(ctx, 1) else None)


def _softplus(ctx: Any, g: Tensor) -> Grads:
    s = ctx._saved
    a = _in(ctx, 0)
    from engine.ops import unary

    smooth = arith.mul(g, unary.sigmoid(arith.mul(a, s["beta"])))
    return (arith.where(made(a._data.astype(np.float64) * s["beta"] > s["threshold"]), g, smooth),)


def _elu(ctx: Any, g: Tensor) -> Grads:
    a, alpha = _in(ctx, 0), ctx._saved["alpha"]
    from engine.ops import unary

    return (arith.where(made(a._data > 0), g, arith.mul(g, arith.mul(unary.exp(a), alpha))),)


def _silu(ctx: Any, g: Tensor) -> Grads:
    a = _in(ctx, 0)
    from engine.ops import unary

    s = unary.sigmoid(a)
    return (arith.mul(g, arith.mul(s, arith.add(arith.mul(a, arith.rsub(s, 1)), 1))),)


def _prod(ctx: Any, g: Tensor) -> Grads:
    a = _in(ctx, 0)
    if not a._data.all():
        raise NotImplementedError("create_graph=True through ProdBackward0 of a tensor holding 0 is not supported")
    return (arith.mul(g, arith.div(_result(ctx), a)),)  # ∏_{j≠i} a_j = ∏ a / a_i


FORMULAS.update({
    "ProdBackward0": _prod,
    "MulBackward1": lambda ctx, g: (arith.mul(g, ctx._saved["other"]),),
    "DivBackward1": lambda ctx, g: (arith.div(g, ctx._saved["other"]),),
    "EluBackward0": _elu,
    "SiluBackward0": _silu,
    "SoftplusBackward0": _softplus,
    "VarBackward0": _var,
    "StdBackward0": _std,
    "MvBackward0": _mv,
    "BmmBackward0": _bmm,
    "Log1PBackward0": lambda ctx, g: (arith.div(g, arith.add(_in(ctx, 0), 1)),),
    "RsqrtBackward0": lambda ctx, g: (arith.mul(g, arith.mul(arith.pow(_result(ctx), 3), -0.5)),),
    "TanBackward0": lambda ctx, g: (arith.mul(g, arith.add(arith.mul(_result(ctx), _result(ctx)), 1)),),
    "Exp2Backward0": lambda ctx, g: (arith.mul(g, arith.mul(_result(ctx), float(np.log(2.0)))),),
    **{name: constant_jacobian for name in CONSTANT_JACOBIAN},
})


__all__ = ["constant_jacobian", "CONSTANT_JACOBIAN"]

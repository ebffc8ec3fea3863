"""Ops whose one node makes several tensors (``Several``), and the first of them: ``torch.std_mean`` and
``torch.var_mean`` (StdMeanBackward0, VarMeanBackward0: the spread and the mean, output_nr 0 and 1).

Example::

    >>> x = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)
    >>> torch.std_mean(x)
    (tensor(1.7078, grad_fn=<StdMeanBackward0>), tensor(2.7500, grad_fn=<StdMeanBackward0>))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.graph import edge
from engine.ops.api import torch_op
from engine.ops.function import NO_CTX, Function, _track_saved, number
from engine.ops.stats import VAR_SIGNATURES, _correction, _dim_arg
from engine.ops.variance import welford as _welford
from engine.run_state import hold, quiet_floats, state
from engine.tensor import Tensor


class Several(Function):
    """Base of an op whose one node makes several tensors (output_nr 0, 1, …): backward gets one gradient per
    output, None where none flowed."""

    family = True

    @classmethod
    def apply_several(cls, *inputs: Tensor, **params: Any) -> tuple[Tensor, ...]:
        st = state()
        record = st.grad_enabled and any(t._requires_grad for t in inputs)
        ctx: Any = cls() if record else NO_CTX
        if record:
            ctx._needs_input_grad = tuple(t._requires_grad for t in inputs)
            ctx.next_functions = tuple(edge(t) for t in inputs)
        with quiet_floats():
            outs = cls._forward(ctx, *[t._data for t in inputs], **params)
        results = tuple(Tensor._make(np.asarray(o), ctx if record else None, record) for o in outs)
        if record:
            ctx._in_shapes = tuple(t._data.shape for t in inputs)
            ctx._n_outputs = len(results)
            ctx._output_index = {id(r): i for i, r in enumerate(results)}
            if ctx._saved:
                _track_saved(ctx, inputs, results[0])
                if st.budget is not None:
                    for v in ctx._saved.values():
                        if type(v) is np.ndarray:
                            hold(v)
        obs = st.observer
        if obs is not None:
            for r in results:
                obs.tensor_created(r)
        return results


# ---- std_mean / var_mean ----------------------------------------------------------------------------------------
def _reduced_count(shape: tuple[int, ...], dim: Any) -> int:
    return math.prod(shape) if dim is None else math.prod(shape[i] for i in dim)


def _reduced_shape(shape: tuple[int, ...], dim: Any, keepdim: bool) -> tuple[int, ...]:
    dims = range(len(shape)) if dim is None else dim
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


class StdMeanBackward0(Several):
    """(std, mean) in one node: d/dx = G_std · (x − mean) / ((n − correction) · std) + G_mean / n."""

    _saved_fields = ("self", "dim", "correction", "keepdim")
    _variance = False

    @classmethod
    def _forward(cls, ctx: Any, a: np.ndarray, dim: Any = None, correction: float = 1.0, keepdim: bool = False) -> Any:
        mean, m2, n = _welford(a, dim)
        spread = m2 / max(n - correction, 0) if n - correction > 0 else m2 * np.nan
        if not cls._variance:
            spread = np.sqrt(spread)
        out_shape = _reduced_shape(a.shape, dim, keepdim)
        spread, mean = spread.astype(a.dtype).reshape(out_shape), mean.astype(a.dtype).reshape(out_shape)
        ctx._save(self=a, dim=dim, correction=correction, keepdim=keepdim)
        if not cls._variance:
            ctx._save(result0=spread)
        return spread, mean

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, dim, keep = s["self"], s["dim"], s["keepdim"]
        shape = ctx._in_shapes[0]
        n = _reduced_count(shape, dim)
        dof = max(n - s["correction"], 0)
        g_spread, g_mean = g
        total = None
        if g_spread is not None:
            scale = g_spread * (2.0 / dof) if type(ctx)._variance else g_spread / (s["result0"] * dof)
            scale = k.expand_back(scale, shape, dim, keep) if dim is not None else scale
            total = scale * (a - k.mean(a, dim, True))
        if g_mean is not None:
            part = g_mean / n
            part = k.expand_back(part, shape, dim, keep) if dim is not None else k.expand(part, shape)
            total = part if total is None else total + part
        return (total,)

    def _templates(self) -> tuple[str | None, ...]:
        n = _reduced_count(self._in_shapes[0], self._saved["dim"])
        dof = number(max(n - self._saved["correction"], 0))
        spread = f"2·({{0}} − mean) / {dof}" if type(self)._variance else f"({{0}} − mean) / ({dof}·std)"
        return (f"{{grad}}[0] · {spread} + {{grad}}[1] / {n}",)


class VarMeanBackward0(StdMeanBackward0):
    """(var, mean) in one node: d/dx = G_var · 2 (x − mean) / (n − correction) + G_mean / n."""

    _variance = True


def _spread_mean(cls: Any, name: str, a: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any) -> Any:
    if isinstance(dim, bool):  # torch.std_mean(x, False): the old positional ``unbiased``
        dim, unbiased = None, dim
    if a._data.dtype.kind != "f":
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    dims = _dim_arg(a, dim)
    return cls.apply_several(a, dim=dims, correction=_correction(unbiased, correction), keepdim=keepdim)


@torch_op("std_mean", method=False, signature=VAR_SIGNATURES)
def std_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Any:
    return _spread_mean(StdMeanBackward0, "std_mean", a, dim, unbiased, keepdim, correction)


@torch_op("var_mean", method=False, signature=VAR_SIGNATURES)
def var_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Any:
    return _spread_mean(VarMeanBackward0, "var_mean", a, dim, unbiased, keepdim, correction)

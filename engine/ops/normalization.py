"""Normalisation and lookup: ``F.batch_norm`` (``NativeBatchNormBackward0``), ``F.layer_norm``
(``NativeLayerNormBackward0``) and ``F.embedding`` (``EmbeddingBackward0``).

Batch norm standardises each channel over the batch (and positions): x̂ = (x − mean) / √(var + eps), then scales
and shifts, y = x̂·weight + bias. In training the batch's own mean and biased variance are used (and the running
statistics move towards them); in eval the running statistics are. Layer norm does the same over the last
dimensions of each sample. Batch norm's statistics are taken in the order of PyTorch's kernel and its transform is
done as PyTorch's (y = x·α + β with α = weight / √(var + eps), β = bias − mean·α); layer norm's forward is
PyTorch's kernel bit for bit (engine/numerics/layer_norm.py: a vectorised Welford cascade, then
(x − mean)·rstd·weight + bias) and so is its backward (engine/numerics/layer_norm_backward.py).

Example::

    >>> F.layer_norm(torch.tensor([[1., 3.]]), (2,))
    tensor([[-1.0000,  1.0000]])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.meta import is_meta
from engine.numerics import layer_norm as layer_norm_kernel
from engine.numerics.layer_norm_backward import layer_norm_backward_rows
from engine.ops.function import Function
from engine.ops.operands import check_alloc
from engine.tensor import _TYPE_NAMES, Tensor


def _none(dtype: Any) -> Tensor:
    """An optional input left out: a tensor that requires no grad, so that its edge is (None, 0)."""
    return Tensor._make(np.zeros(0, dtype=dtype))


def _stats(x: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Mean and biased variance over ``axes``, in float64."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    return mean, ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)


def _batch_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per channel: the mean and the sum of squared deviations, as PyTorch's CPU kernel takes them (one thread), in
    the input's dtype. Channels apart in memory (N, C, L): each sum in double, element after element. Channels next to
    each other ((N, C), or one position per channel): the rows added in the dtype, the squares fused into the sum."""
    c, dt = x.shape[1], x.dtype
    if x.ndim == 2 or math.prod(x.shape[2:]) == 1:
        rows = x.reshape(x.shape[0], c)
        mean = (np.cumsum(rows, axis=0, dtype=dt)[-1].astype(np.float64) / len(rows)).astype(dt)
        d = rows - mean
        acc = np.zeros(c, dt)
        for r in d:
            acc = (acc + r.astype(np.float64) * r).astype(dt)  # y + d·d, one rounding (a fused multiply-add)
        return mean, acc, len(rows)
    per = np.moveaxis(x, 1, 0).reshape(c, -1)
    mean = (np.cumsum(per, axis=1, dtype=np.float64)[:, -1] / per.shape[1]).astype(dt)
    d = (per - mean[:, None]).astype(dt)
    return mean, np.cumsum(d * d, axis=1, dtype=np.float64)[:, -1].astype(dt), per.shape[1]


def _norm_backward(
    g: np.ndarray, xhat: np.ndarray, rstd: np.ndarray, w: np.ndarray | None, axes: tuple[int, ...]
) -> np.ndarray:
    """d/dx of (x − mean)·rstd·w, the statistics taken over ``axes``: rstd·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)), ĝ = g·w."""
    gh = g.astype(np.float64) * (1.0 if w is None else w.astype(np.float64))
    return rstd * (gh - gh.mean(axis=axes, keepdims=True) - xhat * (gh * xhat).mean(axis=axes, keepdims=True))


def _graph_backward(
    k: Any,
    g: Any,
    x: Any,
    w: Any,
    axes: tuple[int, ...],
    batch: tuple[int, ...],
    eps: float,
    shape: tuple[int, ...],
    rstd: Any = None,
) -> tuple[Any, Any, Any]:
    """The same gradients on tensors (create_graph=True), the statistics recomputed from x with the engine's ops so
    that they are differentiated too (``rstd`` given: fixed running statistics, eval mode)."""
    wv = None if w is None else k.reshape(w, shape)
    if rstd is None:
        xc = x - k.mean(x, axes, True)
        r = (k.mean(xc * xc, axes, True) + eps) ** -0.5
        xhat = xc * r
        gh = g if wv is None else g * wv
        gx = r * (gh - k.mean(gh, axes, True) - xhat * k.mean(gh * xhat, axes, True))
    else:
        mean, r = rstd
        xhat = (x - k.const(mean)) * k.const(r)
        gx = g * k.const(r) if wv is None else g * k.const(r) * wv
    if not batch:  # one sample: nothing to sum over
        return gx, g * xhat, g
    return gx, k.sum(g * xhat, batch, False), k.sum(g, batch, False)


class NativeBatchNormBackward0(Function):
    """(x − mean)/√(var + eps)·w + b per channel: d/dx = w/σ·(g − mean(g) − x̂·mean(g·x̂)) with the batch's
    statistics (training) or w/σ·g with the running ones (eval); d/dw = Σ g·x̂; d/db = Σ g."""

    templates = (
        "{grad} · {1}/σ, minus its mean and its projection on x̂ (batch statistics)",
        "Σ {grad} · x̂ over the batch and positions",
        "Σ {grad} over the batch and positions",
    )
    _saved_fields = ("input", "weight", "running_mean", "running_var", "training", "eps", "result1", "result2")

    @staticmethod
    def _forward(
        ctx: Any,
        x: np.ndarray,
        w: np.ndarray,
        b: np.ndarray,
        running: Any = None,
        training: bool = True,
        momentum: float = 0.1,
        eps: float = 1e-5,
        affine: tuple[bool, bool] = (True, True),
    ) -> np.ndarray:
        shape = (1, -1) + (1,) * (x.ndim - 2)
        rm, rv = running if running is not None else (None, None)
        if training:
            mean32, var_sum, n = _batch_stats(x)
            var32 = var_sum / x.dtype.type(n)
            if rm is not None:  # the running statistics move towards the batch's (the variance unbiased)
                m = rm.dtype.type(momentum)  # PyTorch's kernel: the momentum and the mean in float, the variance
                rm[...] = m * mean32.astype(rm.dtype) + (1 - m) * rm  # divided in float, its product in double
                unbiased = (var_sum / x.dtype.type(n - 1)).astype(np.float64) if n > 1 else np.full(var32.size, np.nan)
                rv[...] = (np.float64(m) * unbiased + ((1 - m) * rv).astype(np.float64)).astype(rv.dtype)
            mean, var = mean32.astype(np.float64).reshape(shape), var32.astype(np.float64).reshape(shape)
            rstd = (1 / np.sqrt(var + eps)).astype(x.dtype)  # in double, as PyTorch's statistics
        else:
            mean, var = rm.astype(np.float64).reshape(shape), rv.astype(np.float64).reshape(shape)
            rstd = (1 / np.sqrt(rv + x.dtype.type(eps))).astype(x.dtype).reshape(shape)  # in float, as PyTorch
        alpha = rstd * w.reshape(shape) if affine[0] else rstd
        # beta = b - mean·alpha and x·alpha + beta: each with one rounding, as PyTorch's kernel (fused multiply-adds)
        b64 = b.reshape(shape).astype(np.float64) if affine[1] else 0.0
        beta = (b64 - mean.astype(x.dtype).astype(np.float64) * alpha.astype(np.float64)).astype(x.dtype)
        ctx._save(
            input=x,
            weight=w if affine[0] else None,
            training=training,
            eps=eps,
            running_mean=rm,
            running_var=rv,
            result1=mean.reshape(-1).astype(x.dtype) if training else np.zeros(0, x.dtype),
            result2=rstd.reshape(-1) if training else np.zeros(0, x.dtype),
        )
        ctx._norm = (mean, 1 / np.sqrt(var + eps), training, affine)
        return (x.astype(np.float64) * alpha.astype(np.float64) + beta.astype(np.float64)).astype(x.dtype)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        x = s["input"]
        mean, rstd, training, _ = ctx._norm
        axes = (0,) + tuple(range(2, len(ctx._in_shapes[0])))
        w = s["weight"]
        shape = (1, -1) + (1,) * (len(ctx._in_shapes[0]) - 2)
        if isinstance(g, Tensor):
            fixed = None if training else (mean.astype(g._data.dtype), rstd.astype(g._data.dtype))
            grads = _graph_backward(k, g, x, w, axes, axes, ctx._saved["eps"], shape, fixed)
            return tuple(t if need else None for t, need in zip(grads, ctx._needs_input_grad))
        xhat = (x.astype(np.float64) - mean) * rstd
        nx, nw, nb = ctx._needs_input_grad
        gx = None
        if nx:
            if training:
                gx = _norm_backward(g, xhat, rstd, None if w is None else w.reshape(shape), axes)
            else:
                gx = g.astype(np.float64) * rstd * (1.0 if w is None else w.reshape(shape).astype(np.float64))
            gx = gx.astype(x.dtype)
        gw = (g.astype(np.float64) * xhat).sum(axis=axes).astype(x.dtype) if nw else None
        gb = g.astype(np.float64).sum(axis=axes).astype(x.dtype) if nb else None
        return gx, gw, gb


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float | None = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """``F.batch_norm`` (``nn.BatchNorm*d`` passes ``momentum`` = 1 / batches seen for a cumulative average)."""
    x = input._data
    c = x.shape[1] if x.ndim > 1 else 0
    if training:
        n = x.size // max(c, 1)
        if n <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t._data.size != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t._data.size}")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode")
    running = None if running_mean is None else (running_mean._data, running_var._data)
    dt = x.dtype
    out = NativeBatchNormBackward0.apply(
        input,
        weight if weight is not None else _none(dt),
        bias if bias is not None else _none(dt),
        running=running,
        training=training,
        momentum=0.0 if momentum is None else momentum,
        eps=eps,
        affine=(weight is not None, bias is not None),
    )
    if running is not None and training:
        for t in (running_mean, running_var):
            t._version += 1  # written in place, as PyTorch's kernel does
    return out


class NativeLayerNormBackward0(Function):
    """(x − mean)/√(var + eps)·w + b over the last dims of each sample: d/dx = (ĝ − mean(ĝ) − x̂·mean(ĝ·x̂))/σ with
    ĝ = g·w; d/dw = Σ g·x̂ over the samples; d/db = Σ g."""

    templates = (
        "({grad}·{1} − its mean − x̂·mean({grad}·{1}·x̂)) / σ over each sample",
        "Σ {grad} · x̂ over the samples",
        "Σ {grad} over the samples",
    )
    _saved_fields = ("input", "normalized_shape", "weight", "bias", "result1", "result2")

    @staticmethod
    def _forward(
        ctx: Any,
        x: np.ndarray,
        w: np.ndarray,
        b: np.ndarray,
        normalized_shape: tuple[int, ...] = (),
        eps: float = 1e-5,
        affine: tuple[bool, bool] = (True, True),
    ) -> np.ndarray:
        axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
        mean, var = _stats(x, axes)
        rstd64 = 1 / np.sqrt(var + eps)
        if layer_norm_kernel.exact(x) and x.size:  # PyTorch's kernel, bit for bit
            stat_shape = x.shape[: x.ndim - len(axes)] + (1,) * len(axes)
            n = math.prod(normalized_shape)
            m32, r32, y2 = layer_norm_kernel.layer_norm_rows(
                np.ascontiguousarray(x).reshape(-1, n),
                w.reshape(-1) if affine[0] else None,
                b.reshape(-1) if affine[1] else None,
                eps,
            )
            y, kernel_mean, rstd = y2.reshape(x.shape), m32.reshape(stat_shape), r32.reshape(stat_shape)
            ctx._rows = (m32, r32)  # the kernel's statistics, for its backward
        else:
            rstd = 1 / np.sqrt(var.astype(x.dtype) + x.dtype.type(eps))  # in float, as PyTorch's kernel
            kernel_mean = mean.astype(x.dtype)
            y = x * rstd + (-rstd * kernel_mean)
            if affine[0]:
                y = y * w
            if affine[1]:
                y = y + b
        ctx._save(
            input=x,
            normalized_shape=tuple(normalized_shape),
            weight=w if affine[0] else None,
            bias=b if affine[1] else None,
            result1=kernel_mean,
            result2=rstd,
        )
        ctx._norm = (mean, rstd64, axes)
        ctx._eps = eps
        return y

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        x, w = s["input"], s["weight"]
        mean, rstd, axes = ctx._norm
        if isinstance(g, Tensor):
            nd = len(ctx._in_shapes[0])
            grads = _graph_backward(
                k,
                g,
                x,
                w,
                axes,
                tuple(range(nd - len(axes))),
                ctx._eps,
                tuple(ctx._in_shapes[1]) if w is not None else (),
                None,
            )
            return tuple(t if need else None for t, need in zip(grads, ctx._needs_input_grad))
        nx, nw, nb = ctx._needs_input_grad
        rows = getattr(ctx, "_rows", None)
        if rows is not None and g.dtype == x.dtype:  # PyTorch's kernel, bit for bit
            n = x.size // rows[0].size
            w2 = None if w is None else w.reshape(-1)
            dy = np.ascontiguousarray(g).reshape(-1, n)
            gx, gw, gb = layer_norm_backward_rows(dy, x.reshape(-1, n), *rows, w2, (nx, nw, nb))
            shapes = ctx._in_shapes
            return tuple(None if t is None else t.reshape(sh) for t, sh in zip((gx, gw, gb), shapes))
        xhat = (x.astype(np.float64) - mean) * rstd
        batch = tuple(range(x.ndim - len(axes)))
        gx = _norm_backward(g, xhat, rstd, w, axes).astype(x.dtype) if nx else None
        gw = (g.astype(np.float64) * xhat).sum(axis=batch).astype(x.dtype) if nw else None
        gb = g.astype(np.float64).sum(axis=batch).astype(x.dtype) if nb else None
        return gx, gw, gb


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    shape = (int(normalized_shape),) if isinstance(normalized_shape, int) else tuple(int(s) for s in normalized_shape)
    x = input._data
    if x.ndim < len(shape) or tuple(x.shape[x.ndim - len(shape) :]) != shape:
        listed = ", ".join(map(str, shape))
        raise RuntimeError(
            f"Given normalized_shape=[{listed}], expected input with shape [*, {listed}], but got "
            f"input of size[{', '.join(map(str, x.shape))}]"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t._data.shape) != shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"[{', '.join(map(str, t._data.shape))}] and normalized_shape = "
                f"[{', '.join(map(str, shape))}]"
            )
    check_alloc(x.size)
    dt = x.dtype
    return NativeLayerNormBackward0.apply(
        input,
        weight if weight is not None else _none(dt),
        bias if bias is not None else _none(dt),
        normalized_shape=shape,
        eps=eps,
        affine=(weight is not None, bias is not None),
    )


class EmbeddingBackward0(Function):
    """weight[indices]: row i of the gradient is added to the row of weight it was read from (rows read twice get
    both; the padding row gets none)."""

    templates = ("{grad} added back to the rows of {0} that were looked up",)
    _saved_fields = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")

    @staticmethod
    def _forward(ctx: Any, w: np.ndarray, indices: Any = None, padding_idx: int = -1) -> np.ndarray:
        ctx._save(
            indices=indices,
            padding_idx=padding_idx if padding_idx >= 0 else 2**64 - 1,  # PyTorch's -1, unsigned
            scale_grad_by_freq=False,
            sparse=False,
            weight_sym_argsize_0=w.shape[0],
        )
        ctx._lookup = (indices, padding_idx)
        return w[indices]

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        indices, padding_idx = ctx._lookup
        rows = indices.reshape(-1)
        gr = k.reshape(g, (rows.size, ctx._in_shapes[0][1]))
        if padding_idx >= 0:
            keep = rows != padding_idx
            rows, gr = rows[keep], k.take(gr, (np.nonzero(keep)[0],))
        return (k.index_add(ctx._in_shapes[0], (rows,), gr),)


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    idx = input._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got torch.{_TYPE_NAMES[idx.dtype.name]}Tensor instead (while checking "
            "arguments for embedding)"
        )
    n = weight._data.shape[0]
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < n, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -n, "Padding_idx must be within num_embeddings"
            padding_idx = n + padding_idx
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError(
            "embedding's max_norm, scale_grad_by_freq and sparse are not supported by gradtrace's engine"
        )
    if idx.size and not is_meta(idx) and (idx.min() < 0 or idx.max() >= n):  # (meta indices: no values to check)
        raise IndexError("index out of range in self")
    if not is_meta(weight._data):
        check_alloc(idx.size * math.prod(weight._data.shape[1:]))
    return EmbeddingBackward0.apply(
        weight, indices=idx.astype(np.int64), padding_idx=-1 if padding_idx is None else padding_idx
    )


__all__ = [
    "EmbeddingBackward0",
    "NativeBatchNormBackward0",
    "NativeLayerNormBackward0",
    "batch_norm",
    "embedding",
    "layer_norm",
]

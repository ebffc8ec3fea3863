"""Pooling: ``F.max_pool2d`` (``MaxPool2DWithIndicesBackward0``), ``F.avg_pool2d`` (``AvgPool2DBackward0``) and
``F.adaptive_avg_pool2d`` (``AdaptiveAvgPool2DBackward0``; a 1 x 1 output is PyTorch's ``mean``), on (C, H, W) or
(N, C, H, W) inputs.

Max pooling keeps the largest value of each window (the first, scanning rows, when several tie) and sends the
gradient back to it alone; average pooling sends each output's gradient back shared equally over its window. The
windows' sums are taken as PyTorch's CPU kernel takes them, one element after another in float32, so the values
are PyTorch's bit for bit.

Example::

    >>> F.max_pool2d(torch.tensor([[[1., 2.], [4., 3.]]]), 2)
    tensor([[[4.]]])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.meta import is_meta
from engine.ops import reduce, shape
from engine.ops.conv_kernels import charge
from engine.ops.function import Function, Unsupported
from engine.ops.operands import check_alloc, made
from engine.tensor import Tensor


def _pair(v: Any, name: str) -> tuple[int, int]:
    t = tuple(int(e) for e in v) if isinstance(v, (tuple, list)) else (int(v),)
    if len(t) not in (1, 2):
        raise RuntimeError(f"max_pool2d: {name} must either be a single int, or a tuple of two ints")
    return (t[0], t[0]) if len(t) == 1 else (t[0], t[1])


def _out_len(n: int, k: int, pad: int, stride: int, dilation: int, ceil: bool) -> int:
    """PyTorch's pooling_output_shape: with ceil_mode the last window must still start inside the input or padding."""
    span = n + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil else 0)
    out = span // stride + 1
    if ceil and (out - 1) * stride >= n + pad:
        out -= 1
    return out


def _geometry(
    a: Tensor, name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool
) -> tuple[tuple[int, ...], ...]:
    x = a._data
    if x.ndim not in (3, 4) or (x.ndim == 3 and 0 in x.shape) or (x.ndim == 4 and 0 in x.shape[1:]):
        if name == "avg_pool2d" and x.ndim < 3:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{x.ndim}, {x.ndim - 1}], but got -3)"
            )
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    k = _pair(kernel_size, "kernel_size")
    s = k if stride is None or (isinstance(stride, (tuple, list)) and not stride) else _pair(stride, "stride")
    p, d = _pair(padding, "padding"), _pair(dilation, "dilation")
    for i in range(2):
        if p[i] > (d[i] * (k[i] - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={d[i]}"
            )
    h, w = x.shape[-2:]
    out = (_out_len(h, k[0], p[0], s[0], d[0], ceil_mode), _out_len(w, k[1], p[1], s[1], d[1], ceil_mode))
    if min(out) < 1:
        c = x.shape[-3]
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
            "Output size is too small"
        )
    return k, s, p, d, out


def _padded(
    x: np.ndarray,
    k: tuple[int, ...],
    s: tuple[int, ...],
    p: tuple[int, ...],
    d: tuple[int, ...],
    out: tuple[int, ...],
    fill: float,
) -> np.ndarray:
    """The input padded (by ``fill``) far enough for every window, ceil_mode's last ones included."""
    extra = [
        max(0, (o - 1) * st + dd * (kk - 1) + 1 - (n + 2 * pp))
        for o, st, dd, kk, n, pp in zip(out, s, d, k, x.shape[-2:], p)
    ]
    widths = [(0, 0)] * (x.ndim - 2) + [(p[0], p[0] + extra[0]), (p[1], p[1] + extra[1])]
    return np.pad(x, widths, constant_values=fill) if any(a or b for a, b in widths) else x


def _taps(k: tuple[int, ...], s: tuple[int, ...], d: tuple[int, ...], out: tuple[int, ...]) -> list[tuple[slice, ...]]:
    """For each kernel tap (i, j), row-major: the slices of the padded input it reads, one per output."""
    return [
        (
            slice(i * d[0], i * d[0] + s[0] * (out[0] - 1) + 1, s[0]),
            slice(j * d[1], j * d[1] + s[1] * (out[1] - 1) + 1, s[1]),
        )
        for i in range(k[0])
        for j in range(k[1])
    ]


def _max_pool(x: np.ndarray, geometry: Any) -> tuple[np.ndarray, np.ndarray]:
    """Each window's largest value and its flat position in its (H, W) plane (PyTorch's indices)."""
    k, s, p, d, out = geometry
    charge(k[0] * k[1], math.prod(x.shape[:-2]) * out[0] * out[1] * k[0] * k[1])  # per tap, per element read
    xp = _padded(x, k, s, p, d, out, -np.inf)
    best = np.full(x.shape[:-2] + out, -np.inf, dtype=x.dtype)
    where = np.zeros(best.shape, dtype=np.int64)  # the tap each maximum came from
    for t, sl in enumerate(_taps(k, s, d, out)):
        v = xp[(Ellipsis,) + sl]
        take = (v > best) | (np.isnan(v) & ~np.isnan(best))  # the first maximum stays; NaN wins, as in PyTorch
        best = np.where(take, v, best)
        where[take] = t
    rows = np.arange(out[0])[:, None] * s[0] - p[0] + (where // k[1]) * d[0]
    cols = np.arange(out[1])[None, :] * s[1] - p[1] + (where % k[1]) * d[1]
    return best, rows * x.shape[-1] + cols


class MaxPool2DWithIndicesBackward0(Function):
    """The largest value of each window: the gradient goes to that one input (the first of ties), 0 elsewhere."""

    templates = ("{grad} sent to each window's largest value of {0}, 0 elsewhere",)
    _saved_fields = ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1")

    @staticmethod
    def _forward(ctx: Any, x: np.ndarray, geometry: Any = None, shown: Any = None) -> np.ndarray:
        best, indices = _max_pool(x, geometry)
        ctx._save(self=x, result1=indices, **(shown or {}))
        ctx._indices = indices
        return best

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        shape = ctx._in_shapes[0]
        plane = shape[-2] * shape[-1]
        planes = np.arange(math.prod(shape[:-2])).reshape(shape[:-2] + (1, 1)) * plane
        flat = (ctx._indices + planes).reshape(-1)
        return (k.reshape(k.index_add((math.prod(shape),), (flat,), k.reshape(g, (-1,))), shape),)


class AvgPool2DBackward0(Function):
    """The mean of each window: each input gets the gradient of every window it is in, divided by the window's
    divisor (its size, or the count of non-padding elements, or ``divisor_override``)."""

    templates = ("{grad} shared equally over each window of {0}",)
    _saved_fields = ("self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")

    @staticmethod
    def _forward(
        ctx: Any,
        x: np.ndarray,
        geometry: Any = None,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
        shown: Any = None,
    ) -> np.ndarray:
        k, s, p, d, out = geometry
        charge(k[0] * k[1], math.prod(x.shape[:-2]) * out[0] * out[1] * k[0] * k[1])
        xp = _padded(x, k, s, p, d, out, 0)
        total = np.zeros(x.shape[:-2] + out, dtype=x.dtype)
        for sl in _taps(k, s, d, out):
            total += xp[(Ellipsis,) + sl]  # one element after another, in float32 (PyTorch's kernel's order)
        div = _divisors(x.shape[-2:], k, s, p, out, count_include_pad) if divisor_override is None else None
        ctx._save(self=x, count_include_pad=count_include_pad, divisor_override=divisor_override, **(shown or {}))
        ctx._pool = (geometry, (div if divisor_override is None else np.full(out, divisor_override)).astype(x.dtype))
        return total / (div.astype(x.dtype) if divisor_override is None else x.dtype.type(divisor_override))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        if isinstance(g, Tensor):
            raise Unsupported("average pooling's backward as tensors")
        (kk, st, p, d, out), div = ctx._pool
        shape = ctx._in_shapes[0]
        share = g / div
        padded = _padded(np.zeros(shape, dtype=g.dtype), kk, st, p, d, out, 0)
        for sl in reversed(_taps(kk, st, d, out)):  # each input gets its windows' shares in the outputs' order
            padded[(Ellipsis,) + sl] += share
        return (padded[..., p[0] : p[0] + shape[-2], p[1] : p[1] + shape[-1]],)


def _divisors(
    size: tuple[int, ...],
    k: tuple[int, ...],
    s: tuple[int, ...],
    p: tuple[int, ...],
    out: tuple[int, ...],
    count_include_pad: bool,
) -> np.ndarray:
    """Each window's divisor: its extent inside input + padding (count_include_pad) or inside the input alone."""
    spans = []
    for n, kk, st, pp, o in zip(size, k, s, p, out):
        start = np.arange(o) * st - pp
        end = np.minimum(start + kk, n + pp)
        if count_include_pad:
            spans.append(end - start)
        else:
            spans.append(np.minimum(end, n) - np.maximum(start, 0))
    return (spans[0][:, None] * spans[1][None, :]).astype(np.int64)


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    geometry = _geometry(input, "max_pool2d", kernel_size, stride, padding, dilation, ceil_mode)
    k, s, p, d, out = geometry
    if not is_meta(input._data):  # (a meta tensor allocates nothing)
        check_alloc(math.prod(input._data.shape[:-2]) * math.prod(out))
    shown = {
        "kernel_size": k,
        "stride": () if stride is None else s,
        "padding": p,
        "dilation": d,
        "ceil_mode": ceil_mode,
    }
    result = MaxPool2DWithIndicesBackward0.apply(input, geometry=geometry, shown=shown)
    if not return_indices:
        return result
    node = result._grad_fn  # no graph recorded: the indices computed again (cheap next to the pooling itself)
    return result, made(node.__dict__["_indices"] if node is not None else _max_pool(input._data, geometry)[1])


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    geometry = _geometry(input, "avg_pool2d", kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    k, s, p, _, out = geometry
    if not is_meta(input._data):  # (a meta tensor allocates nothing)
        check_alloc(math.prod(input._data.shape[:-2]) * math.prod(out))
    shown = {"kernel_size": k, "stride": () if stride is None else s, "padding": p, "ceil_mode": ceil_mode}
    return AvgPool2DBackward0.apply(
        input, geometry=geometry, count_include_pad=count_include_pad, divisor_override=divisor_override, shown=shown
    )


def _one(v: Any, fill: int) -> tuple[int, int]:
    return (fill, int(v[0] if isinstance(v, (tuple, list)) else v))


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """A 1-D max pooling is a 2-D one of height 1, as in PyTorch (Unsqueeze, MaxPool2DWithIndices, Squeeze)."""
    out = max_pool2d(
        shape.unsqueeze(input, -2),
        _one(kernel_size, 1),
        None if stride is None else _one(stride, 1),
        _one(padding, 0),
        _one(dilation, 1),
        ceil_mode,
        return_indices,
    )
    if return_indices:
        return shape.squeeze(out[0], -2), shape.squeeze(out[1], -2)
    return shape.squeeze(out, -2)


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """A 1-D average pooling is a 2-D one of height 1, as in PyTorch."""
    out = avg_pool2d(
        shape.unsqueeze(input, -2),
        _one(kernel_size, 1),
        None if stride is None else _one(stride, 1),
        _one(padding, 0),
        ceil_mode,
        count_include_pad,
    )
    return shape.squeeze(out, -2)


class AdaptiveAvgPool2DBackward0(Function):
    """The mean of each of out_h x out_w windows that tile the input (window i spans ⌊i·H/out⌋ to ⌈(i+1)·H/out⌉)."""

    templates = ("{grad} shared equally over each window of {0}",)
    _saved_fields = ("self",)

    @staticmethod
    def _forward(ctx: Any, x: np.ndarray, out: tuple[int, int] = (1, 1)) -> np.ndarray:
        ctx._save(self=x)
        charge(out[0] * out[1])
        ctx._windows = windows = _adaptive_windows(x.shape[-2:], out)
        charge(sum((he - hs) * (we - ws) for _, (hs, he, ws, we) in windows))  # an iteration per element summed
        res = np.zeros(x.shape[:-2] + out, dtype=x.dtype)
        for (oh, ow), (hs, he, ws, we) in windows:
            total = np.zeros(x.shape[:-2], dtype=x.dtype)
            for i in range(hs, he):
                for j in range(ws, we):
                    total += x[..., i, j]
            res[..., oh, ow] = total / x.dtype.type(he - hs) / x.dtype.type(we - ws)  # PyTorch divides twice
        return res

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        if isinstance(g, Tensor):
            raise Unsupported("adaptive average pooling's backward as tensors")
        gx = np.zeros(ctx._in_shapes[0], dtype=g.dtype)
        for (oh, ow), (hs, he, ws, we) in ctx._windows:
            gx[..., hs:he, ws:we] += (g[..., oh, ow] / g.dtype.type(he - hs) / g.dtype.type(we - ws))[..., None, None]
        return (gx,)


def _adaptive_windows(size: tuple[int, ...], out: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    h, w = size
    spans = [[(i * n // o, -(-(i + 1) * n // o)) for i in range(o)] for n, o in ((h, out[0]), (w, out[1]))]
    return [((a, b), (*spans[0][a], *spans[1][b])) for a in range(out[0]) for b in range(out[1])]


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    x = input._data
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    size = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    out = tuple(x.shape[-2 + i] if v is None else int(v) for i, v in enumerate(size))
    if out == (1, 1):  # PyTorch takes the mean over the plane: MeanBackward1
        return reduce.mean(input, dim=(-1, -2), keepdim=True)
    if not is_meta(x):
        check_alloc(math.prod(x.shape[:-2]) * math.prod(out))
    return AdaptiveAvgPool2DBackward0.apply(input, out=out)


__all__ = [
    "AdaptiveAvgPool2DBackward0",
    "AvgPool2DBackward0",
    "MaxPool2DWithIndicesBackward0",
    "adaptive_avg_pool2d",
    "avg_pool1d",
    "avg_pool2d",
    "max_pool1d",
    "max_pool2d",
]

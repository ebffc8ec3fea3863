"""Convolutions: ``F.conv1d`` and ``F.conv2d`` (stride, padding incl. ``'same'``/``'valid'``, dilation, groups,
bias), one node ``ConvolutionBackward0`` as in PyTorch, whose edges are (input, weight, bias).

A 2-D convolution slides each filter over the (padded) input and takes dot products: the output at (o, h, w) is
``bias[o] + Σ_c Σ_i Σ_j weight[o, c, i, j] · x[c, h·stride + i·dilation, w·stride + j·dilation]``; the numpy
kernels are in ``engine.ops.conv_kernels`` (sums in float64, rounded once: PyTorch's oneDNN kernels block their
sums their own way, so values agree to float32 rounding). A conv1d is a conv2d of height 1.

Example::

    >>> x = torch.ones(1, 1, 3, 3, requires_grad=True)
    >>> F.conv2d(x, torch.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]], grad_fn=<ConvolutionBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.meta import MetaArray, is_meta
from engine.ops import shape
from engine.ops.argcheck import must_be
from engine.ops.conv_kernels import conv_forward, conv_input_grad, conv_weight_grad, out_size
from engine.ops.function import Function, Unsupported
from engine.ops.operands import check_alloc
from engine.tensor import _TYPE_NAMES, Tensor


class ConvolutionBackward0(Function):
    """conv(x, w) + b: d/dx = the gradient convolved back through the flipped filters (a transposed convolution),
    d/dw = the gradient correlated with the input, d/db = the gradient summed over the batch and positions."""

    templates = (
        "{grad} sent back through the filters {1} (a transposed convolution)",
        "{grad} correlated with the input {0}",
        "{grad} summed over the batch and positions",
    )
    _saved_fields = (
        "input",
        "weight",
        "stride",
        "padding",
        "dilation",
        "groups",
        "transposed",
        "output_padding",
        "bias_sym_sizes_opt",
    )

    @staticmethod
    def _forward(
        ctx: Any,
        x: np.ndarray,
        w: np.ndarray,
        b: np.ndarray,
        geometry: Any = None,
        groups: int = 1,
        has_bias: bool = False,
        shown: dict[str, Any] | None = None,
    ) -> np.ndarray:
        ctx._save(input=x, weight=w, transposed=False, groups=groups, **(shown or {}))
        ctx._conv = (*geometry, groups)
        x4, w4 = (x[:, :, None, :], w[:, :, None, :]) if x.ndim == 3 else (x, w)  # conv1d: a conv2d of height 1
        acc = conv_forward(x4, w4, *geometry, groups)
        if has_bias:
            acc = acc + b.astype(np.float64)[:, None, None]
        out = acc.astype(x.dtype)
        return out[:, :, 0, :] if x.ndim == 3 else out

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        if isinstance(g, Tensor):
            raise Unsupported("a convolution's backward as tensors")
        x, w = s["input"], s["weight"]
        x4, w4, g4 = (x[:, :, None, :], w[:, :, None, :], g[:, :, None, :]) if x.ndim == 3 else (x, w, g)
        stride, pads, dilation, groups = ctx._conv
        nx, nw, nb = ctx._needs_input_grad
        gx = gw = gb = None
        if nx:
            gx = conv_input_grad(g4, w4, x4.shape, stride, pads, dilation, groups).astype(x.dtype).reshape(x.shape)
        if nw:
            gw = conv_weight_grad(g4, x4, w4.shape, stride, pads, dilation, groups).astype(w.dtype).reshape(w.shape)
        if nb:
            gb = g4.astype(np.float64).sum(axis=(0, 2, 3)).astype(g.dtype)
        return gx, gw, gb


class ConstantPadNdBackward0(Function):
    """``F.pad(x, pad, value=v)``: x with a border of v; the gradient is the border cut off again."""

    templates = ("{grad} with the padding cut off",)
    _saved_fields = ("pad",)

    @staticmethod
    def _forward(ctx: Any, x: np.ndarray, pad: tuple[int, ...] = (), value: Any = 0) -> np.ndarray:
        ctx._save(pad=pad)
        widths = [(0, 0)] * (x.ndim - len(pad) // 2) + [(pad[i], pad[i + 1]) for i in range(len(pad) - 2, -1, -2)]
        ctx._keep = tuple(slice(lo, lo + n) for (lo, _), n in zip(widths, x.shape))
        return np.pad(x, widths, constant_values=value)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        return (k.take(g, ctx._keep),)


def constant_pad(x: Tensor, pad: Any, value: Any = 0) -> Tensor:
    """``F.pad`` in its constant mode (pairs of widths from the last dimension backwards)."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > x._data.ndim:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but got "
            f"padding length {len(pad)} and input of dimension {x._data.ndim}"
        )
    if any(p < 0 for p in pad):
        raise NotImplementedError("negative padding (cropping) in F.pad is not supported by gradtrace's engine")
    widths = dict(enumerate(reversed([pad[i] + pad[i + 1] for i in range(0, len(pad), 2)])))
    n = x._data.ndim - len(widths)
    check_alloc(math.prod(s + widths.get(i - n, 0) for i, s in enumerate(x._data.shape)))
    return ConstantPadNdBackward0.apply(x, pad=pad, value=0 if value is None else value)


# ---- the function forms: PyTorch's checks, in its words ------------------------------------------------------
def _tuple(v: Any, n: int, name: str) -> tuple[int, ...]:
    t = tuple(int(e) for e in v) if isinstance(v, (tuple, list)) else (int(v),) * n
    if len(t) == 1 and n > 1:
        t = t * n
    if len(t) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the "
            f"convolution dimensions, but got {name}={list(t)}"
        )
    return t


def _sizes(s: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, s)) + "]"


def convolution(
    x: Tensor, w: Tensor, b: Tensor | None, stride: Any, padding: Any, dilation: Any, groups: int, nd: int
) -> Tensor:
    """``F.conv1d`` (nd=1) or ``F.conv2d`` (nd=2) with PyTorch's checks."""
    name = f"conv{nd}d"
    for pos, (arg, v) in enumerate((("input", x), ("weight", w)), 1):
        if not isinstance(v, Tensor):
            raise must_be(name, arg, pos, "Tensor", v)
    xs, ws = x._data.shape, w._data.shape
    if len(xs) not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got input of "
            f"size: {_sizes(xs)}"
        )
    batched = len(xs) == nd + 2
    stride_t, dil_t = _tuple(stride, nd, "stride"), _tuple(dilation, nd, "dilation")
    if len(ws) != nd + 2:
        raise RuntimeError(
            "weight should have at least three dimensions"
            if len(ws) < 3
            else f"expected stride to be a single integer value or a list of {len(ws) - 2} values to match "
            f"the convolution dimensions, but got stride={list(stride_t)}"
        )
    if any(s <= 0 for s in stride_t):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dil_t):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    k = ws[2:]
    if isinstance(padding, str):
        if padding == "valid":
            pads = ((0, 0),) * nd
        elif padding == "same":
            if any(s != 1 for s in stride_t):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [d * (kk - 1) for d, kk in zip(dil_t, k)]
            pads = tuple((t // 2, t - t // 2) for t in total)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        shown_pad = tuple(lo for lo, _ in pads)
    else:
        shown_pad = _tuple(padding, nd, "padding")
        if any(p < 0 for p in shown_pad):
            raise RuntimeError("negative padding is not supported")
        pads = tuple((p, p) for p in shown_pad)
    shown_x = xs if batched else (1, *xs)
    if x._data.dtype != w._data.dtype:
        xn, wn = _TYPE_NAMES[x._data.dtype.name], _TYPE_NAMES[w._data.dtype.name]
        if x._data.dtype == np.float32:  # the oneDNN path's own check
            raise RuntimeError(
                f"Input type (torch.{xn}Tensor) and weight type (torch.{wn}Tensor) should be the same "
                "or input should be a MKLDNN tensor and weight is a dense tensor"
            )
        raise RuntimeError(f"expected scalar type {xn} but found {wn}")
    if shown_x[1] != ws[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {_sizes(ws)}, expected input{_sizes(shown_x)} to "
            f"have {ws[1] * groups} channels, but got {shown_x[1]} channels instead"
        )
    if ws[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
            f"got weight of size {_sizes(ws)} instead"
        )
    if b is not None and (b._data.ndim != 1 or b._data.shape[0] != ws[0]):
        raise RuntimeError(
            f"Given weight of size {_sizes(ws)}, expected bias to be 1-dimensional with {ws[0]} "
            f"elements, but got bias of size {_sizes(b._data.shape)} instead"
        )
    padded = tuple(n + lo + hi for n, (lo, hi) in zip(shown_x[2:], pads))
    eff = tuple(d * (kk - 1) + 1 for d, kk in zip(dil_t, k))
    if any(p < e for p, e in zip(padded, eff)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
            f"({' x '.join(map(str, eff))}). Kernel size can't be greater than actual input size"
        )
    out = out_size(shown_x[2:], k, stride_t, pads, dil_t)
    meta = is_meta(x._data)
    if not meta:  # the output, then the padded copy of the input (a meta tensor has neither)
        check_alloc(shown_x[0] * ws[0] * math.prod(out))
        check_alloc(math.prod(shown_x[:2]) * math.prod(padded))
    xin = x if batched else shape.unsqueeze(x, 0)
    if any(lo != hi for lo, hi in pads):  # 'same' with an even kernel: PyTorch pads the difference on the right first
        xin = constant_pad(xin, [v for lo, hi in reversed(pads) for v in (0, hi - lo)])
        pads = tuple((lo, lo) for lo, _ in pads)
    geometry = ((1, stride_t[0]), ((0, 0), pads[0]), (1, dil_t[0])) if nd == 1 else (stride_t, pads, dil_t)
    no_bias = MetaArray((0,), w._data.dtype) if meta else np.zeros(0, dtype=w._data.dtype)
    bias = b if b is not None else Tensor._make(no_bias)  # no edge: (None, 0)
    shown = {
        "stride": stride_t,
        "padding": shown_pad,
        "dilation": dil_t,
        "output_padding": (0,) * nd,
        "bias_sym_sizes_opt": (0,) if b is None else tuple(b._data.shape),
    }
    out_t = ConvolutionBackward0.apply(
        xin, w, bias, geometry=geometry, groups=groups, has_bias=b is not None, shown=shown
    )
    return out_t if batched else shape.squeeze(out_t, 0)


__all__ = ["ConstantPadNdBackward0", "ConvolutionBackward0", "constant_pad", "convolution"]

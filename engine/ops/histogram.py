"""``torch.histogram``: counts of a tensor's values in bins, as PyTorch's CPU kernel bins them (the makemore lecture
takes the histograms of its layers' activations and gradients before plotting them).

Equal-width bins span ``range`` or the input's minimum to maximum (a single value widened by 0.5 either way, as
numpy does); the edges are ``torch.linspace`` of ``bins + 1`` values, and each value goes to the bin whose edges
hold it (found among the edges themselves, so that a value on an edge is counted as PyTorch counts it), the last
bin holding its right edge. ``density=True`` divides by the total, then by each bin's width.

Example::

    >>> torch.histogram(torch.tensor([1., 2., 1.]), bins=4, range=(0., 3.))
    torch.return_types.histogram(
    hist=tensor([0., 2., 1., 0.]),
    bin_edges=tensor([0.0000, 0.7500, 1.5000, 2.2500, 3.0000]))
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

import numpy as np

from engine.ops.api import torch_op
from engine.ops.argcheck import floating
from engine.ops.factories import linspace
from engine.ops.operands import check_alloc, made
from engine.tensor import Tensor

_Histogram = namedtuple("_Histogram", ["hist", "bin_edges"])


class HistogramResult(_Histogram):
    """``torch.return_types.histogram(hist=..., bin_edges=...)``."""

    def __repr__(self) -> str:
        return f"torch.return_types.histogram(\nhist={self.hist!r},\nbin_edges={self.bin_edges!r})"


@torch_op(
    "histogram",
    signature=(
        "Tensor input, Tensor bins, *, Tensor? weight=None, bool density=False",
        "Tensor input, int bins=100, *, any? range=None, Tensor? weight=None, bool density=False",
    ),
)
def histogram(
    a: Tensor, bins: Any = 100, *, range: Any = None, weight: Tensor | None = None, density: bool = False
) -> HistogramResult:
    data = a._data
    floating("histogramdd", a)
    if isinstance(bins, Tensor):
        edges = bins._data.astype(data.dtype)
    else:
        if int(bins) <= 0:
            raise RuntimeError(f"torch.histogramdd(): bins must be > 0, but got {int(bins)} for dimension 0")
        check_alloc(int(bins) + 1)
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        elif data.size:
            lo, hi = float(data.min()), float(data.max())
        else:
            lo, hi = 0.0, 0.0
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd(): range of [{lo:g}, {hi:g}] in dimension 0 is not finite")
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd(): min should not exceed max, but got min {lo:g} max {hi:g}")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, int(bins) + 1, dtype=a.dtype)._data
    values = data.reshape(-1)
    inside = (values >= edges[0]) & (values <= edges[-1])
    pos = np.searchsorted(edges, values[inside], side="right") - 1
    pos = np.minimum(pos, len(edges) - 2)
    hist = np.zeros(len(edges) - 1, dtype=data.dtype)
    w = np.ones(pos.size, dtype=data.dtype) if weight is None else weight._data.reshape(-1)[inside].astype(data.dtype)
    np.add.at(hist, pos, w)  # one value after another, as the kernel adds them
    if density:
        total = hist.sum(dtype=np.float64).astype(data.dtype)
        hist = (hist / total).astype(data.dtype) / np.diff(edges).astype(data.dtype)
    return HistogramResult(made(hist.astype(data.dtype)), made(np.asarray(edges, dtype=data.dtype)))

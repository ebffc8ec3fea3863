"""The numpy kernels of a 2-D convolution (a 1-D one is a 2-D one of height 1): forward, and the gradients of
the input and of the weight, for (N, C, H, W) inputs and (O, C / groups, kh, kw) filters.

The output at (n, o, h, w) is ``Σ_c Σ_i Σ_j weight[o, c, i, j] · x[n, c, h·stride + i·dilation, w·stride +
j·dilation]`` (x padded). Each kernel tap (i, j) reads a strided slice of the padded input; gathering those slices
side by side ("im2col") turns the convolution into one matrix product per group, which BLAS does fast (on C-contiguous
operands, the weight's gradient in blocks of rows: see ``_long_dot``). The gathered
copy is ``kh·kw`` times the input, so it is made for a few samples at a time (at most ``CHUNK`` elements); a sample
too big for that is done one tap at a time instead (a product over the channels per tap, no copy). Sums are taken
in float64 and rounded once by the caller (PyTorch's oneDNN kernels block their sums their own way: the values
agree to float32 rounding, not bit for bit).

Example::

    >>> conv_forward(np.ones((1, 1, 3, 3)), np.ones((1, 1, 2, 2)), (1, 1), ((0, 0), (0, 0)), (1, 1), 1)
    array([[[[4., 4.],
             [4., 4.]]]])
"""

from __future__ import annotations

import numpy as np

from engine.run_state import state

Pads = tuple[tuple[int, int], ...]  # (before, after) per spatial dim
CHUNK = 1 << 20  # elements of the gathered copy made at once (8 MB of float64)


def out_size(
    size: tuple[int, ...], k: tuple[int, ...], stride: tuple[int, ...], pads: Pads, dilation: tuple[int, ...]
) -> tuple[int, ...]:
    return tuple(
        (n + lo + hi - d * (kk - 1) - 1) // s + 1 for n, kk, s, (lo, hi), d in zip(size, k, stride, pads, dilation)
    )


def _taps(
    k: tuple[int, ...], out: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...]
) -> list[tuple[tuple[int, int], tuple[slice, ...]]]:
    """For each kernel tap (i, j): the slices of the padded input it reads, one element per output position."""
    return [
        ((i, j), tuple(slice(o * d, o * d + s * (n - 1) + 1, s) for o, d, s, n in zip((i, j), dilation, stride, out)))
        for i in range(k[0])
        for j in range(k[1])
    ]


LOOP_STEPS = 16  # budget steps a kernel's Python iteration costs (a few numpy calls on slices)
MACS_PER_STEP = 10_000  # multiply-adds a budget step pays for (BLAS does ~10⁹ a second)


def charge(loops: int, macs: int = 0) -> None:
    """Count the work a kernel is about to do against the run's step budget (and read the clock): ``loops``
    Python-level iterations and ``macs`` multiply-adds. A 1000 x 1000 kernel (a million taps) or a convolution of
    10¹⁰ multiply-adds is refused before it starts, not after."""
    budget = state().budget
    pay = getattr(budget, "charge", None)
    if pay is not None:
        pay(loops * LOOP_STEPS + macs // MACS_PER_STEP)


def _padded64(x: np.ndarray, pads: Pads) -> np.ndarray:
    x = x.astype(np.float64)
    return np.pad(x, ((0, 0), (0, 0)) + tuple(pads)) if any(lo or hi for lo, hi in pads) else x


def _cols(
    xp: np.ndarray, k: tuple[int, ...], out: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...]
) -> np.ndarray:
    """The gathered copy of samples ``xp`` (n, c, Hp, Wp): rows (n, h, w), columns (c, i, j)."""
    n, c = xp.shape[:2]
    cols = np.empty((n, *out, c, *k))
    for (i, j), sl in _taps(k, out, stride, dilation):
        cols[..., i, j] = xp[(slice(None), slice(None)) + sl].transpose(0, 2, 3, 1)
    return cols.reshape(n * out[0] * out[1], c * k[0] * k[1])


def _chunks(n: int, per_sample: int) -> list[slice] | None:
    """Batches of samples whose gathered copy fits in CHUNK (None: one sample alone does not)."""
    if per_sample > CHUNK:
        return None
    step = max(1, CHUNK // max(per_sample, 1))
    return [slice(a, min(a + step, n)) for a in range(0, n, step)]


def conv_forward(
    x: np.ndarray, w: np.ndarray, stride: tuple[int, ...], pads: Pads, dilation: tuple[int, ...], groups: int
) -> np.ndarray:
    """conv(x, w) without bias, in float64: (N, O, OH, OW)."""
    n, o, cg, k = x.shape[0], w.shape[0], w.shape[1], w.shape[2:]
    og = o // groups
    out = out_size(x.shape[2:], k, stride, pads, dilation)
    xp = _padded64(x, pads)
    w64 = w.astype(np.float64)
    res = np.zeros((n, *out, o))
    chunks = _chunks(n, out[0] * out[1] * cg * k[0] * k[1])
    charge(groups * k[0] * k[1] * (1 if chunks is None else len(chunks)), res.size * cg * k[0] * k[1])
    for g in range(groups):
        xs, ws, os = xp[:, g * cg : (g + 1) * cg], w64[g * og : (g + 1) * og], slice(g * og, (g + 1) * og)
        if chunks is None:  # one tap at a time: a product over the channels each
            for (i, j), sl in _taps(k, out, stride, dilation):
                res[..., os] += np.tensordot(xs[(slice(None), slice(None)) + sl], ws[:, :, i, j], axes=([1], [1]))
            continue
        flat = np.ascontiguousarray(ws.reshape(og, -1).T)
        for b in chunks:
            res[b, ..., os] = np.dot(_cols(xs[b], k, out, stride, dilation), flat).reshape(-1, *out, og)
    return res.transpose(0, 3, 1, 2)


def conv_input_grad(
    g: np.ndarray,
    w: np.ndarray,
    in_shape: tuple[int, ...],
    stride: tuple[int, ...],
    pads: Pads,
    dilation: tuple[int, ...],
    groups: int,
) -> np.ndarray:
    """d(conv)/d(input), in float64: each output's gradient sent back through the filter to the inputs it read."""
    n, o, cg, k = in_shape[0], w.shape[0], w.shape[1], w.shape[2:]
    og = o // groups
    out = g.shape[2:]
    gxp = np.zeros((n, in_shape[1]) + tuple(s + lo + hi for s, (lo, hi) in zip(in_shape[2:], pads)))
    g64 = g.astype(np.float64).transpose(0, 2, 3, 1)  # (n, oh, ow, o)
    w64 = w.astype(np.float64)
    chunks = _chunks(n, out[0] * out[1] * cg * k[0] * k[1]) or [slice(a, a + 1) for a in range(n)]
    taps = _taps(k, out, stride, dilation)
    charge(groups * len(taps) * len(chunks), g.size * cg * k[0] * k[1])
    for gr in range(groups):
        flat = w64[gr * og : (gr + 1) * og].reshape(og, -1)  # (og, cg·kh·kw)
        cs = slice(gr * cg, (gr + 1) * cg)
        for b in chunks:
            gcols = np.dot(g64[b, ..., gr * og : (gr + 1) * og].reshape(-1, og), flat).reshape(-1, *out, cg, *k)
            for (i, j), sl in taps:  # each tap's share back where it was read
                gxp[(b, cs) + sl] += gcols[..., i, j].transpose(0, 3, 1, 2)
    crop = tuple(slice(lo, lo + s) for s, (lo, _) in zip(in_shape[2:], pads))
    return gxp[(slice(None), slice(None)) + crop]


def _long_dot(a: np.ndarray, b: np.ndarray, rows: int = 1024) -> np.ndarray:
    """aᵀ @ b summed over their many rows in blocks: multithreaded OpenBLAS takes a hundred times longer on one
    product with a long inner dimension and a small result when the cores are busy."""
    total = np.zeros((a.shape[1], b.shape[1]))
    for r in range(0, a.shape[0], rows):
        total += np.dot(np.ascontiguousarray(a[r : r + rows].T), b[r : r + rows])
    return total


def conv_weight_grad(
    g: np.ndarray,
    x: np.ndarray,
    w_shape: tuple[int, ...],
    stride: tuple[int, ...],
    pads: Pads,
    dilation: tuple[int, ...],
    groups: int,
) -> np.ndarray:
    """d(conv)/d(weight), in float64: Σ over the batch and positions of each output's gradient · the input read."""
    o, cg, k = w_shape[0], w_shape[1], tuple(w_shape[2:])
    og = o // groups
    out = g.shape[2:]
    xp = _padded64(x, pads)
    g64 = g.astype(np.float64).transpose(0, 2, 3, 1)
    gw = np.zeros((o, cg * k[0] * k[1]))
    chunks = _chunks(x.shape[0], out[0] * out[1] * cg * k[0] * k[1])
    charge(groups * k[0] * k[1] * (1 if chunks is None else len(chunks)), g.size * cg * k[0] * k[1])
    for gr in range(groups):
        xs, os = xp[:, gr * cg : (gr + 1) * cg], slice(gr * og, (gr + 1) * og)
        if chunks is None:
            view = gw[os].reshape(og, cg, *k)
            for (i, j), sl in _taps(k, out, stride, dilation):
                view[:, :, i, j] += np.tensordot(
                    g64[..., os], xs[(slice(None), slice(None)) + sl], axes=([0, 1, 2], [0, 2, 3])
                )
            continue
        for b in chunks:
            gw[os] += _long_dot(g64[b, ..., os].reshape(-1, og), _cols(xs[b], k, out, stride, dilation))
    return gw.reshape(w_shape)


__all__ = ["CHUNK", "Pads", "charge", "conv_forward", "conv_input_grad", "conv_weight_grad", "out_size"]

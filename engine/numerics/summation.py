"""float32/float64 sums in PyTorch's CPU order (``x.sum()``, ``x.sum(dim)``, ``x.mean(dim)``), so that the printed
digits are PyTorch's.

Float addition is not associative, so the order decides the last bits. ATen's ``cascade_sum`` (SumKernel.cpp,
compiled for AVX2, which ATen also dispatches to on AVX512 machines for sums: measured, 8 float32 lanes) works as
follows:

* a contiguous run (the innermost reduced dimension) is summed in 8-lane vectors (4 for float64) into 4
  interleaved vector accumulators, each cascaded through 4 levels of partial sums in chunks of 16 (so that only
  numbers of similar size meet); the 4 accumulators are combined, then the scalar tail is added, then the lanes
  one by one;
* when the innermost dimension is kept (``x.sum(0)`` of a matrix), the rows are cascaded the same way, vectorised
  across the kept columns;
* further reduced dimensions outside that 2-D loop are accumulated into the output one slice at a time, in order;
* a whole-tensor sum of more than 32,768 elements is split between the 2 threads (halves), then added.

TensorIterator first orders the dimensions by stride (memory order), so a transposed view is summed in its memory
order; we do the same by permuting the array to C order.

Example::

    >>> torch_sum(np.arange(5, dtype=np.float32), None, False)
    array(10., dtype=float32)
"""

from __future__ import annotations

import numpy as np

from engine.numerics import native

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # Vectorized<T>::size() of the AVX2 kernel
GRAIN = 32768  # at::internal::GRAIN_SIZE: a reduction over more elements may be split between threads


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _seq(rows: np.ndarray) -> np.ndarray:
    """rows: (k, ...) -> (...): rows[0] + rows[1] + ... added one after another (numpy's accumulate is sequential,
    unlike its pairwise sum)."""
    if rows.shape[0] > 4:
        return np.add.accumulate(rows, axis=0)[-1]
    s = rows[0]
    for r in rows[1:]:
        s = s + r
    return s


def _multi_row_sum(m: np.ndarray) -> np.ndarray:
    """m: (size, nrows, ...) -> (nrows, ...): the 4-level cascade over the first axis."""
    compiled = native.cascade_sum("multi_row", m)  # the same operations, compiled (fma_chain.c)
    if compiled is not None:
        return compiled
    size = m.shape[0]
    power = max(4, _ceil_log2(size) // 4)
    step = 1 << power
    mask = step - 1
    zero = np.zeros(m.shape[1:], dtype=m.dtype)
    chunks = size // step
    # every chunk of `step` rows is summed from zero (the level-0 accumulator is emptied after each chunk)
    sums = (
        np.add.accumulate(m[: chunks * step].reshape((chunks, step) + m.shape[1:]), axis=1)[:, -1] if chunks else m[:0]
    )
    acc = [zero, zero, zero, zero]
    i = 0
    for c in range(chunks):
        acc[0] = sums[c]
        i += step
        for j in range(1, 4):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = zero
            if i & (mask << (j * power)):
                break
    s = _seq(m[i:]) + zero if i < size else zero  # the level-0 accumulator is empty here; + 0 turns -0 into +0
    for j in range(1, 4):
        s = s + acc[j]
    return s


def _row_sum(x: np.ndarray) -> np.ndarray:
    """x: (size, ...) -> (...): 4 interleaved partial sums (instruction-level parallelism), then combined."""
    compiled = native.cascade_sum("row", x)
    if compiled is not None:
        return compiled
    size = x.shape[0]
    si = size // 4
    part = _multi_row_sum(x[: si * 4].reshape((si, 4) + x.shape[1:]))
    p = part[0]
    for r in x[si * 4 :]:
        p = p + r
    for k in range(1, 4):
        p = p + part[k]
    return p


def inner_sums(rows: np.ndarray) -> np.ndarray:
    """rows: (R, n) C-contiguous -> (R,): each row summed as ATen sums a contiguous run."""
    r, n = rows.shape
    lanes = _LANES[rows.dtype]
    if n < lanes:
        return _row_sum(np.ascontiguousarray(rows.T))
    vs = n // lanes
    vec = _row_sum(rows[:, : vs * lanes].reshape(r, vs, lanes).transpose(1, 0, 2))  # (R, lanes)
    # from zero: the scalar tail first, then the vector lanes, one by one
    return _seq(np.concatenate([rows[:, vs * lanes :], vec], axis=1).T) + rows.dtype.type(0)


def outer_sums(block: np.ndarray) -> np.ndarray:
    """block: (O, size0, C) -> (O, C): reduce the middle axis, the C columns contiguous."""
    c = block.shape[2]
    lanes = _LANES[block.dtype]
    group = 4 * lanes if c >= lanes else 4
    cut = (c // group) * group
    x = block.transpose(1, 0, 2)  # (size0, O, C)
    out = np.empty(block.shape[0:1] + (c,), dtype=block.dtype)
    if cut:
        out[:, :cut] = _multi_row_sum(x[:, None, :, :cut])[0]
    if cut < c:
        out[:, cut:] = _row_sum(x[:, :, cut:])
    return out


def _memory_order(a: np.ndarray, axes: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    """Permute ``a`` so that it is C-contiguous when it is a dense view in another order (a transpose); returns
    the permuted array, the reduced axes renumbered, and the permutation."""
    if a.flags.c_contiguous or a.ndim < 2:
        return a, axes, tuple(range(a.ndim))
    perm = tuple(sorted(range(a.ndim), key=lambda d: (-abs(a.strides[d]) if a.shape[d] > 1 else 0, d)))
    b = a.transpose(perm)
    if not b.flags.c_contiguous:
        b = np.ascontiguousarray(b)  # not a dense view: ATen would copy too (order approximated)
    where = {d: i for i, d in enumerate(perm)}
    return b, tuple(sorted(where[d] for d in axes)), perm


def _groups(shape: tuple[int, ...], axes: tuple[int, ...]) -> list[tuple[bool, int]]:
    """Coalesce adjacent dimensions of the same kind (reduced or kept), dropping size-1 ones: [(reduced, size)]."""
    out: list[tuple[bool, int]] = []
    for d, n in enumerate(shape):
        if n == 1:
            continue
        red = d in axes
        if out and out[-1][0] == red:
            out[-1] = (red, out[-1][1] * n)
        else:
            out.append((red, n))
    return out


def _reduce_groups(a: np.ndarray, groups: list[tuple[bool, int]]) -> np.ndarray:
    """a reshaped to the group sizes: reduce the reduced groups; returns the kept groups' values, flattened."""
    sizes = [n for _, n in groups]
    x = a.reshape(sizes)
    red = [i for i, (r, _) in enumerate(groups) if r]
    kept = [i for i, (r, _) in enumerate(groups) if not r]
    last = len(groups) - 1
    if groups[last][0]:  # inner reduction over the innermost group, outer reduced groups accumulated in order
        inner, outer = last, red[:-1]
        rows = np.moveaxis(x, outer, list(range(len(outer)))) if outer else x
        nout = int(np.prod([sizes[i] for i in outer])) if outer else 1
        part = inner_sums(np.ascontiguousarray(rows).reshape(-1, sizes[inner])).reshape(nout, -1)
    else:  # the innermost group is kept: the reduced group next to it is cascaded across it
        inner, outer = last - 1, red[:-1]
        lead = [i for i in range(len(groups)) if i not in (inner, last)]
        y = np.moveaxis(x, outer + [i for i in lead if i not in outer], list(range(len(lead))))
        nout = int(np.prod([sizes[i] for i in outer])) if outer else 1
        block = np.ascontiguousarray(y).reshape(-1, sizes[inner], sizes[last])
        part = outer_sums(block).reshape(nout, -1)
    acc = part[0]
    for p in part[1:]:
        acc = acc + p
    del kept
    return acc


def _split_total(flat: np.ndarray, threads: int = 2) -> np.ndarray:
    """A whole-tensor sum past GRAIN elements: ATen's two-pass reduction gives each thread ceil(n / threads)
    elements, cascades them, and adds the threads' results in order (measured: 2 threads, up to 10^6 elements)."""
    n = flat.shape[0]
    size = -(-n // threads)
    parts = [inner_sums(flat[i : i + size].reshape(1, -1))[0] for i in range(0, n, size)]
    acc = np.zeros((), flat.dtype)
    for p in parts:
        acc = acc + p
    return acc


def torch_sum(a: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    """``a.sum(axes)`` for float32/float64 in PyTorch's order (numpy's for other dtypes, where order is exact)."""
    if a.dtype not in _LANES or a.size == 0:
        return np.asarray(a.sum(axis=axes, keepdims=keepdims))
    nd = a.ndim
    if axes is None and not keepdims and a.flags.c_contiguous and 0 < a.size <= GRAIN and nd:  # the common case
        return inner_sums(a.reshape(1, -1))[0].reshape(())
    if nd == 0:
        return np.array(a, dtype=a.dtype)
    axes = tuple(range(nd)) if axes is None else tuple(sorted(d % nd for d in axes))
    kept_shape = (
        tuple(1 if d in axes else n for d, n in enumerate(a.shape))
        if keepdims
        else tuple(n for d, n in enumerate(a.shape) if d not in axes)
    )
    if a.flags.c_contiguous and axes == tuple(range(axes[0], axes[-1] + 1)) and len(axes) < nd:
        lead = int(np.prod(a.shape[: axes[0]]))
        red = int(np.prod(a.shape[axes[0] : axes[-1] + 1]))
        tail = int(np.prod(a.shape[axes[-1] + 1 :]))
        res = inner_sums(a.reshape(lead, red)) if tail == 1 else outer_sums(a.reshape(lead, red, tail))
        return res.reshape(kept_shape)
    b, baxes, perm = _memory_order(a, axes)
    if len(baxes) == nd:  # the whole tensor, in memory order
        flat = b.reshape(-1)
        total = _split_total(flat) if flat.size > GRAIN else inner_sums(flat.reshape(1, -1))[0]
        return np.asarray(total, dtype=a.dtype).reshape(kept_shape)
    groups = _groups(b.shape, baxes)
    if not any(r for r, _ in groups):  # only size-1 dimensions reduced
        return np.array(a.reshape(kept_shape), dtype=a.dtype)
    res = _reduce_groups(b, groups)
    # res holds the kept dimensions in b's (memory) order; put them back in a's order
    kept_b = [d for d in range(nd) if d not in baxes]
    res = res.reshape([b.shape[d] for d in kept_b])
    orig = [perm[d] for d in kept_b]
    res = np.transpose(res, np.argsort(orig)) if orig != sorted(orig) else res
    return np.ascontiguousarray(res).reshape(kept_shape)


def torch_mean(a: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    """PyTorch's CPU mean: the sum above, divided by the count."""
    n = a.size if axes is None else int(np.prod([a.shape[d] for d in axes]))
    s = torch_sum(a, axes, keepdims)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(s / np.asarray(n, dtype=a.dtype))


__all__ = ["torch_sum", "torch_mean", "inner_sums", "outer_sums"]

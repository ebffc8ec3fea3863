"""Matrix products: ``@`` / matmul (MmBackward0, MvBackward0, DotBackward0, BmmBackward0) and addmm, the op
behind ``nn.Linear`` (bias + input @ weight.T in one node).

Example::

    >>> A = torch.ones(2, 3, requires_grad=True); B = torch.ones(3, 4)
    >>> (A @ B).grad_fn
    <MmBackward0 object at 0x...>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import numerics
from engine.dtypes import C_NAMES
from engine.meta import is_meta
from engine.ops.api import reflected, tensor_methods, torch_op
from engine.ops.argcheck import dtype_name
from engine.ops.function import Function, save_cross
from engine.ops.operands import binary_operands, check_alloc
from engine.ops.shape import (
    ExpandBackward0,
    SqueezeBackward4,
    UnsafeViewBackward0,
    UnsqueezeBackward0,
    ViewBackward0,
    t,
)
from engine.run_state import state
from engine.tensor import _TYPE_NAMES, Tensor

_BLAS = (np.dtype(np.float32), np.dtype(np.float64))
_SLICE_WORK = 10_000_000  # multiply-adds between two clock checks where numpy has no BLAS


def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for matrices or equal batches of them. numpy has no BLAS for ints or float16: its loop takes 1.4 s
    (int64) to 5 s (float16) for one 1000 x 1000 x 1000 product, in one C call. float16 goes through float32 BLAS
    (closer to PyTorch's float accumulation than numpy's loop), ints through float64 when every sum is exact there
    and fits; the others are done in slices (of the batch, then of rows), the run's clock checked between them."""
    if a.ndim == 2 and b.ndim == 2:
        exact = numerics.gemm(a, b)  # MKL's order, where it is known
        if exact is not None:
            return exact
    work = a.size * b.shape[-1]
    if (a.dtype in _BLAS and b.dtype in _BLAS) or work <= _SLICE_WORK or b.ndim < 2:
        return a @ b
    if a.dtype == b.dtype == np.float16:
        return (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    if a.dtype.kind in "iu" and b.dtype.kind in "iu" and a.size and b.size:
        out = np.result_type(a, b)
        top = max(abs(float(a.max())), abs(float(a.min()))) * max(abs(float(b.max())), abs(float(b.min())))
        if top * a.shape[-1] < min(2.0**53, np.iinfo(out).max):  # no rounding, no wrapping around
            return (a.astype(np.float64) @ b.astype(np.float64)).astype(out)
    check_time = getattr(state().budget, "check_time", None)
    batched = a.ndim == 3 and b.ndim == 3
    if batched and work > _SLICE_WORK * a.shape[0]:  # one product of the batch is too much already
        return np.stack([product(a[i], b[i]) for i in range(a.shape[0])])
    step = max(_SLICE_WORK * a.shape[0] // work, 1)  # batch entries (or rows) per slice
    parts = []
    for i in range(0, a.shape[0], step):
        parts.append(a[i : i + step] @ (b[i : i + step] if batched else b))
        if check_time is not None:
            check_time()
    return np.concatenate(parts, axis=0)


def column_major(x: np.ndarray) -> bool:
    """torch's test in mm_mat1/mat2_backward (strides[0] == 1 and strides[1] == sizes[0]): a matrix stored by
    columns, such as ``weight.t()``; its gradient is then computed transposed, ``(gᵀ @ other)ᵀ``, so that MKL sees
    the same product (and order) as in torch."""
    return x.ndim == 2 and x.strides[0] == x.itemsize and x.strides[1] == x.shape[0] * x.itemsize


def mm_grads(ctx: Any, k: Any, g: Any, mat1: Any, mat2: Any, na: bool, nb: bool) -> tuple[Any, Any]:
    """torch's mm_mat1_backward and mm_mat2_backward: G @ Bᵀ and Aᵀ @ G, each transposed for a column-major input."""
    cols = getattr(ctx, "_column_major", (False, False))
    ga = (k.t(k.mm(mat2, k.t(g))) if cols[0] else k.mm(g, k.t(mat2))) if na else None
    gb = (k.t(k.mm(k.t(g), mat1)) if cols[1] else k.mm(k.t(mat1), g)) if nb else None
    return ga, gb


class MmBackward0(Function):
    """A @ B for matrices: d/dA = G @ Bᵀ, d/dB = Aᵀ @ G."""

    templates = ("{grad} @ {1}ᵀ", "{0}ᵀ @ {grad}")
    _saved_fields = ("self", "mat2")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "mat2", b)
        if ctx._needs_input_grad:
            ctx._column_major = (column_major(a), column_major(b))
        return product(a, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        na, nb = ctx._needs_input_grad
        return mm_grads(ctx, k, g, s.get("self"), s.get("mat2"), na, nb)


class MvBackward0(Function):
    """A @ v (matrix times vector): d/dA = outer(G, v), d/dv = Aᵀ @ G."""

    _saved_fields = ("self", "vec")
    templates = ("{grad} {1}ᵀ (an outer product)", "{0}ᵀ @ {grad}")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, v: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "vec", v)
        exact = numerics.mv(a, v)  # MKL's order, where it is known
        return exact if exact is not None else a @ v

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        na, nv = ctx._needs_input_grad
        return (k.outer(g, s["vec"]) if na else None, k.mv(k.t(s["self"]), g) if nv else None)


class DotBackward0(Function):
    """u · v: d/du = G v, d/dv = G u."""

    _saved_fields = ("self", "tensor")
    templates = ("{grad} · {1}", "{grad} · {0}")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "tensor", b)
        exact = numerics.dot(a, b)
        return exact if exact is not None else np.asarray(np.dot(a, b))

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        na, nb = ctx._needs_input_grad
        return (g * s["tensor"] if na else None, g * s["self"] if nb else None)


class BmmBackward0(Function):
    """Batched matrix product (3-D and more, broadcasting the batch dimensions)."""

    templates = ("{grad} @ {1}ᵀ", "{0}ᵀ @ {grad}")
    _saved_fields = ("self", "mat2")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        save_cross(ctx, "self", a, "mat2", b)
        return product(a, b)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        na, nb = ctx._needs_input_grad
        sa, sb = ctx._in_shapes
        ga = k.sum_to(k.matmul(g, k.transpose(s["mat2"], -1, -2)), sa) if na else None
        gb = k.sum_to(k.matmul(k.transpose(s["self"], -1, -2), g), sb) if nb else None
        return ga, gb


class AddmmBackward0(Function):
    """bias + A @ B (``nn.Linear`` on a batch): bias gets G summed over rows, A gets G @ Bᵀ, B gets Aᵀ @ G."""

    templates = ("{grad} summed to {0.shape}", "{grad} @ {2}ᵀ", "{1}ᵀ @ {grad}")
    _saved_fields = ("mat1", "mat2", "alpha", "beta")

    @staticmethod
    def _forward(ctx: Any, bias: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        need = ctx._needs_input_grad
        if need:
            if need[2]:
                ctx._save(mat1=a)
            if need[1]:
                ctx._save(mat2=b)
            ctx._save(alpha=1, beta=1)
            ctx._column_major = (column_major(a), column_major(b))
        exact = numerics.addmm(bias, a, b)
        return exact if exact is not None else product(a, b) + bias

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        nbias, na, nb = ctx._needs_input_grad
        ga, gb = mm_grads(ctx, k, g, s.get("mat1"), s.get("mat2"), na, nb)
        return (k.sum_to(g, ctx._in_shapes[0]) if nbias else None, ga, gb)


def _shape_error(a: np.ndarray, b: np.ndarray) -> RuntimeError:
    if is_meta(a) or is_meta(b):  # PyTorch's meta kernel words it its own way
        return RuntimeError(f"a and b must have same reduction dim, but got {list(a.shape)} X {list(b.shape)}.")
    r = a.reshape(-1, a.shape[-1]) if a.ndim != 1 else a.reshape(1, -1)
    return RuntimeError(
        f"mat1 and mat2 shapes cannot be multiplied ({r.shape[0]}x{r.shape[1]} and {b.shape[-2]}x{b.shape[-1]})"
    )


def _check_dtypes(a: Any, b: Any) -> None:
    """Matrix products never promote: PyTorch refuses operands of two dtypes, each kernel in its own words."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a._data.dtype == b._data.dtype:
        return
    da, db = a._data.ndim, b._data.ndim
    ta, tb = a._data.dtype.name, b._data.dtype.name
    if da == 1 and db == 1:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {_TYPE_NAMES[ta]} and {_TYPE_NAMES[tb]}"
        )
    if da >= 3 and db >= 3:
        raise RuntimeError(f"expected scalar type {_TYPE_NAMES[ta]} but found {_TYPE_NAMES[tb]}")
    raise RuntimeError(
        f"expected m1 and m2 to have the same dtype, but got: {C_NAMES.get(ta, ta)} != {C_NAMES.get(tb, tb)}"
    )


@torch_op("mm", signature="Tensor input, Tensor mat2", more_overloads=("function", None))
def mm(a: Tensor, b: Tensor) -> Tensor:
    _check_dtypes(a, b)
    a, b = binary_operands(a, b)
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise _shape_error(a._data, b._data)
    check_alloc(a._data.shape[0] * b._data.shape[1], a, b)
    return MmBackward0.apply(a, b)


@torch_op("matmul", signature="Tensor input, Tensor other", operators=("__matmul__",))
def matmul(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b`` with PyTorch's rules for 1-D, 2-D and batched operands."""
    _check_dtypes(a, b)
    a, b = binary_operands(a, b)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        if a._data.shape[0] != b._data.shape[0]:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a._data.shape[0]}] and src [{b._data.shape[0]}] to have "
                "the same number of elements, "
                f"but got {a._data.shape[0]} and {b._data.shape[0]} elements respectively"
            )
        return DotBackward0.apply(a, b)
    if da == 2 and db == 1:
        if a._data.shape[1] != b._data.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({a._data.shape[0]}), mat ({a._data.shape[0]}x{a._data.shape[1]}), "
                f"vec ({b._data.shape[0]})"
            )
        return MvBackward0.apply(a, b)
    if da == 1 and db == 2:
        if a._data.shape[0] != b._data.shape[0]:
            raise _shape_error(a._data, b._data)
        return SqueezeBackward4.apply(mm(UnsqueezeBackward0.apply(a, dim=0), b), dims=(0,))
    if da == 2 and db == 2:
        return mm(a, b)
    if a._data.shape[-1] != b._data.shape[-2 if db > 1 else -1]:
        if da >= 3 and db >= 3:
            bsz = int(np.prod(np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])))
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: [{bsz}, {a._data.shape[-1]}] but "
                f"got: [{bsz}, {b._data.shape[-2]}]."
            )
        raise _shape_error(a._data, b._data)
    if da >= 3 and db <= 2:
        # fold the batch into rows: (..., n, k) -> (N, k), one mv/mm, then unfold (PyTorch's own route)
        k = a._data.shape[-1]
        flat = ViewBackward0.apply(a, shape=(-1, k) if a._data.size else (0, k))
        if db == 1:
            out = MvBackward0.apply(flat, b)
            return UnsafeViewBackward0.apply(out, shape=a._data.shape[:-1])
        check_alloc(flat._data.shape[0] * b._data.shape[1], flat, b)
        out = MmBackward0.apply(flat, b)
        return UnsafeViewBackward0.apply(out, shape=a._data.shape[:-1] + (b._data.shape[1],))
    a2 = UnsqueezeBackward0.apply(a, dim=0) if da == 1 else a
    b2 = UnsqueezeBackward0.apply(b, dim=1) if db == 1 else b
    batch = tuple(np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2]))
    n, k, m = a2._data.shape[-2], a2._data.shape[-1], b2._data.shape[-1]
    bsz = int(np.prod(batch))
    check_alloc(bsz * n * m, a, b)
    a3 = _batch_view(a2, batch, bsz)
    b3 = _batch_view(b2, batch, bsz)
    out_shape = batch + ((n,) if da > 1 else ()) + ((m,) if db > 1 else ())
    return UnsafeViewBackward0.apply(BmmBackward0.apply(a3, b3), shape=out_shape)


def _batch_view(t_: Tensor, batch: tuple[int, ...], bsz: int) -> Tensor:
    full = batch + t_._data.shape[-2:]
    if t_._data.shape != full:
        t_ = ExpandBackward0.apply(t_, shape=full)
    return ViewBackward0.apply(t_, shape=(bsz,) + full[-2:])


@torch_op("bmm", signature="Tensor input, Tensor mat2", more_overloads=("function", None))
def bmm(a: Tensor, b: Tensor) -> Tensor:
    """``torch.bmm``: a batch of matrix products, (b, n, k) @ (b, k, m)."""
    if a._data.ndim != 3 or b._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a._data.ndim != 3 else "batch2 must be a 3D tensor")
    if a._data.shape[0] != b._data.shape[0] or a._data.shape[2] != b._data.shape[1]:
        n, k = a._data.shape[0], a._data.shape[2]
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but got: "
            f"[{b._data.shape[0]}, {b._data.shape[1]}]."
        )
    _check_dtypes(a, b)
    check_alloc(a._data.shape[0] * a._data.shape[1] * b._data.shape[2], a, b)
    return BmmBackward0.apply(a, b)


@torch_op("mv", signature="Tensor input, Tensor vec")
def mv(a: Tensor, b: Tensor) -> Tensor:
    """``torch.mv``: matrix @ vector."""
    if a._data.ndim != 2 or b._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a._data.ndim}, {b._data.ndim}")
    if a._data.dtype != b._data.dtype:  # addmv's check: (result, matrix, vector), the result typed as the vector
        v, mat = dtype_name(b), dtype_name(a)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {mat}, and {v}")
    return matmul(a, b)


@torch_op("dot", signature="Tensor input, Tensor tensor")
def dot(a: Tensor, b: Tensor) -> Tensor:
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors")
    return matmul(a, b)


def addmm(bias: Tensor, a: Tensor, b: Tensor) -> Tensor:
    if a._data.shape[1] != b._data.shape[0]:
        raise _shape_error(a._data, b._data)
    check_alloc(a._data.shape[0] * b._data.shape[1], a, b)
    return AddmmBackward0.apply(bias, a, b)


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``F.linear``: x @ weightᵀ + bias, as PyTorch builds it (AddmmBackward0 for a 2-D batch)."""
    if x._data.ndim in (1, 2) and isinstance(x, Tensor) and x._data.dtype != weight._data.dtype:
        raise RuntimeError(
            "mat1 and mat2 must have the same dtype, but got "
            f"{_TYPE_NAMES[x._data.dtype.name]} and {_TYPE_NAMES[weight._data.dtype.name]}"
        )
    wt = t(weight)
    if x._data.ndim == 2 and bias is not None:
        if x._data.shape[1] != weight._data.shape[1]:
            raise _shape_error(x._data, wt._data)
        return addmm(bias, x, wt)
    if x._data.ndim == 1 and bias is not None:
        if x._data.shape[0] != weight._data.shape[1]:
            raise _shape_error(x._data, wt._data)
        out = addmm(bias, UnsqueezeBackward0.apply(x, dim=0), wt)
        return ViewBackward0.apply(out, shape=(weight._data.shape[0],))
    if x._data.ndim >= 3 and bias is not None and x._data.flags.c_contiguous:
        # PyTorch folds a contiguous batch into rows: addmm on a view, then a view back (grad_fn ViewBackward0)
        lead = x._data.shape[:-1]
        flat = ViewBackward0.apply(x, shape=(int(np.prod(lead)), x._data.shape[-1]))
        if flat._data.shape[1] != weight._data.shape[1]:
            raise _shape_error(flat._data, wt._data)
        out = addmm(bias, flat, wt)
        return ViewBackward0.apply(out, shape=(*lead, weight._data.shape[0]))
    out = matmul(x, wt)
    if bias is not None:
        out = out + bias
    return out


tensor_methods({"__rmatmul__": reflected(matmul)})

"""The determinant and the singular value decomposition: ``torch.det`` / ``torch.linalg.det`` (LinalgDetBackward0)
and ``torch.svd`` / ``torch.linalg.svd`` / ``torch.linalg.svdvals`` (LinalgSvdBackward0, one node for U, S and Vh;
``torch.svd``'s V is Vh transposed), and the cross product (``torch.cross``/``linalg.cross``: LinalgCrossBackward0).
They work on a matrix or a batch of them (the last two dimensions). A singular vector is unique only up to its sign
(PyTorch's docs say so): numpy's LAPACK picks the same signs as PyTorch's MKL for square and tall matrices as a rule,
not always for wide ones, so a program printing the vectors of a wide matrix may see some negated.

Example::

    >>> A = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)
    >>> torch.det(A)
    tensor(-1., grad_fn=<LinalgDetBackward0>)
    >>> torch.linalg.svd(A).S
    tensor([6.2429, 0.1602], grad_fn=<LinalgSvdBackward0>)
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from engine.ops.api import torch_op
from engine.ops.argcheck import dtype_name, must_be
from engine.ops.function import Function, Unsupported
from engine.ops.linalg import matmul
from engine.ops.operands import broadcast_shape, made
from engine.ops.reduce import _dims
from engine.ops.several import Several
from engine.ops.shape import clone
from engine.ops.stats import LinalgVectorNormBackward0
from engine.tensor import Tensor


def _floating(name: str, a: Tensor) -> None:
    if a._data.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {dtype_name(a)}")


def _matrices(name: str, a: Tensor) -> None:
    if a._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")


def _lu_det(a: np.ndarray) -> np.ndarray:
    """det by LU with partial pivoting in the matrices' own dtype (LAPACK's getrf, as PyTorch does): the product of
    U's diagonal, negated once per row swap. Batched over the leading dimensions. Like PyTorch, it factors Aᵀ (the
    row-major matrix read by columns; det Aᵀ = det A) and scales a column by the pivot's reciprocal past 2 x 2, which
    gives torch's float32 value bit for bit for every 2 x 2 and 5 x 5 matrix we tried and most 3 x 3 and 4 x 4 ones
    (MKL's blocking differs there in the last bit now and then)."""
    n = a.shape[-1]
    lu = np.swapaxes(a.reshape(-1, n, n), -1, -2).copy()
    sign = np.ones(lu.shape[0], dtype=a.dtype)
    rows = np.arange(lu.shape[0])
    for j in range(n):
        p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
        swap = p != j
        if swap.any():
            top = lu[rows, j].copy()
            lu[rows, j] = lu[rows, p]
            lu[rows, p] = top
            sign[swap] = -sign[swap]
        pivot = lu[:, j, j]
        safe = np.where(pivot == 0, 1, pivot)
        factors = lu[:, j + 1 :, j] * (1 / safe[:, None]) if n > 2 else lu[:, j + 1 :, j] / safe[:, None]
        factors[pivot == 0] = 0
        lu[:, j + 1 :, j + 1 :] -= factors[:, :, None] * lu[:, j, None, j + 1 :]
    det = lu[:, 0, 0] if n else np.ones(lu.shape[0], dtype=a.dtype)
    for j in range(1, n):
        det = det * lu[:, j, j]
    return (det * sign).reshape(a.shape[:-2])


class LinalgDetBackward0(Function):
    """det(A): d det / dA = det(A) · A⁻ᵀ (the cofactor matrix; through the SVD where A is singular)."""

    templates = ("{grad} · {out} · {0}⁻ᵀ",)
    _saved_fields = ("A", "result")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray) -> np.ndarray:
        r = _lu_det(a)
        ctx._save(A=a, result=r)
        return r

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, det = s["A"], s["result"]
        if not isinstance(a, np.ndarray):
            raise Unsupported("the cofactor matrix on tensors")
        if np.all(det != 0):
            cof = det[..., None, None] * np.swapaxes(np.linalg.inv(a), -1, -2)
        else:  # A = U S Vh: the cofactors are det(U) det(Vh) · U diag(∏_{j≠i} S_j) Vh, finite where det = 0
            u, sv, vh = np.linalg.svd(a)
            others = np.stack([np.prod(np.delete(sv, i, axis=-1), axis=-1) for i in range(sv.shape[-1])], -1)
            turn = (np.linalg.det(u) * np.linalg.det(vh)).astype(a.dtype)
            cof = turn[..., None, None] * ((u * others[..., None, :]) @ vh)
        return ((np.asarray(g)[..., None, None] * cof).astype(a.dtype),)


@torch_op("det", signature="Tensor input")
def det(a: Tensor) -> Tensor:
    _matrices("linalg.det", a)
    _floating("linalg.det", a)
    n, m = a._data.shape[-2:]
    if n != m:
        raise RuntimeError(f"linalg.det: A must be batches of square matrices, but they are {n} by {m} matrices")
    return LinalgDetBackward0.apply(a)


# ---- the cross product -------------------------------------------------------------------------------------------
class LinalgCrossBackward0(Function):
    """a × b along a dimension of size 3: d/da = b × G, d/db = G × a."""

    templates = ("{1} × {grad}", "{grad} × {0}")
    broadcasts = True
    _saved_fields = ("self", "other", "dim")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, b: np.ndarray, dim: int = -1) -> np.ndarray:
        ctx._save(self=a, other=b, dim=dim)
        a2, b2 = np.broadcast_arrays(a, b)
        return np.cross(a2, b2, axis=dim).astype(np.result_type(a, b), copy=False)

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        a, b, dim = s["self"], s["other"], s["dim"]
        if not isinstance(g, np.ndarray):
            raise Unsupported("the cross product on tensors")
        na, nb = ctx._needs_input_grad
        sa, sb = ctx._in_shapes
        ga = k.sum_to(np.cross(*np.broadcast_arrays(b, g), axis=dim), sa) if na else None
        gb = k.sum_to(np.cross(*np.broadcast_arrays(g, a), axis=dim), sb) if nb else None
        return ga, gb


def _cross(name: str, a: Tensor, b: Tensor, dim: int) -> Tensor:
    if a._data.ndim != b._data.ndim:
        raise RuntimeError(f"{name}: inputs must have the same number of dimensions.")
    shape = broadcast_shape(a._data.shape, b._data.shape)  # PyTorch's own message when they do not broadcast
    n = len(shape)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    if a._data.shape[dim] != 3 or b._data.shape[dim] != 3:
        raise RuntimeError(
            f"{name}: inputs dimension {dim} must have length 3. Got {a._data.shape[dim]} and {b._data.shape[dim]}"
        )
    return LinalgCrossBackward0.apply(a, b, dim=dim)


@torch_op("cross", signature="Tensor input, Tensor other, int? dim=None")
def cross(a: Tensor, b: Tensor, dim: Any = None) -> Tensor:
    if dim is None:  # the first dimension of size 3 (PyTorch warns that this default will change)
        dim = next((i for i, size in enumerate(a._data.shape) if size == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return _cross("linalg.cross", a, b, int(dim))


def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """``torch.linalg.cross(a, b, dim=-1)``: the cross product of 3-vectors along ``dim``."""
    return _cross("linalg.cross", input, other, int(dim))


# ---- the singular value decomposition ----------------------------------------------------------------------------
_Svd = namedtuple("_Svd", ["U", "S", "V"])
_LinalgSvd = namedtuple("_LinalgSvd", ["U", "S", "Vh"])


class SvdResult(_Svd):
    """``torch.return_types.svd(U=..., S=..., V=...)``."""

    def __repr__(self) -> str:
        return f"torch.return_types.svd(\nU={self.U!r},\nS={self.S!r},\nV={self.V!r})"


class LinalgSvdResult(_LinalgSvd):
    """``torch.return_types.linalg_svd(U=..., S=..., Vh=...)``."""

    def __repr__(self) -> str:
        return f"torch.return_types.linalg_svd(\nU={self.U!r},\nS={self.S!r},\nVh={self.Vh!r})"


def _mh(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


class LinalgSvdBackward0(Several):
    """A = U diag(S) Vh. d/dA = U (gS as a diagonal + the rotations of U and V that G asks for) Vh: PyTorch's
    svd_backward, with E_ij = S_j² − S_i² in the denominators (singular values must be distinct)."""

    templates = ("{grad} through U diag(S) Vh (svd_backward)",)
    _saved_fields = ("full_matrices", "U", "S", "Vh")

    @staticmethod
    def _forward(ctx: Any, a: np.ndarray, full_matrices: bool = True) -> Any:
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        ctx._save(full_matrices=full_matrices, U=u, S=s, Vh=vh)
        return u, s, vh

    def _backward(ctx, k: Any, g: Any, s: dict[str, Any]) -> tuple[Any, ...]:
        gu, gs, gvh = g
        u, sv, vh = s["U"], s["S"], s["Vh"]
        if not isinstance(sv, np.ndarray):
            raise Unsupported("svd_backward on tensors")
        m, n = ctx._in_shapes[0][-2:]
        r = min(m, n)
        if s["full_matrices"]:  # only the first min(m, n) singular vectors take part
            u, vh = u[..., :r], vh[..., :r, :]
            gu = None if gu is None else gu[..., :r]
            gvh = None if gvh is None else gvh[..., :r, :]
        if gu is None and gvh is None:
            return ((u * gs[..., None, :]) @ vh,)
        v, gv = _mh(vh), None if gvh is None else _mh(gvh)
        s2 = sv * sv
        e = s2[..., None, :] - s2[..., :, None]
        idx = np.arange(r)
        e[..., idx, idx] = 1
        ga = np.zeros(sv.shape[:-1] + (r, r), dtype=sv.dtype)
        if gu is not None:
            uhgu = _mh(u) @ gu
            ga = ga + (uhgu - _mh(uhgu)) * (sv[..., None, :] / e)
        if gv is not None:
            vhgv = vh @ gv
            ga = ga + sv[..., :, None] * ((vhgv - _mh(vhgv)) / e)
        if gs is not None:
            ga[..., idx, idx] += gs
        if m > r and gu is not None:
            ga = u @ ga
            gusinv = gu / sv[..., None, :]
            ga = (ga + gusinv - u @ (_mh(u) @ gusinv)) @ vh
        elif n > r and gv is not None:
            ga = ga @ vh
            gvsinv = gv / sv[..., None, :]
            ga = u @ (ga + _mh(gvsinv) - (_mh(gvsinv) @ v) @ vh)
        else:
            ga = u @ (ga @ vh)
        return (ga,)


def _svd_checks(a: Tensor) -> None:
    if a._data.ndim < 2:
        raise RuntimeError(
            f"linalg.svd: input should have at least 2 dimensions, but has {a._data.ndim} dimensions instead"
        )
    _floating("linalg.svd", a)


@torch_op("svd", signature="Tensor input, bool some=True, bool compute_uv=True")
def svd(a: Tensor, some: bool = True, compute_uv: bool = True) -> SvdResult:
    _svd_checks(a)
    u, sv, vh = LinalgSvdBackward0.apply_several(a, full_matrices=not some or not compute_uv)
    if not compute_uv:  # PyTorch gives zeros of the full shapes for U and V
        m, n = a._data.shape[-2:]
        batch = a._data.shape[:-2]
        zeros_u = made(np.zeros(batch + (m, m), dtype=a._data.dtype))
        return SvdResult(zeros_u, sv, made(np.zeros(batch + (n, n), dtype=a._data.dtype)))
    return SvdResult(u, sv, vh.transpose(-2, -1))


def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None) -> LinalgSvdResult:
    """``torch.linalg.svd(A, full_matrices=True)``: ``(U, S, Vh)`` with ``A = U diag(S) Vh``."""
    _matrices("linalg.svd", A)
    _floating("linalg.svd", A)
    return LinalgSvdResult(*LinalgSvdBackward0.apply_several(A, full_matrices=bool(full_matrices)))


def linalg_svdvals(A: Tensor, *, driver: Any = None) -> Tensor:
    """``torch.linalg.svdvals(A)``: the singular values alone, largest first."""
    _matrices("linalg.svd", A)
    _floating("linalg.svd", A)
    return LinalgSvdBackward0.apply_several(A, full_matrices=False)[1]


def linalg_det(A: Tensor) -> Tensor:
    """``torch.linalg.det(A)``: the determinant (``torch.det`` is the same op)."""
    return det(A)


def linalg_vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """``torch.linalg.vector_norm(x, ord=2, dim=None)``: the p-norm of all elements, or along ``dim``."""
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise must_be("linalg_vector_norm", "ord", 2, "Number", ord)
    _floating("linalg.vector_norm", x)
    dims = None if dim is None else _dims(dim, x._data.ndim)
    return LinalgVectorNormBackward0.apply(x, ord=float(ord), dim=dims, keepdim=bool(keepdim))


@torch_op("matrix_power", signature="Tensor input, int n")
def matrix_power(a: Tensor, n: int) -> Tensor:
    """``A.matrix_power(n)``: A multiplied by itself, in PyTorch's order (``(A @ A) @ A`` for 3; beyond, squarings
    from the lowest bit of ``n`` up, each set bit multiplied into the result), so that the bits agree."""
    _matrices("linalg.matrix_power", a)
    rows, cols = a._data.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"linalg.matrix_power: A must be batches of square matrices, but they are {rows} by {cols} matrices"
        )
    if n < 0 or (n == 0 and a.requires_grad):
        raise NotImplementedError("matrix_power(n) for n < 0 (or 0 with grad) is not supported by gradtrace's engine")
    if n == 0:
        return made(np.broadcast_to(np.eye(rows, dtype=a._data.dtype), a._data.shape).copy())
    if n == 1:
        return clone(a)
    if n <= 3:
        return matmul(a, a) if n == 2 else matmul(matmul(a, a), a)
    z: Tensor | None = None
    result: Tensor | None = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    assert result is not None
    return result


# torch.functional.__all__ in PyTorch 2.13: ``torch.functional`` is a real module (courses import it by mistake for
# torch.nn.functional); the facade gives there what of it the engine has, the same functions as ``torch.<name>``.
TORCH_FUNCTIONAL = frozenset(
    {
        *("atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod"),
        *("block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm", "meshgrid", "pca_lowrank"),
        *("split", "stft", "svd_lowrank", "tensordot", "unique", "unique_consecutive", "unravel_index"),
    }
)
# torch.linalg: what the engine has of it
LINALG = {
    "cross": linalg_cross,
    "det": linalg_det,
    "matmul": matmul,
    "matrix_power": matrix_power,
    "vector_norm": linalg_vector_norm,
    "svd": linalg_svd,
    "svdvals": linalg_svdvals,
}

"""The compiled FMA chains (``fma_chain.c``, built by setup.py next to this file), loaded with ctypes; None when the
library was not built (no C compiler at install time) or ``GRADTRACE_NATIVE=0`` asks for the numpy path, which
gives the same bits, only slower (``chains.fma_blocks`` picks).

Nothing of this reaches user code: the interpreter hands programs the facade only, never an engine module.

Example::

    >>> out = fma_blocks(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32), [3], None)
    >>> out is None or out.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    True
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.machinery
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ENV = "GRADTRACE_NATIVE"  # "0": use the numpy path in this process
_HERE = Path(__file__).resolve().parent


def _load() -> ctypes.CDLL | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = _HERE / f"_fma_chain{suffix}"
        if path.is_file():
            try:
                lib = ctypes.CDLL(str(path))
                blocks, elementwise, axpy = lib.gradtrace_fma_blocks, lib.gradtrace_fma32, lib.gradtrace_axpy_f64
                adam, box_muller = lib.gradtrace_adam_f32, lib.gradtrace_box_muller16_f32
            except (OSError, AttributeError):
                return None
            pointer, size = ctypes.c_void_p, ctypes.c_long
            blocks.restype = ctypes.c_int
            blocks.argtypes = [pointer, pointer, size, size, size, pointer, size, pointer, pointer]
            elementwise.restype = None
            elementwise.argtypes = [pointer, pointer, pointer, pointer, size]
            axpy.restype = None
            axpy.argtypes = [pointer, ctypes.c_double, pointer, pointer, size]
            adam.restype = None
            f32, f64 = ctypes.c_float, ctypes.c_double
            adam.argtypes = [pointer, pointer, pointer, pointer, pointer, size, f64, f32, f32, f32, f32, f32]
            box_muller.restype = None
            box_muller.argtypes = [pointer, pointer, size, ctypes.c_double, ctypes.c_double]
            return lib
    return None


_LIB = _load()


def _load_sums(lib: ctypes.CDLL | None) -> dict[tuple[str, Any], Any]:
    """The cascade sums by (kind, dtype); none from a library built before they were added (the other kernels
    stay on)."""
    found: dict[tuple[str, Any], Any] = {}
    if lib is None:
        return found
    for kind in ("row", "multi_row"):
        for suffix, dtype in (("f32", np.dtype(np.float32)), ("f64", np.dtype(np.float64))):
            fn = getattr(lib, f"gradtrace_{kind}_sum_{suffix}", None)
            if fn is None:
                return {}
            fn.restype = None
            fn.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_long, ctypes.c_void_p]
            found[(kind, dtype)] = fn
    return found


_SUMS = _load_sums(_LIB)
_ON = [os.environ.get(ENV, "1") != "0"]  # read once: the environment costs more to read than a small kernel
_MIN_ELEMENTWISE = 32  # below, the numpy path costs no more than the call


def available() -> bool:
    """Whether the compiled kernels are there and not switched off."""
    return _LIB is not None and _ON[0]


@contextlib.contextmanager
def switched_off() -> Iterator[None]:
    """The numpy path for the block (tests compare the two; ``GRADTRACE_NATIVE=0`` does it for a whole process)."""
    before = _ON[0]
    _ON[0] = False
    try:
        yield
    finally:
        _ON[0] = before


def fma_blocks(a: np.ndarray, b: np.ndarray, blocks: Sequence[int], start: np.ndarray | None) -> np.ndarray | None:
    """``chains.fma_blocks`` compiled (same arguments), or None when the library is not available."""
    if not available():
        return None
    n, k = a.shape
    m = b.shape[1]
    a = np.ascontiguousarray(a, np.float32)
    b = np.ascontiguousarray(b, np.float32)
    lengths = np.asarray(blocks, np.int64)
    if int(lengths.sum()) != k or (lengths < 0).any():
        raise ValueError(f"blocks {list(blocks)} do not cut k = {k}")
    full = None if start is None else np.ascontiguousarray(np.broadcast_to(start, (n, m)), np.float32)
    out = np.empty((n, m), np.float32)
    assert _LIB is not None
    status = _LIB.gradtrace_fma_blocks(
        a.ctypes.data,
        b.ctypes.data,
        n,
        k,
        m,
        lengths.ctypes.data,
        len(lengths),
        None if full is None else full.ctypes.data,
        out.ctypes.data,
    )
    if status != 0:
        raise MemoryError("the FMA chains could not allocate a row buffer")
    return out


def fma32(a: Any, b: Any, c: Any) -> np.ndarray | None:
    """``fma.fma32`` compiled, for float32 arrays or scalars (broadcast together) giving 32 elements or more; else
    None (Python numbers and other dtypes included: their float64 values may not be float32's)."""
    if not available() or not all(isinstance(v, (np.ndarray, np.float32)) and v.dtype == np.float32 for v in (a, b, c)):
        return None
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    size = int(np.prod(shape))
    if size < _MIN_ELEMENTWISE:
        return None
    a, b, c = (np.ascontiguousarray(np.broadcast_to(v, shape)) for v in (a, b, c))
    out = np.empty(shape, np.float32)
    assert _LIB is not None
    _LIB.gradtrace_fma32(a.ctypes.data, b.ctypes.data, c.ctypes.data, out.ctypes.data, size)
    return out


def axpy_f64(y: np.ndarray, alpha: float, x: np.ndarray) -> np.ndarray | None:
    """``(y.astype(float64) + alpha * x.astype(float64)).astype(float32)`` compiled, for float32 arrays of one
    shape (32 elements or more); else None. ``alpha`` must be a float32 value (as the optimizers pass it)."""
    if not available() or not (type(y) is np.ndarray and type(x) is np.ndarray):
        return None
    if y.dtype != np.float32 or x.dtype != np.float32 or y.shape != x.shape or y.size < _MIN_ELEMENTWISE:
        return None
    y, x = np.ascontiguousarray(y), np.ascontiguousarray(x)
    out = np.empty(y.shape, np.float32)
    assert _LIB is not None
    _LIB.gradtrace_axpy_f64(y.ctypes.data, float(alpha), x.ctypes.data, out.ctypes.data, y.size)
    return out


def adam_f32(
    grad: np.ndarray,
    m: np.ndarray,
    v: np.ndarray,
    p: np.ndarray,
    a1: float,
    b2: float,
    vf: float,
    c2: float,
    eps: float,
    step: float,
) -> np.ndarray | None:
    """One Adam step for C-contiguous float32 arrays of one shape (32 elements or more), as fma_chain.c's
    ``gradtrace_adam_f32`` says: ``m`` and ``v`` updated in place, the new parameter returned; else None, with
    nothing touched. ``a1`` is a float32 value held in a double; the others are rounded to float32 here."""
    arrays = (grad, m, v, p)
    if not available() or any(type(x) is not np.ndarray or x.dtype != np.float32 for x in arrays):
        return None
    if any(x.shape != p.shape or not x.flags.c_contiguous for x in arrays) or p.size < _MIN_ELEMENTWISE:
        return None
    if not (m.flags.writeable and v.flags.writeable):
        return None
    out = np.empty(p.shape, np.float32)
    assert _LIB is not None
    _LIB.gradtrace_adam_f32(
        grad.ctypes.data,
        m.ctypes.data,
        v.ctypes.data,
        p.ctypes.data,
        out.ctypes.data,
        p.size,
        a1,
        b2,
        vf,
        c2,
        eps,
        step,
    )
    return out


def box_muller16_f32(blocks: np.ndarray, std: float, mean: float) -> np.ndarray | None:
    """engine/random.py's ``_box_muller16`` compiled: (k, 16) float32 uniforms to normals, ``n * std + mean`` with
    ``std`` and ``mean`` float32 values held in doubles; None when not available."""
    if not available() or blocks.dtype != np.float32 or blocks.ndim != 2 or blocks.shape[1] != 16:
        return None
    u = np.ascontiguousarray(blocks)
    out = np.empty(u.shape, np.float32)
    assert _LIB is not None
    _LIB.gradtrace_box_muller16_f32(u.ctypes.data, out.ctypes.data, u.shape[0], std, mean)
    return out


def cascade_sum(kind: str, x: np.ndarray) -> np.ndarray | None:
    """``summation._row_sum`` (kind ``"row"``) or ``_multi_row_sum`` (``"multi_row"``) compiled: x (size, ...) of
    float32 or float64, at least 2-D, to (...); None when not available (or for a shape the numpy path keeps)."""
    fn = _SUMS.get((kind, x.dtype))
    if fn is None or not _ON[0] or x.ndim < 2 or x.size == 0:
        return None
    c = np.ascontiguousarray(x)
    out = np.empty(x.shape[1:], x.dtype)
    fn(c.ctypes.data, x.shape[0], out.size, out.ctypes.data)
    return out


__all__ = ["cascade_sum", "available", "fma_blocks", "fma32", "axpy_f64", "adam_f32", "box_muller16_f32", "ENV"]

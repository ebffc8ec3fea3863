"""MKL's vector math (VML) itself, loaded with ctypes from Intel's ``mkl`` wheel (``libmkl_rt``): the library that
PyTorch's CPU build links statically and calls for its unary functions (``ATen/cpu/vml.h``: ``vmsExp``, ``vmdExp``,
… in high-accuracy mode, ``VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE``), so its bits are torch's bits.

Measured against torch 2.13.0 (MKL 2024.2, build 20240605; the wheel ``mkl==2024.2.0`` is the same build) on
1.15 million float32 and float64 inputs each (normals of scales 0.01 to 100, uniforms, magnitudes up to 1e34,
zeros, infinities, nan, subnormals), contiguous, offset and strided, 1 and 2 threads: 0 differences for every
function below (docs/NUMERICS.md, "MKL's own library"). Functions that ``vml.h`` leaves commented out (expm1,
log1p, sinh, cosh, rsqrt, …) are not VML in torch, and VML's versions differ from torch's on 0.3-18% of inputs:
they are not offered here.

``call`` returns None when the library is not installed (no ``mkl`` wheel, another platform), when
``GRADTRACE_MKL=0`` asks for the engine's own kernels, or for a dtype other than float32/float64; the caller keeps
its own (numpy or modelled) path. MKL runs sequentially (its threading layer is set before the first call), so no
OpenMP runtime is needed and nothing changes with the thread count (VML is elementwise: each result depends on its
input only, measured above).

Nothing of this reaches user code: the interpreter hands programs the facade only, never an engine module.

Example::

    >>> out = call("tanh", np.array([0.5], np.float32))
    >>> out is None or out.tolist() == [0.46211716532707214]
    True
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.metadata
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ENV = "GRADTRACE_MKL"  # "0": the engine's own kernels in this process
# mkl_vml_defines.h: VML_HA 0x2 (high accuracy), VML_FTZDAZ_OFF 0x140000, VML_ERRMODE_IGNORE 0x100; vml.h's mode
MODE = 0x2 | 0x140000 | 0x100
_SEQUENTIAL = 1  # MKL_THREADING_SEQUENTIAL
_MAX_N = 2**31 - 1  # MKL_INT of the LP64 interface
# torch's function -> VML's name (ATen/cpu/vml.h, IMPLEMENT_VML_MKL)
NAMES = {
    "acos": "Acos",
    "asin": "Asin",
    "atan": "Atan",
    "cos": "Cos",
    "erf": "Erf",
    "erfc": "Erfc",
    "erfinv": "ErfInv",
    "exp": "Exp",
    "log": "Ln",
    "log10": "Log10",
    "log2": "Log2",
    "sin": "Sin",
    "sqrt": "Sqrt",
    "tan": "Tan",
    "tanh": "Tanh",
    "trunc": "Trunc",
}


def _candidates() -> list[Path]:
    found = []
    try:
        for f in importlib.metadata.files("mkl") or ():
            if f.name.startswith("libmkl_rt.so"):
                found.append(Path(str(f.locate())))
    except importlib.metadata.PackageNotFoundError:
        pass
    lib = Path(sys.prefix) / "lib"
    found += [lib / "libmkl_rt.so.2", lib / "libmkl_rt.so.3"]
    return [p for p in found if p.is_file()]


def _load() -> ctypes.CDLL | None:
    for path in _candidates():
        try:
            lib = ctypes.CDLL(str(path))
            lib.MKL_Set_Threading_Layer.restype = ctypes.c_int
            lib.MKL_Set_Threading_Layer.argtypes = [ctypes.c_int]
            lib.MKL_Set_Threading_Layer(_SEQUENTIAL)
            for name in NAMES.values():
                for prefix in ("vms", "vmd"):
                    fn = getattr(lib, prefix + name)
                    fn.restype = None
                    fn.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
            one = np.ones(1, np.float64)
            for name in NAMES.values():  # MKL opens its CPU's code path on first use: all of it now, before a
                for dtype in (np.float32, np.float64):  # worker's limits (server/worker.py) apply
                    x = one.astype(dtype)
                    getattr(lib, ("vms" if dtype == np.float32 else "vmd") + name)(
                        1, x.ctypes.data, x.ctypes.data, MODE
                    )
        except (OSError, AttributeError):
            continue
        return lib
    return None


_LIB: list[ctypes.CDLL | None] = []  # loaded on first use: an import of the engine does not pay for it
_ON = [os.environ.get(ENV, "1") != "0"]


_FNS: dict[tuple[str, str], Any] = {}  # (op, dtype char) -> the entry point, looked up once


def _lib() -> ctypes.CDLL | None:
    if not _LIB:
        lib = _load()
        _LIB.append(lib)
        if lib is not None:
            for op, name in NAMES.items():
                _FNS[op, "f"] = getattr(lib, "vms" + name)
                _FNS[op, "d"] = getattr(lib, "vmd" + name)
    return _LIB[0]


def available() -> bool:
    """Whether MKL's library is loaded and not switched off."""
    return _ON[0] and _lib() is not None


def version() -> str | None:
    """MKL's version string (``MKL_Get_Version_String``), or None without the library."""
    lib = _lib()
    if lib is None:
        return None
    buf = ctypes.create_string_buffer(256)
    lib.MKL_Get_Version_String(buf, len(buf))
    return buf.value.decode(errors="replace")


def mapped_bytes() -> int:
    """Address space that MKL's libraries map in this process (~160 MB once loaded, mostly code): a worker's
    RLIMIT_AS (server/worker.py) adds it, so that a learner's memory budget stays what it was without MKL."""
    if not _LIB or _LIB[0] is None:
        return 0
    total = 0
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and "/libmkl_" in fields[5]:
                    start, end = (int(v, 16) for v in fields[0].split("-"))
                    total += end - start
    except OSError:  # no /proc: nothing known to add
        return 0
    return total


@contextlib.contextmanager
def switched_off() -> Iterator[None]:
    """The engine's own kernels for the block (tests compare the two; ``GRADTRACE_MKL=0`` does it for a process)."""
    before = _ON[0]
    _ON[0] = False
    try:
        yield
    finally:
        _ON[0] = before


def call(op: str, x: Any) -> np.ndarray | None:
    """``torch.<op>(x)`` for a float32 or float64 array, MKL's bits; None when MKL is not there or off, or for
    another dtype (torch's float16/bfloat16 kernels do not call VML in the same way: not offered)."""
    if not _ON[0] or not isinstance(x, np.ndarray) or x.dtype not in (np.float32, np.float64):
        return None
    lib = _lib()
    if lib is None:
        return None
    src = x if x.flags.c_contiguous else x.copy()  # torch copies a strided input into a buffer too: same bits
    out = np.empty(src.shape, src.dtype)
    fn = _FNS[op, src.dtype.char]
    n, size = src.size, src.itemsize
    a, b = src.__array_interface__["data"][0], out.__array_interface__["data"][0]
    for start in range(0, n, _MAX_N):  # as vml.h: chunks of MKL_INT's range
        fn(min(_MAX_N, n - start), a + start * size, b + start * size, MODE)
    return out


__all__ = ["ENV", "NAMES", "available", "call", "mapped_bytes", "switched_off", "version"]

"""The process's resident memory, read cheaply (~1.5 us) so that the budget can look at it at every clock check.

Example::

    >>> resident_bytes() > 0          # on Linux; None where /proc is not available
    True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_fd: tuple[int, int] | None = None  # (pid, descriptor of /proc/self/statm): a forked worker opens its own


def resident_bytes() -> int | None:
    """Bytes of the process in RAM now, or None when the system does not say."""
    global _fd
    pid = os.getpid()
    try:
        if _fd is None or _fd[0] != pid:
            _fd = (pid, os.open("/proc/self/statm", os.O_RDONLY))
        return int(os.pread(_fd[1], 64, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        return trim
    except (OSError, AttributeError):  # not glibc: nothing to release, resident memory is what it is
        return None


_trim = _malloc_trim()


def release_free_memory() -> None:
    """Give the heap's free pages back to the system (glibc's ``malloc_trim(0)``, ~10-100 us).

    Called when a run starts, so that the run's growth in resident memory is its own: memory an earlier run (or
    test) freed but the allocator kept resident would otherwise be reused unseen, and a program could fill it
    without meeting the memory limit."""
    if _trim is not None:
        _trim(0)

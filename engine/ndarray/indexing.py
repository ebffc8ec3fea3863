"""``a[key]`` for our arrays: the key as numpy takes it, and the size of the result computed before numpy builds
it. Basic indexing (ints, slices, ``None``, ``...``) gives a view, which allocates nothing; advanced indexing
(integer arrays or lists, boolean masks) gives a copy whose size is the broadcast shape of the index arrays times
the dimensions they leave alone: ``a[np.zeros(10**7, int)]`` is refused before numpy allocates it.

Example::

    >>> result_size((1000, 1000), (np.zeros(10, dtype=np.int64),))
    10000
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.ndarray.values import HOST, prod, unwrap


def _part(k: Any) -> Any:
    if k is None or k is Ellipsis or type(k) is int or type(k) is bool:
        return k
    if type(k) is slice:
        return slice(*(_bound(v) for v in (k.start, k.stop, k.step)))
    host = HOST.get(type(k))
    if host is not None:
        return host(k)
    value, _ = unwrap(k)  # a list of ints or bools, a tensor
    return np.asarray(value)


def _bound(v: Any) -> Any:
    if v is None or type(v) is int:
        return v
    host = HOST.get(type(v))
    if host is not None:
        arr = host(v)
        if arr.ndim == 0 and arr.dtype.kind in "iub":
            return int(arr)
    raise TypeError("slice indices must be integers or None or have an __index__ method")


def index_key(key: Any) -> Any:
    """``key`` as numpy takes it (our arrays and scalars unwrapped, lists as arrays)."""
    if type(key) is tuple:
        return tuple(_part(k) for k in key)
    return _part(key)


def result_size(shape: tuple[int, ...], key: Any) -> int:
    """An upper bound of the elements ``a[key]`` allocates for an ``a`` of ``shape`` (0 for a view)."""
    parts = key if type(key) is tuple else (key,)
    if not any(isinstance(p, np.ndarray) and (p.ndim > 0 or p.dtype == bool) for p in parts):
        return 0
    adv_shapes: list[tuple[int, ...]] = []
    consumed = 1
    dim = 0
    for p in parts:
        if isinstance(p, np.ndarray) and (p.ndim > 0 or p.dtype == bool):
            if p.dtype == bool:
                adv_shapes.append((int(np.count_nonzero(p)),))
                for d in range(p.ndim):
                    consumed *= shape[dim + d] if dim + d < len(shape) else 1
                dim += p.ndim
            else:
                adv_shapes.append(p.shape)
                consumed *= shape[dim] if dim < len(shape) else 1
                dim += 1
        elif p is None:
            continue
        elif p is Ellipsis:
            dim = len(shape) - sum(1 for q in parts if q is not None and q is not Ellipsis) + dim
        else:
            dim += 1
    try:
        broadcast = np.broadcast_shapes(*adv_shapes)
    except ValueError:
        return 0  # numpy refuses these index shapes itself, before allocating
    rest = prod(shape) // consumed if consumed else 0
    return prod(broadcast) * rest


__all__ = ["index_key", "result_size"]

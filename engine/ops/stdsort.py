"""The order ``torch.sort`` gives equal keys when ``stable=False`` (its default): PyTorch's CPU kernel calls the C++
standard library's ``std::sort`` (libstdc++'s introsort on Linux) on (value, index) pairs, so equal values come
out in the order that algorithm leaves them, not in their original order. Without ties every order agrees, so
numpy's sort is used; with ties the introsort is replayed step by step: median-of-three pivots, unguarded
partitions down to runs of 16, heapsort past the depth limit, then the final insertion sort.

    >>> std_sort_order(np.array([0, 1] * 9), descending=False)[:4]
    array([ 2, 16,  4,  6])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.run_state import state

_THRESHOLD = 16  # libstdc++'s _S_threshold
Less = Callable[[Any, Any], bool]


def _less(descending: bool) -> Less:
    """PyTorch's comparators: NaN is the largest value (last ascending, first descending)."""
    if descending:
        return lambda a, b: (a != a and b == b) or a > b
    return lambda a, b: (a == a and b != b) or a < b


def _median_to_first(v: list[Any], result: int, a: int, b: int, c: int, less: Less) -> None:
    if less(v[a], v[b]):
        pick = b if less(v[b], v[c]) else c if less(v[a], v[c]) else a
    else:
        pick = a if less(v[a], v[c]) else c if less(v[b], v[c]) else b
    v[result], v[pick] = v[pick], v[result]


def _partition(v: list[Any], first: int, last: int, pivot: int, less: Less) -> int:
    while True:
        while less(v[first], v[pivot]):
            first += 1
        last -= 1
        while less(v[pivot], v[last]):
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def _sift_down(v: list[Any], first: int, hole: int, length: int, value: Any, less: Less) -> None:
    """libstdc++'s __adjust_heap: move the hole down to a leaf along the larger children, then push ``value`` up."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(v[first + child], v[first + child - 1]):
            child -= 1
        v[first + hole] = v[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        v[first + hole] = v[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(v[first + parent], value):
        v[first + hole] = v[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[first + hole] = value


def _heapsort(v: list[Any], first: int, last: int, less: Less) -> None:
    """std::partial_sort(first, last, last): make_heap, then pop the largest to the back one at a time."""
    length = last - first
    if length >= 2:
        for parent in range((length - 2) // 2, -1, -1):
            _sift_down(v, first, parent, length, v[first + parent], less)
    while last - first > 1:
        last -= 1
        value = v[last]
        v[last] = v[first]
        _sift_down(v, first, 0, last - first, value, less)


def _introsort(v: list[Any], first: int, last: int, depth: int, less: Less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heapsort(v, first, last, less)
            return
        depth -= 1
        _median_to_first(v, first, first + 1, first + (last - first) // 2, last - 1, less)
        cut = _partition(v, first + 1, last, first, less)
        _introsort(v, cut, last, depth, less)
        last = cut


def _linear_insert(v: list[Any], last: int, less: Less) -> None:
    value = v[last]
    nxt = last - 1
    while less(value, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = value


def _insertion_sort(v: list[Any], first: int, last: int, less: Less) -> None:
    for i in range(first + 1, last):
        if less(v[i], v[first]):
            value = v[i]
            v[first + 1 : i + 1] = v[first:i]
            v[first] = value
        else:
            _linear_insert(v, i, less)


def std_sort_order(keys: np.ndarray, descending: bool) -> np.ndarray:
    """The indices that sort the 1-D ``keys`` as ``std::sort`` leaves them (with PyTorch's comparators)."""
    n = keys.shape[0]
    stable = np.argsort(-keys if descending and keys.dtype.kind != "b" else keys, kind="stable")
    if descending and keys.dtype.kind == "b":
        stable = np.argsort(~keys, kind="stable")
    ordered = keys[stable]
    nan = ordered != ordered
    if n < 2 or not ((ordered[1:] == ordered[:-1]).any() or nan.any()):
        return stable.astype(np.int64)  # no ties and no NaN: one order only
    budget = state().budget
    if budget is not None:
        budget.charge(4 * n * max(1, n.bit_length()))  # Python steps, ~n log n comparisons
    key_list = keys.tolist()
    less_key = _less(descending)
    v = list(range(n))
    # compare the pairs by their keys (the comparators read only the key, as PyTorch's KeyValueComp do)
    items: list[Any] = [(key_list[i], i) for i in v]

    def less(a: Any, b: Any) -> bool:
        return less_key(a[0], b[0])

    _introsort(items, 0, n, 2 * int(math.log2(n)), less)
    if n > _THRESHOLD:
        _insertion_sort(items, 0, _THRESHOLD, less)
        for i in range(_THRESHOLD, n):
            _linear_insert(items, i, less)
    else:
        _insertion_sort(items, 0, n, less)
    return np.array([i for _, i in items], dtype=np.int64)


__all__ = ["std_sort_order"]

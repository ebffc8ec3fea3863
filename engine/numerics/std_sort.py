"""The order of an unstable sort: PyTorch's CPU ``sort`` (``stable=False``, the default) runs libstdc++'s ``std::sort``
over (value, index) pairs (aten/src/ATen/native/cpu/SortingKernel.cpp, ``KeyValueCompAsc``/``KeyValueCompDesc``:
NaN after every number, or before when descending). Equal values then come out in the order that introsort leaves
them, not the order they had: ``torch.tensor([0, 1] * 9.).sort()`` gives indices ``[2, 16, 4, 6, 14, ...]``.
Reproduced here step for step (introsort with a median-of-three pivot, depth limit 2·⌊log2 n⌋, heapsort past it,
a final insertion sort over runs of 16), for rows with equal values (a row of distinct values has one order)."""

from __future__ import annotations

from collections.abc import Callable

Pair = tuple[float, int]
Comp = Callable[[Pair, Pair], bool]

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _asc(x: Pair, y: Pair) -> bool:
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _desc(x: Pair, y: Pair) -> bool:
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def order(values: list[float], descending: bool) -> list[int]:
    """The indices ``std::sort`` puts ``values`` in (ascending, or descending), ties as introsort leaves them."""
    a: list[Pair] = [(v, i) for i, v in enumerate(values)]
    comp = _desc if descending else _asc
    n = len(a)
    if n > 1:
        _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1), comp)
        _final_insertion_sort(a, 0, n, comp)
    return [i for _, i in a]


def _introsort_loop(a: list[Pair], first: int, last: int, depth: int, comp: Comp) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, comp)
        _introsort_loop(a, cut, last, depth, comp)
        last = cut


def _partition_pivot(a: list[Pair], first: int, last: int, comp: Comp) -> int:
    mid = first + (last - first) // 2
    _median_to_first(a, first, first + 1, mid, last - 1, comp)
    return _unguarded_partition(a, first + 1, last, first, comp)


def _median_to_first(a: list[Pair], result: int, x: int, y: int, z: int, comp: Comp) -> None:
    if comp(a[x], a[y]):
        if comp(a[y], a[z]):
            pick = y
        elif comp(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif comp(a[x], a[z]):
        pick = x
    elif comp(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list[Pair], first: int, last: int, pivot: int, comp: Comp) -> int:
    p = a[pivot]
    while True:
        while comp(a[first], p):
            first += 1
        last -= 1
        while comp(p, a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _final_insertion_sort(a: list[Pair], first: int, last: int, comp: Comp) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, comp)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, comp)
    else:
        _insertion_sort(a, first, last, comp)


def _insertion_sort(a: list[Pair], first: int, last: int, comp: Comp) -> None:
    for i in range(first + 1, last):
        if comp(a[i], a[first]):
            val = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, comp)


def _unguarded_linear_insert(a: list[Pair], last: int, comp: Comp) -> None:
    val = a[last]
    nxt = last - 1
    while comp(val, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _heap_sort(a: list[Pair], first: int, last: int, comp: Comp) -> None:
    """``std::__partial_sort(first, last, last)``: make_heap, then sort_heap."""
    n = last - first
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _adjust_heap(a, first, parent, n, a[first + parent], comp)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value, comp)


def _adjust_heap(a: list[Pair], first: int, hole: int, n: int, value: Pair, comp: Comp) -> None:
    top = child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


__all__ = ["order"]

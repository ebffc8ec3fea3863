"""The order in which a backward pass runs its ready nodes: PyTorch's ``ReadyQueue``, a ``std::priority_queue``
(libstdc++'s binary heap) ordered by the nodes' sequence numbers, the latest-created first, with ``AccumulateGrad``
nodes (sequence number ``UINT64_MAX``) before all others. Nodes of equal priority (two leaves whose gradients are
ready at once, ``u = x * w``) come out in the order that heap's sifting gives them, not first-in-first-out:
reproduced here step for step (``std::push_heap``/``std::pop_heap``), so that leaf hooks and ``.grad`` changes
happen in PyTorch's order."""

from __future__ import annotations

from typing import Any

from engine.graph import AccumulateGrad

_LEAF = float("inf")  # AccumulateGrad's sequence number, UINT64_MAX: above every other node's


class ReadyQueue:
    """A max-heap of ``[priority, node]`` with libstdc++'s push and pop."""

    __slots__ = ("_heap",)

    def __init__(self) -> None:
        self._heap: list[tuple[float, Any]] = []

    def __bool__(self) -> bool:
        return bool(self._heap)

    def push(self, node: Any) -> None:
        """``std::push_heap``: append, then sift up while the parent's priority is lower."""
        heap = self._heap
        entry = (_LEAF if isinstance(node, AccumulateGrad) else node._seq, node)
        heap.append(entry)
        if len(heap) > 1:  # (a chain's backward pass keeps one node ready at a time)
            self._sift_up(len(heap) - 1, 0, entry)

    def _sift_up(self, hole: int, top: int, entry: tuple[float, Any]) -> None:
        heap = self._heap
        prio = entry[0]
        parent = (hole - 1) // 2
        while hole > top and heap[parent][0] < prio:
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = entry

    def pop(self) -> Any:
        """``std::pop_heap`` then ``pop_back``: the top leaves, the last element fills the hole by
        ``__adjust_heap`` (down to a leaf along the larger children, then up again)."""
        heap = self._heap
        last = heap.pop()
        n = len(heap)
        if n == 0:
            return last[1]
        top = heap[0][1]
        hole = child = 0
        while child < (n - 1) // 2:
            child = 2 * (child + 1)
            if heap[child][0] < heap[child - 1][0]:
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if n % 2 == 0 and child == (n - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        self._sift_up(hole, 0, last)
        return top


__all__ = ["ReadyQueue"]

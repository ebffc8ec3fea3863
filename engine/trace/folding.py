"""Folding of repeated loop iterations, so that a trace of a long loop keeps what teaches.

The first ``KEEP`` iterations of a loop are recorded in full. From then on the events of each iteration are held
until the next one begins: then the held ledger events (``backward``, ``accumulate``, ``grad_reset``, ``step``,
``print``, ``warning``, ``error``) go out and the graph events (``tensor``, ``name``, ``node``, ``iteration``) are
dropped and counted. When the loop ends (however it ends), one ``folded`` event says which iterations were folded
and how many events they held, and the last iteration goes out in full. So a 5,000-iteration loop followed by
``y.backward()`` traces a handful of iterations' graphs, every ``.grad`` change and print, and the backward pass.

One loop folds at a time: the outermost one past its first iterations (its inner loops are part of its
iterations). Loops end in any order (a generator's loop can outlive the loop that started it).

Example::

    >>> sent = []
    >>> folder = Folder(sent.append)
    >>> loop = folder.loop_started(3)
    >>> for i in range(6):
    ...     folder.iteration(loop)
    ...     folder.route({"type": "print", "text": str(i)})
    ...     folder.route({"type": "tensor", "id": i})
    >>> folder.loop_ended(loop)
    >>> [e["type"] for e in sent if e["type"] != "iteration"].count("tensor")   # iterations 0-2 and the last
    4
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Event = dict[str, Any]

KEEP = 3  # iterations of a loop traced in full before folding starts
LEDGER = frozenset({"backward", "accumulate", "grad_reset", "step", "print", "warning", "error", "truncated"})
MAX_HELD = 10_000  # events of one iteration held at most; a bigger iteration is not folded (it goes out in full)


class Loop:
    """One running loop: its line, the index of its current iteration, and what folding it has held and dropped."""

    __slots__ = ("line", "index", "held", "folding", "first", "events")

    def __init__(self, line: int) -> None:
        self.line = line
        self.index = -1
        self.held: list[Event] | None = None  # the current iteration's events, while this loop folds
        self.folding = True  # False once an iteration was too big to hold
        self.first: int | None = None  # the first folded iteration (the last is the one before the current)
        self.events = 0  # graph events dropped so far


def iteration_event(loop: Loop) -> Event:
    return {"seq": None, "type": "iteration", "line": loop.line, "loop": loop.line, "index": loop.index}


class Folder:
    """Routes events either out (``send``) or into the held iteration of the folding loop."""

    def __init__(self, send: Callable[[Event], None], dropped: Callable[[Event], None] | None = None) -> None:
        self._send = send
        self._dropped = dropped  # told of each graph event dropped (the recorder remembers dropped tensors)
        self._loops: list[Loop] = []
        self._holder: Loop | None = None

    @property
    def holding(self) -> bool:
        return self._holder is not None

    def route(self, event: Event) -> None:
        holder = self._holder
        if holder is None:
            self._send(event)
            return
        held = holder.held
        assert held is not None
        held.append(event)
        if len(held) > MAX_HELD:  # an iteration this big is no repetition worth folding: let it out whole
            holder.folding = False
            self._release(holder)

    def loop_started(self, line: int) -> Loop:
        loop = Loop(line)
        self._loops.append(loop)
        return loop

    def iteration(self, loop: Loop) -> bool:
        """``loop`` begins its next iteration; True when its ``iteration`` event is due now (False while a loop
        folds: the held iteration's event goes out with it if it is the last)."""
        held = loop.held
        loop.index += 1
        if held is not None:  # this loop folds: the iteration before this one is folded (at no cost if empty)
            if held:
                self._fold(loop)
            return False
        if self._holder is not None:
            return False
        if loop.index >= KEEP and loop.folding and loop in self._loops:
            loop.held = []
            loop.first = loop.index
            self._holder = loop
            return False
        return True

    def loop_ended(self, loop: Loop) -> None:
        if loop in self._loops:
            self._loops.remove(loop)
        if loop.held is not None:
            self._release(loop)

    def close(self) -> None:
        """The run ended: every loop still open (a generator never finished) lets its last iteration out."""
        for loop in list(self._loops):
            self.loop_ended(loop)

    def _fold(self, loop: Loop) -> None:
        held = loop.held or []
        loop.held = []
        dropped = 0
        for event in held:
            if event["type"] in LEDGER:
                event["folded"] = True
                self._send(event)
            else:
                dropped += 1
                if self._dropped is not None:
                    self._dropped(event)
        loop.events += dropped

    def _release(self, loop: Loop) -> None:
        held = loop.held or []
        loop.held = None
        if self._holder is loop:
            self._holder = None
        first, last = loop.first, loop.index - 1
        if first is not None and last >= first:
            self._send(
                {
                    "seq": None,
                    "type": "folded",
                    "line": loop.line,
                    "loop": loop.line,
                    "first": first,
                    "last": last,
                    "iterations": last - first + 1,
                    "events": loop.events,
                }
            )
        loop.first, loop.events = None, 0
        if loop.index >= 0:
            self._send(iteration_event(loop))
        for event in held:
            self._send(event)

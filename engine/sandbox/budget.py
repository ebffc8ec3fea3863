"""Every limit of a run in one place: the defaults (``Limits``) and the per-run counter (``Budget``).

Budgets bound what a run *does* (interpreted steps, wall time, output) and what is *alive* (tensor elements held
at once, elements per tensor, Python ints, strings and lists), not the sum of everything ever allocated, so that a
2,000-step fit on 2,000 points runs while ``while True: pass`` or
``torch.zeros(10**6, 10**6)`` end quickly with a ``LimitExceeded`` naming the limit.

Example::

    >>> budget = Budget(Limits(max_steps=1000))
    >>> budget.check_alloc(10**12)
    Traceback (most recent call last):
    LimitExceeded: a tensor of 1000000000000 elements is over the limit of 4,194,304 elements per tensor
"""

from __future__ import annotations

import gc
import time
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.sandbox.errors import LimitExceeded
from engine.sandbox.resident import release_free_memory, resident_bytes

_CHECK_EVERY = 256  # steps between wall-clock checks, while steps are cheap
_CHECK_AT_LEAST = 16  # ... and when they are heavy (each one a big tensor op or a long C call)
_SLOW_TICK = 0.02  # seconds between two checks above which the next check comes sooner
CALL_STEPS = 4  # a call of a user function costs what ~5 statements do (a frame, its arguments bound): 4 steps more
CATCH_STEPS = 4  # so does an exception caught by `except` (unwinding the interpreter's frames to the handler)
TRACK_MIN = 100  # tensors with fewer elements are not tracked while alive
_BIG = 10_000  # strings and containers from this length on count against max_built_items


@dataclass(frozen=True)
class Limits:
    """The defaults of one run. Override any of them: ``run(code, limits=Limits(max_seconds=1))``; the server reads
    them from ``GRADTRACE_*`` environment variables (``server/settings.py``)."""

    max_steps: int = 1_000_000  # interpreted AST nodes and statements; user try/except cannot catch the breach
    # Wall clock of the program, from the start of the run (the server counts from the request's arrival, so that
    # the answer, trace included, is out within its 5 s deadline: GRADTRACE_RUN_DEADLINE_SECONDS).
    max_seconds: float = 4.5
    # one tensor (16 MiB of float32), computed from the output shape before allocating: room for the MNIST
    # recipe's nn.Linear(9216, 128); one op longer than the clock allows (a 2048-cube product) meets the server's
    # deadline
    max_tensor_elements: int = 4_194_304
    # Tensor elements alive at once (200 MB of float32; 8-byte elements count twice): the numpy buffers of
    # tensors, saved values, gradients and optimizer states of TRACK_MIN elements or more are counted until they
    # are freed; smaller ones cannot add up to much within the step limit.
    max_alive_elements: int = 50_000_000
    max_graph_nodes: int = 100_000  # grad_fn nodes alive at once (backward walks them without recursion)
    max_output_bytes: int = 64 * 1024  # stdout
    max_events: int = 10_000  # graph events; past it one `truncated` event, then only ledger events (docs/TRACE.md)
    max_depth: int = 200  # nested user function calls
    max_ast_depth: int = 100  # syntax nesting
    max_int_bits: int = 100_000  # Python ints made by ** * <<
    max_str_length: int = 1_000_000
    max_list_length: int = 1_000_000
    # Over the run, in strings and lists of 10,000+ items: a character or a list slot is an item; what a call
    # returns (tolist()'s floats, set(range(n)), d.copy()) counts an item per 8 bytes it holds.
    max_built_items: int = 20_000_000
    # What the process may grow by in RAM during the run, read at each clock check: a backstop for Python values
    # no count sees (a hundred thousand lists of 9,999 items each); the counted budgets above come first.
    max_resident_growth: int = 300 * 2**20


class _Held(weakref.ref):  # type: ignore[type-arg]
    """A weak reference to a numpy buffer counted alive, with its key and the elements it counts for."""

    __slots__ = ("key", "units")


class Budget:
    """The counters of one run; the engine calls ``check_alloc`` through ``RunState.budget``."""

    def __init__(self, limits: Limits | None = None, started: float | None = None) -> None:
        self.limits = limits or Limits()
        self.started = started  # time.monotonic() the clock counts from (None: when the run starts)
        self.steps = 0
        self.next_check = 0
        self._every = _CHECK_EVERY  # steps until the next check of the clock
        self._last_tick = time.monotonic()
        self.alive = 0  # elements of tracked tensors not freed yet
        self._tracked: dict[int, _Held] = {}  # by id of the buffer
        self.nodes = 0  # graph nodes not freed yet
        self._nodes: dict[int, Any] = {}
        self.output_bytes = 0
        self.built = 0  # items of big strings and lists built so far
        self.depth = 0
        self.deadline = time.monotonic() + self.limits.max_seconds
        self._resident: int | None = None  # resident bytes when the run started (None: not watched)
        self.breached: LimitExceeded | None = None  # the first limit hit: from then on no user code runs

    def breach(self, exc: LimitExceeded) -> None:
        """A limit was hit: the run is over. Every later step of user code (a ``finally``, a hook, a handler the
        engine calls) raises the breach again at once: ``next_check`` below every step count sends each to
        ``tick``."""
        if self.breached is None:
            self.breached = exc
        self.next_check = -1

    def start(self) -> None:
        """Start the clock: from ``started`` if given (the server's request arrival), else now."""
        origin = time.monotonic() if self.started is None else self.started
        self.deadline = origin + self.limits.max_seconds
        self.next_check = min(_CHECK_EVERY, self.limits.max_steps)
        self._every = _CHECK_EVERY
        self._last_tick = time.monotonic()
        release_free_memory()
        self._resident = resident_bytes()

    def tick(self) -> None:
        """Called by the interpreter when ``steps`` reaches ``next_check``: enforce the step and time limits. The
        clock is read every 256 steps, or down to every 16 while steps are slow, so that heavy steps cannot run
        far past the time limit."""
        if self.breached is not None:
            self.next_check = -1
            raise self.breached
        limits = self.limits
        if self.steps > limits.max_steps:
            raise LimitExceeded(f"the program ran more than {limits.max_steps:,} steps (step limit)")
        now = time.monotonic()
        if now > self.deadline:
            self.check_time()
        if now - self._last_tick > _SLOW_TICK:  # much too slow (a C call per step): check at every chance now
            self._every = (
                _CHECK_AT_LEAST if now - self._last_tick > 5 * _SLOW_TICK else max(self._every // 2, _CHECK_AT_LEAST)
            )
        elif self._every < _CHECK_EVERY:
            self._every *= 2
        self._last_tick = now
        self.next_check = min(self.steps + self._every, limits.max_steps + 1)
        if self._resident is not None:
            self._check_resident()

    def _check_resident(self) -> None:
        now = resident_bytes()
        if now is None or now - self._resident <= self.limits.max_resident_growth:
            return
        gc.collect()  # values kept only by reference cycles: collect, then judge
        now = resident_bytes()
        if now is not None and now - self._resident > self.limits.max_resident_growth:
            raise LimitExceeded(
                f"the program uses more than {self.limits.max_resident_growth // 2**20:,} MB of memory (memory limit)"
            )

    def charge_steps(self, steps: int) -> None:
        """Count ``steps`` more for interpreter work heavier than one node (a call, a caught exception)."""
        self.steps += steps
        if self.steps >= self.next_check:
            self.tick()

    def charge(self, steps: int) -> None:
        """Count ``steps`` more: one C call about to do the work of that many interpreted steps."""
        self.steps += steps
        if self.steps >= self.next_check:
            self.tick()
        else:
            self.check_clock()

    def check_clock(self) -> None:
        """Enforce the time limit now (before a C call that may be slow: steps only read the clock now and then)."""
        if time.monotonic() > self.deadline:
            self.check_time()

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise LimitExceeded(f"the program ran longer than {self.limits.max_seconds:g} seconds (time limit)")

    def check_alloc(self, numel: int) -> None:
        """The engine is about to allocate a user-sized tensor of ``numel`` elements."""
        limits = self.limits
        if numel > limits.max_tensor_elements:
            self._over_tensor(numel)
        if self.alive + numel > limits.max_alive_elements:
            self._over_alive(numel)
        if time.monotonic() > self.deadline:
            self.check_time()

    def _over_tensor(self, numel: int) -> None:
        raise LimitExceeded(
            f"a tensor of {numel} elements is over the limit of {self.limits.max_tensor_elements:,} elements per tensor"
        )

    def _over_alive(self, numel: int) -> None:
        gc.collect()  # tensors kept only by reference cycles count until collected: collect, then judge
        if self.alive + numel <= self.limits.max_alive_elements:
            return
        raise LimitExceeded(
            f"the program holds more than {self.limits.max_alive_elements:,} tensor elements at once (memory limit)"
        )

    def track(self, data: Any, numel: int) -> None:
        """Count the memory behind ``data`` (the numpy array of a tensor of ``numel`` elements, or one the engine
        keeps: a graph node's saved values, a gradient, an optimizer's state) as alive until it is freed.

        What is counted is the buffer the array lives in (its base), once however many arrays share it: a view
        (``torch.ones(10**6)[:1]``), ``t.data = big`` or a saved result keeps the whole buffer alive after the
        tensor that made it is gone. Elements of 8 bytes count twice (the limit is in 4-byte elements)."""
        if numel > self.limits.max_tensor_elements:
            self._over_tensor(numel)
        root, base = data, data.base
        while isinstance(base, np.ndarray):
            root, base = base, base.base
        key = id(root)
        if key in self._tracked:
            return
        units = root.size * max(root.itemsize, 4) // 4
        if units < TRACK_MIN:
            return
        ref = _Held(root, self._freed)
        ref.key, ref.units = key, units
        self._tracked[key] = ref
        self.alive += units
        if self.alive > self.limits.max_alive_elements:
            self._over_alive(0)

    def _freed(self, ref: Any) -> None:
        if self._tracked.get(ref.key) is ref:
            del self._tracked[ref.key]
            self.alive -= ref.units

    def track_node(self, node: Any) -> None:
        """Count the graph node ``node`` as alive until it is freed (the recorder calls this for each new
        ``grad_fn``): a graph is bounded like the tensors it holds."""
        self.nodes += 1
        ref = weakref.ref(node, self._node_freed)
        self._nodes[id(ref)] = ref
        if self.nodes > self.limits.max_graph_nodes:
            gc.collect()  # nodes kept only by reference cycles count until collected: collect, then judge
            if self.nodes > self.limits.max_graph_nodes:
                raise LimitExceeded(
                    f"the program holds more than {self.limits.max_graph_nodes:,} autograd graph nodes at once "
                    "(graph limit)"
                )

    def _node_freed(self, ref: Any) -> None:
        if self._nodes.pop(id(ref), None) is not None:
            self.nodes -= 1

    def check_output(self, nbytes: int) -> None:
        """``print`` is about to write ``nbytes`` more bytes of stdout."""
        self.output_bytes += nbytes
        if self.output_bytes > self.limits.max_output_bytes:
            raise LimitExceeded(f"the program printed more than {self.limits.max_output_bytes:,} bytes (output limit)")

    def materialize(self, items: Any) -> Any:
        """``items`` as a sized collection, counting a step per item of a lazy iterator, so that builtins written
        in C (``sum``, ``sorted``, ``list``...) never loop unbounded over ``range(10**12)`` or a generator."""
        self.check_clock()
        if type(items) in (list, tuple, str, dict, set, frozenset):
            return items
        if hasattr(items, "__len__"):
            self.check_length(list, len(items))
            return items
        out = []
        append = out.append
        limit = self.limits.max_list_length
        for item in items:
            self.steps += 1
            if self.steps >= self.next_check:
                self.tick()
            append(item)
            if len(out) > limit:
                self.check_length(list, len(out))
        return out

    # -- sizes of Python values, checked before an operation builds them --------------------------------------

    def check_int_bits(self, bits: int) -> None:
        if bits > self.limits.max_int_bits:
            raise LimitExceeded(f"an integer of about {bits:,} bits is over the limit of {self.limits.max_int_bits:,}")

    def check_length(self, value: Any, length: int) -> None:
        """``value`` (a str or a sequence, or its type) would get ``length`` items."""
        self.check_size(value, length)
        if length >= _BIG:
            # Strings and lists cannot be watched while alive (no weak references), so big ones count over the
            # whole run: a thousand strings of a million characters would otherwise fill the memory.
            self.count_built(length)

    def check_size(self, value: Any, length: int) -> None:
        """The length limits alone: a string of ``max_str_length`` characters, a sequence of ``max_list_length``."""
        if isinstance(value, str) or value is str:
            if length > self.limits.max_str_length:
                raise LimitExceeded(
                    f"a string of {length:,} characters is over the limit of {self.limits.max_str_length:,}"
                )
        elif length > self.limits.max_list_length:
            raise LimitExceeded(f"a sequence of {length:,} items is over the limit of {self.limits.max_list_length:,}")

    def count_built(self, items: int) -> None:
        """A big string or container of ``items`` items (or 8-byte words) was or is about to be built."""
        self.built += items
        if self.built > self.limits.max_built_items:
            raise LimitExceeded(
                f"the program built more than {self.limits.max_built_items:,} items of large strings and lists "
                "(memory limit)"
            )

"""The budget's observer of the engine: what a run makes and runs, counted against its limits.

The engine reports to one observer per run (``engine.run_state``). The meter is that observer: it charges the
budget for each tensor made (its memory while alive, its graph node, the steps it costs) and for each node a
backward pass runs, then hands the event on to the trace recorder, which only records. The recorder's other
observer methods are bound straight onto the meter, so they cost nothing more.

Example::

    >>> meter = Meter(Budget(Limits()), Recorder())
    >>> with use_state(RunState(observer=meter)):
    ...     ...
"""

from __future__ import annotations

import math
from typing import Any

from engine.meta import MetaArray
from engine.sandbox.budget import TRACK_MIN, Budget
from engine.trace.recorder import Recorder

TENSOR_STEPS = 8  # steps of the budget each tensor made costs (~10-50 microseconds, ~20 interpreted steps; more cuts
# real 2,000-step tutorials short: the tensor-based polynomial fit needs ~450 steps an iteration at 8)
BIG_GRAPH = 10_000  # graph nodes alive from which making a tensor costs twice the steps
NODE_STEPS = 4  # steps each node run by a backward pass costs (~6 microseconds)

_PASSED_ON = (
    "backward_started",
    "grad_accumulated",
    "grad_reset",
    "param_stepped",
    "warning",
    "module_entered",
    "module_left",
)


class Meter:
    """Charges ``budget`` for what the engine does, and passes every event on to ``recorder``."""

    def __init__(self, budget: Budget, recorder: Recorder) -> None:
        self.budget = budget
        self.recorder = recorder
        self._record_tensor = recorder.tensor_created
        self._record_node = recorder.node_ran
        for name in _PASSED_ON:
            setattr(self, name, getattr(recorder, name))
        recorder.announce = self.tensor_created  # a tensor the recorder meets unannounced is counted too

    def tensor_created(self, t: Any) -> None:
        """Count ``t`` (and its new ``grad_fn``) against the budget of what is alive; check the clock; record it."""
        budget = self.budget
        fn = t._grad_fn
        data = t._data
        size = data.size
        meta = type(data) is MetaArray  # a meta tensor: a shape and a dtype, no elements to count
        if not meta and (size >= TRACK_MIN or data.base is not None):  # a small view may keep a big buffer alive
            budget.track(data, size)
        if size == 0 and data.ndim > 1 and not meta:  # an empty tensor keeps its other sizes: the next op may fill them
            budget.check_alloc(math.prod(d for d in data.shape if d))
        if fn is not None and fn._trace_id is None:
            budget.track_node(fn)
        # Making a tensor costs steps too: one engine call can make a million of them (`list(x)`, `x.unbind()`,
        # `for row in x`), each costing more than an interpreted step; they end at the step limit, not at seconds.
        # On a big live graph (a 100,000-op chain, never freed) each op costs twice: the engine is slower there
        # (every collection walks the graph), and such programs end at the step limit, not at seconds; a training
        # loop frees its graph every iteration and stays far below.
        budget.steps += TENSOR_STEPS if budget.nodes < BIG_GRAPH else 2 * TENSOR_STEPS
        if budget.steps >= budget.next_check:
            budget.tick()
        else:
            budget.check_time()
        self._record_tensor(t)

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        budget = self.budget  # backward passes cost steps: y.backward(retain_graph=True) in a loop re-runs a graph
        budget.steps += NODE_STEPS
        if budget.steps >= budget.next_check:
            budget.tick()
        else:
            budget.check_time()
        self._record_node(node, grad_outputs, grad_inputs)

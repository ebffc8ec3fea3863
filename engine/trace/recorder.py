"""The recorder: turns the engine's observer calls into the trace events of the contract (plain dicts).

Events: ``tensor``, ``name``, ``backward``, ``node`` (with each edge's chain-rule template, ``formulas``),
``accumulate``, ``grad_reset``, ``step``, ``warning``, ``print``, ``error``; each with ``seq``, ``type`` and ``line``. Tensor ids are per-run integers kept on the tensor
(and on its ``grad_fn``) as ``_trace_id``. Tensor events of the current statement are held back until the statement
ends (or any other event is due) so that ``y = (x ** 2).sum()`` names the sum tensor ``y``. Past ``max_events``
one ``truncated`` event goes out and the run goes on untraced (only a final ``error`` event still follows), while
the recorder keeps counting tensors and graph nodes alive for the budget.

Example::

    >>> rec = Recorder()
    >>> with use_state(RunState(observer=rec)):
    ...     x = torch.tensor(2.0, requires_grad=True)
    >>> rec.bind("x", x); rec.flush()
    >>> rec.events[0]["name"], rec.events[0]["values"]
    ('x', 2.0)
"""

from __future__ import annotations

import math
import re
import types
from typing import Any, Callable

import numpy as np

from engine.autograd import AccumulateGrad
from engine.trace.values import MAX_ELEMENTS, summarize, to_values

TRACK_MIN = 100  # the same as engine.sandbox.budget.TRACK_MIN
SMALL = 16  # arrays written in full once the run has written its share of values
TENSOR_STEPS = 8  # steps of the budget each tensor made costs (~10 microseconds, ~20 interpreted steps)
NODE_STEPS = 4  # steps each node run by a backward pass costs (~6 microseconds)

Event = dict[str, Any]

_IGNORE, _TENSOR, _MODULE = 0, 1, 2
_DTYPE_NAMES: dict[Any, str] = {}


def _dtype_name(dtype: Any) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name
    return name


def _engine_function(fn: Any) -> bool:
    return isinstance(fn, types.FunctionType) and (fn.__module__ or "").startswith(("engine.", "torch"))


_PLACE = re.compile(r"\{(\d+)(\.shape)?\}")


def _renumber(formulas: list[str | None], kept: list[bool]) -> list[str | None]:
    """Templates number a node's inputs as ``next_functions`` does; the trace numbers only the tracked ones (its
    ``inputs``). Renumber to the trace's order; an input the trace doesn't have (a constant tensor) is named so."""
    if all(kept):
        return formulas
    where = {j: sum(kept[:j]) for j in range(len(kept)) if kept[j]}

    def put(m: re.Match[str]) -> str:
        j = int(m.group(1))
        return f"{{{where[j]}{m.group(2) or ''}}}" if j in where else "(a constant)"

    return [None if f is None else _PLACE.sub(put, f) for f in formulas]


class Recorder:
    """Implements ``engine.hooks.Observer``; the interpreter sets ``line`` and calls ``bind``/``flush``/``print``."""

    def __init__(
        self,
        on_event: Callable[[Event], None] | None = None,
        max_events: int | None = None,
        budget: Any = None,
        max_values: int = 500_000,
    ) -> None:
        self.events: list[Event] = []
        self.max_events = max_events
        # Values written out in full, over the run: past ``max_values`` (~16 MB of Python floats, ~12 MB of JSON
        # that takes ~0.3 s to encode) arrays of more than SMALL elements are summarized too, so a long loop over
        # mid-size tensors can neither fill the memory nor make an answer too big to send within the deadline.
        self._values_left = max_values
        self._max_full = MAX_ELEMENTS
        self.budget = budget  # optional: tensors of TRACK_MIN+ elements are counted alive by ``budget.track``
        self.on_event = on_event
        self.line: int | None = None
        self.pending: list[Event] = []  # this statement's tensor events, not sent yet
        self._pending_ids: dict[int, Event] = {}
        self._named: dict[int, str] = {}  # id -> name, for names that went out already
        self._next_id = 0
        self._kinds: dict[type, int] = {}
        self.truncated = False  # past max_events: nothing more is recorded (but budgets are still counted)

    # -- sending ---------------------------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        if self.pending:
            self.flush()
        self._send(event)

    def _send(self, event: Event) -> None:
        if self.truncated:
            return
        if self.max_events is not None and len(self.events) >= self.max_events:
            self.truncated = True
            self.pending = []
            self._pending_ids = {}
            event = {"seq": None, "type": "truncated", "line": self.line, "limit": self.max_events,
                     "message": f"the trace stops after {self.max_events:,} events (event limit); the program "
                                "goes on and its output is kept"}
        self._append(event)

    def _append(self, event: Event) -> None:
        event["seq"] = len(self.events)
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def flush(self) -> None:
        """Send the held-back tensor events (the interpreter calls this at the end of each statement)."""
        pending = self.pending
        if not pending:
            return
        self.pending = []
        self._pending_ids = {}
        for event in pending:
            if event["name"] is not None:
                self._named[event["id"]] = event["name"]
            self._send(event)

    # -- names -----------------------------------------------------------------------------------------------

    def _kind(self, cls: type) -> int:
        kind = _IGNORE
        if any((getattr(b, "__module__", "") or "").startswith(("engine.", "torch")) for b in cls.__mro__):
            if hasattr(cls, "grad_fn"):
                kind = _TENSOR
            elif _engine_function(getattr(cls, "named_parameters", None)):
                kind = _MODULE  # (a user class overriding named_parameters is not called from here)
        self._kinds[cls] = kind
        return kind

    def bind(self, name: str, value: Any) -> None:
        """User code bound ``name`` to ``value``: name the tensor (or a module's parameters) if still unnamed."""
        if self.truncated:
            return
        kind = self._kinds.get(type(value))
        if kind is None:
            kind = self._kind(type(value))
        if kind == _TENSOR:
            self._name(value, name)
        elif kind == _MODULE:
            if self.budget is not None:
                self.budget.check_time()  # the walk below visits every sub-module: a deep tree stops in time
            try:
                params = list(value.named_parameters())
            except Exception:  # a half-built user module: nothing to name yet
                return
            for pname, param in params:
                self._name(param, f"{name}.{pname}")

    def _name(self, t: Any, name: str) -> None:
        tid = t._trace_id
        if tid is None:
            return
        event = self._pending_ids.get(tid)
        if event is not None:
            if event["name"] is None:
                event["name"] = name
        elif tid not in self._named:
            self._named[tid] = name
            self._emit({"seq": None, "type": "name", "line": self.line, "tensor": tid, "name": name})

    def _values(self, array: Any) -> Any:
        if array is None:
            return None
        if type(array) is not np.ndarray:
            array = np.asarray(array)
        size = array.size
        if size > self._max_full:
            return summarize(array)
        self._values_left -= size
        if self._values_left < 0:
            self._max_full = SMALL
        return to_values(array)

    def _name_of(self, tid: int) -> str | None:
        event = self._pending_ids.get(tid)
        return event["name"] if event is not None else self._named.get(tid)

    def _id(self, t: Any) -> int:
        tid = t._trace_id
        if tid is None:  # a tensor the engine made without announcing it: announce it now
            self.tensor_created(t)
            tid = t._trace_id
        return tid  # type: ignore[no-any-return]

    # -- the Observer protocol -------------------------------------------------------------------------------

    def _count(self, t: Any, fn: Any) -> None:
        """Count ``t`` (and its new ``grad_fn``) against the budget of what is alive; check the clock."""
        budget = self.budget
        if budget is None:
            return
        data = t._data
        size = data.size
        if size >= TRACK_MIN or data.base is not None:  # a small view may keep a big buffer alive
            budget.track(data, size)
        if size == 0 and data.ndim > 1:  # an empty tensor keeps its other sizes: the next op may fill them
            budget.check_alloc(math.prod(d for d in t._data.shape if d))
        if fn is not None and fn._trace_id is None:
            budget.track_node(fn)
        # Making a tensor costs steps too: one engine call can make a million of them (`list(x)`, `x.unbind()`,
        # `for row in x`), each costing more than an interpreted step; they end at the step limit, not at seconds.
        budget.steps += TENSOR_STEPS
        if budget.steps >= budget.next_check:
            budget.tick()
        else:
            budget.check_time()

    def tensor_created(self, t: Any) -> None:
        fn = t._grad_fn
        if self.truncated:
            self._count(t, fn)
            if fn is not None:
                fn._trace_id = -1  # counted once; no event refers to it
            return
        self._count(t, fn)
        previous = t._trace_id  # an in-place op re-announces its tensor: a new id, same variable name
        tid = self._next_id
        self._next_id = tid + 1
        t._trace_id = tid
        inputs: list[int] = []
        op = None
        if fn is not None:
            fn._trace_id = tid
            op = fn.name()
            for nxt, _ in fn.next_functions:
                if nxt is None:
                    continue
                if type(nxt) is AccumulateGrad:
                    inputs.append(self._id(nxt.variable))
                elif nxt._trace_id is not None:
                    inputs.append(nxt._trace_id)
        data = t._data
        event = {
            "seq": None,
            "type": "tensor",
            "line": self.line,
            "id": tid,
            "name": None if previous is None else self._name_of(previous),
            "op": op,
            "inputs": inputs,
            "shape": list(data.shape),
            "dtype": _dtype_name(data.dtype),
            "values": self._values(data),
            "requires_grad": t._requires_grad,
            "is_leaf": fn is None,
        }
        self.pending.append(event)
        self._pending_ids[tid] = event

    def backward_started(self, root: Any, gradient: Any, retain_graph: Any) -> None:
        if self.truncated:
            return
        self._emit({"seq": None, "type": "backward", "line": self.line, "root": self._id(root),
                    "gradient": self._values(gradient), "retain_graph": bool(retain_graph)})

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        budget = self.budget
        if budget is not None:  # backward passes cost steps: y.backward(retain_graph=True) in a loop re-runs a graph
            budget.steps += NODE_STEPS
            if budget.steps >= budget.next_check:
                budget.tick()
            else:
                budget.check_time()
        if self.truncated:
            return
        # One grad_input per entry of the tensor event's ``inputs`` (edges to untracked nodes are dropped alike).
        kept = [nxt is not None and (nxt._trace_id is not None or type(nxt) is AccumulateGrad)
                for nxt, _ in node.next_functions]
        grads = [self._values(g) for keep, g in zip(kept, grad_inputs) if keep]
        # The chain-rule step of each kept edge as a template ("{grad} · 2·{0}"; see Function.formulas).
        # (a node of another autograd implementation may have none: then null for each edge)
        templates = node.formulas() if hasattr(node, "formulas") else [None] * len(kept)
        formulas = _renumber([f for keep, f in zip(kept, templates) if keep], kept)
        grad_output = self._values(grad_outputs[0]) if grad_outputs else None
        self._emit({"seq": None, "type": "node", "line": self.line, "tensor": node._trace_id, "op": node.name(),
                    "grad_output": grad_output, "grad_inputs": grads, "formulas": formulas})

    def grad_accumulated(self, leaf: Any, before: Any, delta: Any, after: Any) -> None:
        if self.truncated:
            return
        self._emit({"seq": None, "type": "accumulate", "line": self.line, "tensor": self._id(leaf),
                    "before": self._values(before), "delta": self._values(delta), "after": self._values(after)})

    def grad_reset(self, t: Any, how: str) -> None:
        if self.truncated:
            return
        self._emit({"seq": None, "type": "grad_reset", "line": self.line, "tensor": self._id(t), "how": how})

    def param_stepped(self, t: Any, before: Any, after: Any) -> None:
        if self.truncated:
            return
        self._emit({"seq": None, "type": "step", "line": self.line, "tensor": self._id(t),
                    "before": self._values(before), "after": self._values(after)})

    def warning(self, message: str) -> None:
        self._emit({"seq": None, "type": "warning", "line": self.line, "message": str(message)})

    # -- what the interpreter and runner report --------------------------------------------------------------

    def print(self, text: str) -> None:
        if self.truncated:
            return
        self._emit({"seq": None, "type": "print", "line": self.line, "text": text})

    def error(self, error_type: str, message: str, line: int | None) -> None:
        if self.truncated:  # the error still goes out after a `truncated` event
            self._append({"seq": None, "type": "error", "line": line, "error_type": error_type, "message": message})
            return
        self._emit({"seq": None, "type": "error", "line": line, "error_type": error_type, "message": message})

"""The recorder: turns the engine's observer calls into the trace events of the contract (plain dicts).

Events: ``tensor``, ``name``, ``backward``, ``node``, ``accumulate``, ``grad_reset``, ``step``, ``warning``,
``print``, ``error``, ``iteration``, ``folded``, ``truncated``; each with ``seq``, ``type`` and ``line``
(``docs/TRACE.md`` is the contract, ``server/schemas/events.py`` its models). Tensor ids are per-run integers kept
on the tensor (and on its ``grad_fn``) as ``_trace_id``. Tensor events of the current statement are held back until
the statement ends (or any other event is due) so that ``y = (x ** 2).sum()`` names the sum tensor ``y``.

Long programs keep what teaches. Repeated loop iterations are folded (``engine/trace/folding.py``): the first few
and the last in full, the rest counted in one ``folded`` event while their ledger events (``backward``,
``accumulate``, ``grad_reset``, ``step``, ``print``, ``warning``, ``error``) still go out. Past ``max_events``
graph events (``tensor``, ``name``, ``node``, ``iteration``) one ``truncated`` event goes out and the graph is no
longer traced, while ledger events still are, up to ``LEDGER_FACTOR`` times as many (then nothing but a final
``error``). The recorder only records: the run's budget is charged by its own observer (``engine/sandbox/meter.py``),
which hands each event on to the recorder.

Example::

    >>> rec = Recorder()
    >>> with use_state(RunState(observer=rec)):
    ...     x = torch.tensor(2.0, requires_grad=True)
    >>> rec.bind("x", x); rec.flush()
    >>> rec.events[0]["name"], rec.events[0]["values"]
    ('x', 2.0)
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.autograd import AccumulateGrad
from engine.meta import MetaArray
from engine.trace.folding import LEDGER, Folder, Loop, iteration_event
from engine.trace.values import MAX_ELEMENTS, summarize, to_values

SMALL = 16  # arrays written in full once the run has written its share of values
MAX_HELD = 256  # tensor events held back inside a function call before they are sent anyway
LEDGER_FACTOR = 4  # ledger events recorded past the graph's event limit: this many times max_events in all

Event = dict[str, Any]

_IGNORE, _TENSOR, _MODULE = 0, 1, 2
_DTYPE_NAMES: dict[Any, str] = {}


def _dtype_name(dtype: Any) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name
    return name


def _ignore(_: Any) -> None:
    pass


def _engine_function(fn: Any) -> bool:
    return isinstance(fn, types.FunctionType) and (fn.__module__ or "").startswith(("engine.", "torch"))


_PLACE = re.compile(r"\{(\d+)(\.shape)?\}")


def _renumber(formulas: list[str | None], edges: list[int]) -> list[str | None]:
    return list(_renumbered(tuple(formulas), tuple(edges)))


@functools.lru_cache(maxsize=4096)
def _renumbered(formulas: tuple[str | None, ...], edges: tuple[int, ...]) -> tuple[str | None, ...]:
    """Templates number a node's inputs as ``next_functions`` does; the trace numbers only those it tracks (the
    tensor event's ``inputs``, the ``edges`` kept). Renumber to the trace's order, so ``{0}`` is ``inputs[0]``; an
    input the trace doesn't have (a constant tensor) is written ``(a constant)``."""
    where = {j: k for k, j in enumerate(edges)}

    def put(m: re.Match[str]) -> str:
        j = int(m.group(1))
        return f"{{{where[j]}{m.group(2) or ''}}}" if j in where else "(a constant)"

    return tuple(None if f is None else _PLACE.sub(put, f) for f in formulas)


class Recorder:
    """Implements ``engine.hooks.Observer``; the interpreter sets ``line`` and calls ``bind``/``flush``/``print``."""

    def __init__(
        self,
        on_event: Callable[[Event], None] | None = None,
        max_events: int | None = None,
        clock: Callable[[], None] | None = None,
        max_values: int = 500_000,
    ) -> None:
        self.events: list[Event] = []
        self.max_events = max_events
        # Values written out in full, over the run: past ``max_values`` (~16 MB of Python floats, ~12 MB of JSON
        # that takes ~0.3 s to encode) arrays of more than SMALL elements are summarized too, so a long loop over
        # mid-size tensors can neither fill the memory nor make an answer too big to send within the deadline.
        self._values_left = max_values
        self._max_full = MAX_ELEMENTS
        self.clock = clock  # optional: checks the run's time limit during the recorder's own long walks
        self.announce: Callable[[Any], None] = self.tensor_created  # the meter puts itself here (sandbox/meter.py)
        self.on_event = on_event
        self.line: int | None = None
        self.pending: list[Event] = []  # this statement's tensor events, not sent yet
        self._pending_ids: dict[int, Event] = {}
        self._named: dict[int, str] = {}  # id -> name, for names that went out already
        self._next_id = 0
        self._kinds: dict[type, int] = {}
        self.truncated = False  # past max_events: the graph is no longer traced (ledger events still are)
        self.closed = False  # past LEDGER_FACTOR * max_events: nothing more is recorded but a final error
        self._graph_events = 0
        self._dropped: set[int] = set()  # tensors whose events were folded or cut: their nodes are not sent
        self._folder = Folder(self._deliver, self._drop)
        self._modules: dict[int, str] = {}  # id of a module the program named -> its path (`model.0`)
        self._module_stack: list[tuple[str, str]] = []  # (path, type) of the module calls running
        self._module_objects: list[Any] = []  # ... and the modules themselves

    # -- sending ---------------------------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        if self.pending:
            self.flush()
        self._send(event)

    def _send(self, event: Event) -> None:
        if not self.closed:
            self._folder.route(event)

    def _deliver(self, event: Event) -> None:
        """An event out of the folder: within the budgets it joins the trace."""
        if self.closed:
            return
        limit = self.max_events
        if event["type"] in LEDGER:
            if limit is not None and len(self.events) >= LEDGER_FACTOR * limit:
                self.closed = True
                event = {
                    "seq": None,
                    "type": "truncated",
                    "line": self.line,
                    "limit": LEDGER_FACTOR * limit,
                    "message": f"the trace stops after {LEDGER_FACTOR * limit:,} events (event limit); the "
                    "program goes on and its output is kept",
                }
            self._append(event)
            return
        if self.truncated:
            self._drop(event)
            return
        if limit is not None and self._graph_events >= limit:
            self.truncated = True
            self._drop(event)
            self._append(
                {
                    "seq": None,
                    "type": "truncated",
                    "line": self.line,
                    "limit": limit,
                    "message": f"the graph stops after {limit:,} events (event limit); .grad changes, "
                    "optimizer steps and prints are still traced, and the program goes on",
                }
            )
            return
        self._graph_events += 1
        kind = event["type"]  # an event of a held iteration that goes out after all: its values are written now
        if kind == "tensor" and type(event["values"]) is np.ndarray:
            event["values"] = self._values(event["values"])
        elif kind == "node" and "_node" in event:
            self._fill_node(event, event.pop("_node"))
        self._append(event)

    def _drop(self, event: Event) -> None:
        if event["type"] == "tensor":
            self._dropped.add(event["id"])

    def _append(self, event: Event) -> None:
        event["seq"] = len(self.events)
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    # -- loops, as the interpreter reports them -------------------------------------------------------------

    def loop_started(self, line: int) -> Loop:
        return self._folder.loop_started(line)

    def iteration(self, loop: Loop) -> None:
        """``loop`` begins its next iteration (after its target is assigned)."""
        if self.pending:
            self.flush()
        if loop.held == []:  # the fast path of a folding loop whose last iteration made nothing (`while True: pass`)
            loop.index += 1
        elif self._folder.iteration(loop) and not self.truncated:
            self._send(iteration_event(loop))

    def loop_ended(self, loop: Loop) -> None:
        if self.pending:
            self.flush()
        self._folder.loop_ended(loop)

    def close(self) -> None:
        """The program ended: what is held goes out (a loop left open by a generator lets its last iteration out)."""
        self.flush()
        self._folder.close()

    def detach(self) -> None:
        """The run is over, its events all written: drop the links back to this recorder (its folder's, and the
        meter's that announces through it), so that it goes with its run by reference counting, not at a later
        garbage collection that would walk all its events first."""
        self._folder = Folder(_ignore)
        self.announce = _ignore

    # -- modules ------------------------------------------------------------------------------------------------

    def module_entered(self, module: Any) -> None:
        """A module's ``__call__`` began: tensors made until it returns belong to it (``module``, ``module_type``)."""
        path = self._modules.get(id(module))
        kind = type(module).__name__
        if path is None and self._module_stack:  # a child called by its parent: the parent's path, its own name
            parent_path, parent = self._module_stack[-1][0], self._module_objects[-1]
            children = getattr(parent, "__dict__", {}).get("_modules") or {}
            child = next((key for key, m in children.items() if m is module), None)
            path = f"{parent_path}.{child if child is not None else kind}"
            if child is not None:
                self._modules[id(module)] = path
        elif path is None:
            path = kind
        self._module_stack.append((path, kind))
        self._module_objects.append(module)

    def module_left(self, module: Any) -> None:
        if self._module_stack:
            self._module_stack.pop()
            self._module_objects.pop()

    def statement_ended(self, nested: bool) -> None:
        """The interpreter finished a statement (``nested``: inside a function call). Tensor events wait for the end
        of the top-level statement, so that ``net = Net()`` names the parameters made inside ``__init__``
        ``net.fc1.weight`` (any other event sends them earlier, in order); a long silent loop inside a function
        sends them in batches of MAX_HELD."""
        if self.pending and (not nested or len(self.pending) > MAX_HELD):
            self.flush()

    def flush(self) -> None:
        """Send the held-back tensor events (at the end of a statement, or before any other event)."""
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
        if self.closed:
            return
        kind = self._kinds.get(type(value))
        if kind is None:
            kind = self._kind(type(value))
        if kind == _TENSOR:
            self._name(value, name)
        elif kind == _MODULE:
            if self.clock is not None:
                self.clock()  # the walk below visits every sub-module: a deep tree stops in time
            try:
                params = list(value.named_parameters())
            except Exception:  # a half-built user module: nothing to name yet
                return
            self._modules.setdefault(id(value), name)  # its children are named when called (module_entered)
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
        if array is None or type(array) is MetaArray:  # (a meta tensor has no values: None, as for no gradient)
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
            self.announce(t)
            tid = t._trace_id
        return tid  # type: ignore[no-any-return]

    # -- the Observer protocol -------------------------------------------------------------------------------

    def tensor_created(self, t: Any) -> None:
        fn = t._grad_fn
        previous = t._trace_id  # an in-place op re-announces its tensor: a new id, same variable name
        tid = self._next_id
        self._next_id = tid + 1
        t._trace_id = tid
        if self.truncated or self.closed:  # an id for the ledger events that may name it; no event
            if fn is not None:
                fn._trace_id = tid
            self._dropped.add(tid)
            if previous is not None and previous in self._named:
                self._named[tid] = self._named[previous]
            return
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
            # While a loop folds, the iteration may be left out: its values are written only if it goes out.
            "values": data.copy() if self._folder.holding else self._values(data),
            "requires_grad": t._requires_grad,
            "is_leaf": fn is None,
        }
        if self._module_stack:
            event["module"], event["module_type"] = self._module_stack[-1]
        self.pending.append(event)
        self._pending_ids[tid] = event

    def backward_started(self, root: Any, gradient: Any, retain_graph: Any) -> None:
        if self.closed:
            return
        data = root._data  # the root's own values (the loss), so a folded iteration's loss is still known
        self._emit(
            {
                "seq": None,
                "type": "backward",
                "line": self.line,
                "root": self._id(root),
                "gradient": self._values(gradient),
                "retain_graph": bool(retain_graph),
                "values": self._values(data) if data.size <= SMALL or type(data) is MetaArray else summarize(data),
            }
        )

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        if self.truncated or self.closed or node._trace_id in self._dropped:
            return  # (its tensor is not on the graph shown)
        # One grad_input per entry of the tensor event's ``inputs`` (edges to untracked nodes are dropped alike).
        edges = [
            i
            for i, (nxt, _) in enumerate(node.next_functions)
            if nxt is not None and (nxt._trace_id is not None or type(nxt) is AccumulateGrad)
        ]
        grads = [grad_inputs[i] if i < len(grad_inputs) else None for i in edges]
        grad_output = grad_outputs[0] if grad_outputs else None
        event = {
            "seq": None,
            "type": "node",
            "line": self.line,
            "tensor": node._trace_id,
            "op": node.name(),
            "grad_output": grad_output,
            "grad_inputs": grads,
            "formulas": edges,
        }
        if self._folder.holding:  # the iteration may be left out: its values and formulas are written if it goes out
            event["grad_output"] = None if grad_output is None else np.array(grad_output)
            event["grad_inputs"] = [None if g is None else np.array(g) for g in grads]
            event["_node"] = node
        else:
            self._fill_node(event, node)
        self._emit(event)

    def _fill_node(self, event: Event, node: Any) -> None:
        """Write a node event's values and formulas (``formulas`` holds the edges' indexes until then)."""
        event["grad_output"] = self._values(event["grad_output"])
        event["grad_inputs"] = [self._values(g) for g in event["grad_inputs"]]
        templates = node.formulas() if hasattr(node, "formulas") else []  # (a stand-in node may have none)
        edges = event["formulas"]
        event["formulas"] = _renumber([templates[i] if i < len(templates) else None for i in edges], edges)

    def grad_accumulated(self, leaf: Any, before: Any, delta: Any, after: Any) -> None:
        if self.closed:
            return
        tid = self._id(leaf)
        self._emit(
            {
                "seq": None,
                "type": "accumulate",
                "line": self.line,
                "tensor": tid,
                "name": self._name_of(tid),
                "before": self._values(before),
                "delta": self._values(delta),
                "after": self._values(after),
            }
        )

    def grad_reset(self, t: Any, how: str) -> None:
        if self.closed:
            return
        tid = self._id(t)
        self._emit(
            {
                "seq": None,
                "type": "grad_reset",
                "line": self.line,
                "tensor": tid,
                "name": self._name_of(tid),
                "how": how,
            }
        )

    def param_stepped(self, t: Any, before: Any, after: Any) -> None:
        if self.closed:
            return
        tid = self._id(t)
        self._emit(
            {
                "seq": None,
                "type": "step",
                "line": self.line,
                "tensor": tid,
                "name": self._name_of(tid),
                "before": self._values(before),
                "after": self._values(after),
            }
        )

    def warning(self, message: str) -> None:
        self._emit({"seq": None, "type": "warning", "line": self.line, "message": str(message)})

    # -- what the interpreter and runner report --------------------------------------------------------------

    def print(self, text: str) -> None:
        if self.closed:
            return
        self._emit({"seq": None, "type": "print", "line": self.line, "text": text})

    def error(self, error_type: str, message: str, line: int | None) -> None:
        self.close()
        if self.closed:  # the error still goes out after the last `truncated` event
            self._append({"seq": None, "type": "error", "line": line, "error_type": error_type, "message": message})
            return
        self._emit({"seq": None, "type": "error", "line": line, "error_type": error_type, "message": message})

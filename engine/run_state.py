"""Per-run state the engine consults: the observer (trace recorder), grad mode and the RNG.

The engine works the same with no observer attached; ops only pay a ``state().observer is None`` check.
Each run (a thread or process of the server) gets its own ``RunState`` through a ContextVar, so two
runs never see each other's observer, ``torch.manual_seed`` or ``torch.no_grad()``.

Example::

    >>> from engine.run_state import RunState, use_state
    >>> with use_state(RunState(observer=my_recorder)):
    ...     ...  # every tensor, backward node and .grad change is reported to my_recorder
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Iterator, Protocol

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

    from engine.tensor import Tensor


class Observer(Protocol):
    """What the engine tells a recorder. Arrays are passed by reference: copy what you keep."""

    def tensor_created(self, t: "Tensor") -> None:
        """A tensor came to exist (factory, ``torch.tensor``, op result, ``.grad`` created by backward is NOT
        reported here but through ``grad_accumulated``). ``t.grad_fn`` is already set."""

    def backward_started(self, root: "Tensor", gradient: "np.ndarray", retain_graph: bool) -> None:
        """``root.backward(gradient, retain_graph)`` (or ``torch.autograd.grad``) began."""

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        """One grad_fn node ran during backward; ``grad_inputs`` has one entry per ``next_functions`` edge
        (``None`` where no gradient flows). Entries are numpy arrays or None."""

    def grad_accumulated(
        self, leaf: "Tensor", before: "np.ndarray | None", delta: "np.ndarray", after: "np.ndarray"
    ) -> None:
        """Backward changed ``leaf.grad`` from ``before`` (None when it was None) to ``after``."""

    def grad_reset(self, t: "Tensor", how: str) -> None:
        """``t.grad = None`` / ``zero_grad(set_to_none=True)`` (how="none") or ``t.grad.zero_()`` (how="zero")."""

    def param_stepped(self, t: "Tensor", before: "np.ndarray", after: "np.ndarray") -> None:
        """An optimizer's ``step()`` changed parameter ``t``."""

    def warning(self, message: str) -> None:
        """PyTorch would emit a UserWarning here (e.g. reading ``.grad`` of a non-leaf)."""

    def module_entered(self, module: Any) -> None:
        """An ``nn.Module`` call began (``model(x)``); ``module_left`` follows when it returns or raises."""

    def module_left(self, module: Any) -> None:
        """The module call that ``module_entered`` announced ended."""


class RunState:
    """Everything global in PyTorch that must be private to one run."""

    __slots__ = ("observer", "grad_enabled", "generator", "budget", "print_options", "default_float", "fresh_seed")

    def __init__(self, observer: Observer | None = None, budget: Any = None) -> None:
        self.observer = observer
        self.grad_enabled = True
        self.generator: Any = None  # engine.random.Generator, created lazily by engine.random
        self.budget = budget  # optional object with check_alloc(numel) (and track(array, numel)) used by ops
        self.print_options: Any = None  # engine.printing.PrintOptions after torch.set_printoptions
        self.default_float: Any = None  # engine.dtypes.float64 after torch.set_default_dtype(torch.float64)
        self.fresh_seed = False  # a random number came from a seed drawn at random: the next run may differ


_default = RunState()
_current: ContextVar[RunState] = ContextVar("gradtrace_run_state", default=_default)


def state() -> RunState:
    """The RunState of the current run (a process-wide default when none is set)."""
    return _current.get()


def hold(array: Any) -> None:
    """Count a numpy array the engine keeps beyond the tensor that made it (a graph node's saved values, a
    gradient, an optimizer's state) against the run's budget of memory alive, until it is freed."""
    track = getattr(_current.get().budget, "track", None)  # a budget may only check allocations
    if track is not None:
        track(array, 0)


@contextlib.contextmanager
def use_state(run_state: RunState) -> Iterator[RunState]:
    """Make ``run_state`` current for the duration of the ``with`` block."""
    token = _current.set(run_state)
    try:
        yield run_state
    finally:
        _current.reset(token)

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
import weakref
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - typing only
    from engine.tensor import Tensor


class Observer(Protocol):
    """What the engine tells a recorder. Arrays are passed by reference: copy what you keep."""

    def tensor_created(self, t: Tensor) -> None:
        """A tensor came to exist (factory, ``torch.tensor``, op result, ``.grad`` created by backward is NOT
        reported here but through ``grad_accumulated``). ``t.grad_fn`` is already set."""

    def backward_started(self, root: Tensor, gradient: np.ndarray, retain_graph: bool) -> None:
        """``root.backward(gradient, retain_graph)`` (or ``torch.autograd.grad``) began."""

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        """One grad_fn node ran during backward; ``grad_inputs`` has one entry per ``next_functions`` edge
        (``None`` where no gradient flows). Entries are numpy arrays or None."""

    def grad_accumulated(self, leaf: Tensor, before: np.ndarray | None, delta: np.ndarray, after: np.ndarray) -> None:
        """Backward changed ``leaf.grad`` from ``before`` (None when it was None) to ``after``."""

    def grad_reset(self, t: Tensor, how: str) -> None:
        """``t.grad = None`` / ``zero_grad(set_to_none=True)`` (how="none") or ``t.grad.zero_()`` (how="zero")."""

    def param_stepped(self, t: Tensor, before: np.ndarray, after: np.ndarray) -> None:
        """An optimizer's ``step()`` changed parameter ``t``."""

    def warning(self, message: str) -> None:
        """PyTorch would emit a UserWarning here (e.g. reading ``.grad`` of a non-leaf)."""

    def module_entered(self, module: Any) -> None:
        """An ``nn.Module`` call began (``model(x)``); ``module_left`` follows when it returns or raises."""

    def module_left(self, module: Any) -> None:
        """The module call that ``module_entered`` announced ended."""


class RunState:
    """Everything global in PyTorch that must be private to one run."""

    __slots__ = (
        "observer",
        "grad_enabled",
        "generator",
        "budget",
        "print_options",
        "default_float",
        "fresh_seed",
        "machine",
        "identities",
        "serials",
        "default_device",
        "floats_quiet",
    )

    def __init__(self, observer: Observer | None = None, budget: Any = None) -> None:
        self.observer = observer
        self.grad_enabled = True
        self.generator: Any = None  # engine.random.Generator, created lazily by engine.random
        self.budget = budget  # optional object with check_alloc(numel) (and track(array, numel)) used by ops
        self.print_options: Any = None  # engine.printing.PrintOptions after torch.set_printoptions
        self.default_float: Any = None  # engine.dtypes.float64 after torch.set_default_dtype(torch.float64)
        self.fresh_seed = False  # a random number came from a seed drawn at random: the next run may differ
        self.machine: str | None = None  # why the run read the machine (a limit, a caught MemoryError, an address)
        self.identities: dict[int, tuple[Any, int]] | None = None  # id(obj) -> (reference, serial): see serial_of
        self.serials = 0
        self.default_device: list[
            Any
        ] = []  # torch.set_default_device / ``with torch.device("meta"):`` (innermost last)
        self.floats_quiet = False  # numpy's float errors are ignored for the whole run (np.errstate around it)


_default = RunState()
_current: ContextVar[RunState] = ContextVar("gradtrace_run_state", default=_default)


def state() -> RunState:
    """The RunState of the current run (a process-wide default when none is set)."""
    return _current.get()


def read_the_machine(why: str) -> None:
    """Note that the current run saw something of the machine (a limit hit, a caught ``MemoryError``, a real
    address): its answer may differ on the next run, so it is not reproducible (``RunResult.reproducible``)."""
    st = _current.get()
    if st.machine is None:
        st.machine = why


def serial_of(obj: Any) -> int:
    """A number for ``obj`` drawn from the run's own counter (1, 2, 3... in the order the run asks), the same for
    as long as ``obj`` lives: what its hash and the address in its repr are made of, so that neither depends on
    where the process put it in memory (``id(obj)``) nor on what ran before in this process."""
    st = _current.get()
    table = st.identities
    if table is None:
        table = st.identities = {}
    key = id(obj)
    entry = table.get(key)
    if entry is not None and entry[0]() is obj:
        return entry[1]

    def forget(_: Any, key: int = key, table: dict[int, tuple[Any, int]] = table) -> None:
        table.pop(key, None)

    try:
        ref: Any = weakref.ref(obj, forget)
    except TypeError:  # not weakly referable: kept for the run (each one cost the run a step to make)
        ref = _Strong(obj)
    st.serials += 1
    table[key] = (ref, st.serials)
    return st.serials


def serial_of_address(address: int) -> int:
    """The run's number for a real memory address that reached a text (``<function relu at 0x7fe1…>``): one per
    address per run, from the same counter as ``serial_of``."""
    st = _current.get()
    table = st.identities
    if table is None:
        table = st.identities = {}
    key = -address - 1  # never an id(): those are positive
    entry = table.get(key)
    if entry is None:
        st.serials += 1
        entry = table[key] = (_Strong(None), st.serials)
    return entry[1]


class _Strong:
    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __call__(self) -> Any:
        return self.obj


ADDRESS_BASE = 0x7F3A5C000000  # where the run's made-up addresses start: they look like CPython's on Linux


def address_of(obj: Any) -> str:
    """``'0x7f3a5c000010'``: the address a repr shows for ``obj`` (``<MulBackward0 object at 0x...>``), made of the
    run's counter (``serial_of``), formatted as PyTorch prints ``id(obj)``."""
    return f"0x{ADDRESS_BASE + 16 * serial_of(obj):x}"


def identity_repr(self: Any) -> str:
    """``<__main__.Net object at 0x7f3a5c000010>``: Python's default repr, with the run's address."""
    kind = type(self)
    return f"<{kind.__module__}.{kind.__qualname__} object at {address_of(self)}>"


def serial_hash(self: Any) -> int:
    """``__hash__`` for engine and user objects compared by identity: per run, never the memory address. An object
    with a ``__dict__`` keeps its number there too (under a key no attribute can have, with its ``id`` so that a
    copied ``__dict__`` does not count), for speed: hashing a user object costs a dict lookup."""
    try:
        own = self.__dict__
    except AttributeError:
        return serial_of(self)
    kept = own.get(" serial")  # (id, number): a copy of the __dict__ (copy.copy of a module) is not this object
    if kept is None or kept[0] != id(self):
        kept = own[" serial"] = (id(self), serial_of(self))
    return kept[1]  # type: ignore[no-any-return]


BULK_STEPS = 16
"""Budget steps charged up front for each tensor one engine call is about to make in bulk (``list(x)``,
``x.unbind()``, ``x.split(1)``), on top of what making each one costs: a million-piece split then ends at the step
limit at once, the same on every machine, instead of racing the clock for seconds."""


def charge_bulk(pieces: int) -> None:
    """One call is about to make ``pieces`` tensors: charge the run's budget (if any) for them now."""
    charge = getattr(_current.get().budget, "charge", None)
    if charge is not None and pieces > 1:
        charge(pieces * BULK_STEPS)


def check_clock() -> None:
    """Enforce the run's time limit now: at each pass of an engine loop whose passes may each be slow (an LSTM's
    time steps), which no interpreted step separates."""
    check = getattr(_current.get().budget, "check_clock", None)
    if check is not None:
        check()


def hold(array: Any) -> None:
    """Count a numpy array the engine keeps beyond the tensor that made it (a graph node's saved values, a
    gradient, an optimizer's state) against the run's budget of memory alive, until it is freed."""
    track = getattr(_current.get().budget, "track", None)  # a budget may only check allocations
    if track is not None:
        track(array, 0)


_NOTHING = contextlib.nullcontext()


def quiet_floats() -> contextlib.AbstractContextManager[Any]:
    """``np.errstate(all="ignore")`` (inf and nan follow IEEE rules silently, as in PyTorch), or nothing to do when
    the run ignores numpy's float errors already (``RunState.floats_quiet``: the runner's ``np.errstate``)."""
    if _current.get().floats_quiet:
        return _NOTHING
    return np.errstate(all="ignore")


@contextlib.contextmanager
def use_state(run_state: RunState) -> Iterator[RunState]:
    """Make ``run_state`` current for the duration of the ``with`` block."""
    token = _current.set(run_state)
    try:
        yield run_state
    finally:
        _current.reset(token)

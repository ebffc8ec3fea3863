"""``run(code)``: one safe, traced run of user code, as the server and the tests call it.

Each run gets a fresh ``RunState`` (observer, grad mode, RNG, budget) and fresh facade modules, so nothing a run
changes leaks into the next. ``run`` never raises for anything user code does: the error is reported instead.

Example::

    >>> result = run("import torch\\nx = torch.tensor(2.0, requires_grad=True)\\n(x ** 2).backward()\\nprint(x.grad)")
    >>> result.stdout
    'tensor(4.)\\n'
    >>> [e["type"] for e in result.events][:2]
    ['tensor', 'tensor']
"""

from __future__ import annotations

import contextlib
import gc
import reprlib
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine import random as engine_random
from engine.run_state import RunState, use_state
from engine.sandbox import Budget, Interpreter, Limits, parse
from engine.sandbox.errors import LimitExceeded, SandboxError, error_line
from engine.sandbox.identity import scrub
from engine.sandbox.meter import Meter
from engine.trace import Recorder


@dataclass
class RunResult:
    """What a run produced: its stdout, its error (``{"type", "message", "line"}`` or None), its trace events and
    the RNG seed it used (pass it back as ``run(code, seed=...)`` to replay the run): the code's own
    ``torch.manual_seed(s)`` when that came before any random number, else the seed the run drew (or was given).

    ``reproducible``: running the same code (with the same seed) again, in any worker, gives this same result. It
    is made so by construction (addresses, hashes and set order come from the run itself: ``engine.sandbox.
    identity``) and False whenever the run read something of the machine: a random number from a seed drawn at
    random (``torch.seed()`` too), any limit hit (even one a ``finally`` would have hidden: none runs after it), a
    ``MemoryError`` or ``RecursionError`` caught or ending the run, a real memory address in a text, a set ordered
    by the process's string-hash secret. ``why_not_reproducible`` says which (None when reproducible);
    ``limit_hit`` is True when a limit ended the run, whatever error the program made of it."""

    stdout: str
    error: dict[str, Any] | None
    events: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 0
    reproducible: bool = False
    why_not_reproducible: str | None = None
    limit_hit: bool = False


MAX_MESSAGE = 10_000  # characters of an error message kept (``raise ValueError(huge_list)``)
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 1000  # at most ~30 x 30 items of 1,000 characters: under a megabyte
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 30
_SHORT.maxlevel = 4
_PLAIN = (str, int, float, bool, type(None))


def _message(exc: BaseException) -> str:
    """``str(exc)``, without ever building a huge text: user code can put anything in an exception's args."""
    args = exc.args
    try:
        if (
            all(type(a) in _PLAIN and not (type(a) is int and a.bit_length() > 10_000) for a in args)
            and sum(len(a) for a in args if type(a) is str) <= 10 * MAX_MESSAGE
        ):
            text = str(exc)
        else:
            text = _SHORT.repr(args[0]) if len(args) == 1 else _SHORT.repr(args)
    except BaseException:
        text = type(exc).__name__
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def _memory_message(exc: MemoryError) -> str:
    """numpy's MemoryError carries (shape, dtype) as its args; its str says how much it could not allocate."""
    if type(exc).__module__.startswith("numpy"):
        try:
            return f"out of memory: {str(exc)[:1].lower()}{str(exc)[1:]}"
        except BaseException:
            return "out of memory"
    return _message(exc) or "out of memory"


def describe_error(exc: BaseException) -> dict[str, Any]:
    """``{"type", "message", "line"}`` for an exception raised by (or on behalf of) user code."""
    if isinstance(exc, (SandboxError, LimitExceeded)):
        message = exc.message
    elif isinstance(exc, SyntaxError):
        message = exc.msg or "invalid syntax"
    elif isinstance(exc, MemoryError):
        message = _memory_message(exc)
    else:
        message = _message(exc)
    message = scrub(message)
    line = error_line(exc)
    if line is None and isinstance(exc, SyntaxError):
        line = exc.lineno
    return {"type": type(exc).__name__, "message": message, "line": line}


_MACHINE_LIMITS = frozenset({"LimitExceeded", "MemoryError", "RecursionError"})  # errors a faster machine may not meet


class _LazyGenerator(engine_random.Generator):
    """The run's generator, seeded with the run's seed on first use: most programs never draw a random number,
    and seeding a Mersenne Twister costs about a tenth of a millisecond. A ``fresh`` seed was drawn at random: the
    run notes on ``run_state`` when a number comes from it."""

    def __init__(self, seed: int, fresh: bool, run_state: RunState) -> None:
        self._pending_seed = seed
        self._run_state = run_state if fresh else None

    code_seed: int | None = None  # the seed the code set with torch.manual_seed before drawing any number

    def manual_seed(self, seed: int) -> engine_random.Generator:
        if "_pending_seed" in self.__dict__:  # nothing drawn yet: the code's own seed is the run's seed
            del self.__dict__["_pending_seed"]
            self.code_seed = int(seed)
        return super().manual_seed(seed)

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not set yet, i.e. before the first seeding.
        seed = self.__dict__.pop("_pending_seed", None)
        if seed is None:
            raise AttributeError(name)
        if self._run_state is not None:
            self._run_state.fresh_seed = True
        engine_random.Generator.manual_seed(self, seed)
        return getattr(self, name)


YOUNG_COLLECTION_AFTER = 50_000
"""Allocations between two young garbage collections during a run (Python's default: 700). A program's graph is
thousands of live objects that every collection walks again: a 100,000-node chain took 4.6 s at 700, 2.7 s here."""


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect garbage less often for the duration of the run (the budgets collect before they judge, so garbage
    in reference cycles never counts against a program)."""
    old = gc.get_threshold()
    if old[0] >= YOUNG_COLLECTION_AFTER:
        yield
        return
    gc.set_threshold(YOUNG_COLLECTION_AFTER, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _make_modules() -> dict[str, Any]:
    from engine.facade import make_modules

    return make_modules()


def run(
    code: str,
    *,
    seed: int | None = None,
    limits: Limits | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    started: float | None = None,
) -> RunResult:
    """Run ``code`` in the sandbox on the engine and return its stdout, error and trace events.

    ``started`` is the ``time.monotonic()`` the time limit counts from (default: now); the server passes the
    request's arrival, so that time spent waiting for a worker counts too."""
    fresh = seed is None
    if seed is None:
        seed = secrets.randbits(31)  # fits numpy's legacy RandomState and torch.manual_seed alike
    limits = limits or Limits()
    budget = Budget(limits, started)
    recorder = Recorder(on_event, max_events=limits.max_events, clock=budget.check_time)
    interp: Interpreter | None = None
    error: dict[str, Any] | None = None
    run_state = RunState(observer=Meter(budget, recorder), budget=budget)
    run_state.generator = generator = _LazyGenerator(seed, fresh, run_state)
    stdout = ""
    run_state.floats_quiet = True  # inf/nan follow IEEE rules silently in every op, as in PyTorch
    with use_state(run_state), _fewer_collections(), np.errstate(all="ignore"):
        try:
            tree = parse(code, limits)
            interp = Interpreter(_make_modules(), budget, recorder)
            try:
                interp.interpret(tree)
            finally:
                stdout = "".join(interp.stdout)
            recorder.close()  # what loops still hold goes out
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # everything user code can cause, including RecursionError and MemoryError
            error = describe_error(exc)
            try:
                recorder.flush()
                recorder.error(error["type"], error["message"], error["line"])
            except Exception:  # pragma: no cover - a failing on_event callback must not hide the run's error
                pass
        if interp is not None:
            interp.close()  # the run's objects go now, by their counts, before collections are frequent again
            interp = None
        recorder.detach()
    if generator.code_seed is not None:
        seed = generator.code_seed  # torch.manual_seed(s) came first: s replays the run and is what the code says
    run_state.generator = None  # it refers back to run_state: without this, a cycle only a collection would free
    if run_state.identities is not None:  # the run's numbering: its weak references and their callbacks form
        run_state.identities.clear()  # cycles with the table; cleared now, they go at once instead of at a collection
    why = (
        "a random number came from a seed drawn at random"
        if run_state.fresh_seed
        else run_state.machine
        if run_state.machine is not None
        else budget.breached.message
        if budget.breached is not None
        else f"the run ended with a {error['type']}"
        if error is not None and error["type"] in _MACHINE_LIMITS
        else None
    )
    return RunResult(
        stdout=stdout,
        error=error,
        events=recorder.events,
        seed=seed,
        reproducible=why is None,
        why_not_reproducible=why,
        limit_hit=budget.breached is not None,
    )

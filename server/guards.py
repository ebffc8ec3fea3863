"""Worker-side guards around one run (``server/worker.py`` runs them in each worker process): a CPU-time
limit the kernel enforces, an alarm just past the time limit, a lower priority for runs that take long, and
giving memory back to the OS after a big run.

Example::

    with CpuLimit(8.0), alarm(Limits(), started), Demotion(0.25):
        result = engine.run(code)
    cleanup_later()
"""

from __future__ import annotations

import gc
import os
import resource
import signal
import threading
import time
from typing import Any

from engine.sandbox import Limits
from engine.sandbox.resident import resident_bytes

_TRIM_ABOVE = 12 * 2**20  # after a run that left the worker this much above its size at start, give memory back
WORKER: dict[str, Any] = {"config": None, "libc": None, "demote_after": 0.0, "cleanup": None}
"""This worker process's state, set once by the pool's initializer."""

_DEMOTED = 19  # niceness of a run that has used ``demote_after`` seconds of CPU: the lowest priority there is
# (weight 15 against a short run's 1024, where +10 gave 110: eight long runs then took half the CPU a student's run
# and the server's event loop needed; measured with benchmarks/load.py, every kind of attacker: student p50 51-85 ms
# against 117-134 ms at +10 after 0.25 s, same machine, same minutes)


def can_renice() -> bool:
    """Can this worker lower its niceness back after raising it? (Root can; elsewhere demotion stays off.)"""
    base = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, min(base + 1, 19))
        os.setpriority(os.PRIO_PROCESS, 0, base)
    except OSError:
        return False
    WORKER["base_nice"] = base
    return True


class Demotion:
    """A run that has used ``seconds`` of CPU time yields the CPU to short runs (niceness 19, a SIGPROF timer),
    until it ends: endless loops and heavy programs then use what the interactive runs leave."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.demoted = False

    def _demote(self, signum: int, frame: Any) -> None:
        self.demoted = True
        os.setpriority(os.PRIO_PROCESS, 0, max(WORKER["base_nice"], _DEMOTED))

    def __enter__(self) -> Demotion:
        if self.seconds > 0 and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGPROF, self._demote)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
        return self

    def __exit__(self, *_: object) -> None:
        if self.seconds > 0 and threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_PROF, 0)
            if self.demoted:
                os.setpriority(os.PRIO_PROCESS, 0, WORKER["base_nice"])


def limit_cpu(seconds: float) -> None:
    """The kernel stops this worker (SIGXCPU) once the coming run has used ``seconds`` of CPU time."""
    if seconds <= 0:
        return
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(usage.ru_utime + usage.ru_stime + seconds) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


class _SignalStop:
    """A signal that, while armed, stops the run with a ``LimitExceeded`` (raised in the main thread, between two
    bytecodes, so the interpreter reports it like any breach: with the line, the output and the trace so far)."""

    signum: int
    armed = False

    def message(self) -> str:
        raise NotImplementedError

    def _handle(self, signum: int, frame: Any) -> None:
        if self.armed:
            from engine.sandbox.errors import LimitExceeded

            self.armed = False
            raise LimitExceeded(self.message())

    def arm(self) -> bool:
        """Install the handler (only the main thread can); True if armed."""
        if threading.current_thread() is not threading.main_thread():
            return False
        signal.signal(self.signum, self._handle)
        self.armed = True
        return True


class Alarm(_SignalStop):
    """A SIGALRM a little after the run's time limit: it stops the run even inside a long stretch of engine code
    that never reaches the interpreter's own clock checks (printing a huge tensor, a long loop inside an op)."""

    signum = signal.SIGALRM

    def __init__(self, seconds: float, allowed: float | None = None) -> None:
        self.seconds = seconds
        self.allowed = seconds if allowed is None else allowed  # the limit the message names

    def message(self) -> str:
        return f"the program ran longer than {self.allowed:g} seconds (time limit)"

    def __enter__(self) -> Alarm:
        if self.arm():
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 0.001))
        return self

    def __exit__(self, *_: object) -> None:
        if self.armed:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)


ALARM_AFTER = 0.2
"""Seconds past the time limit at which the alarm rings (the interpreter's own checks usually stop a run first)."""


def alarm(limits: Limits | None, started: float | None = None) -> Alarm:
    """The alarm of a run under ``limits`` whose clock started at ``started`` (``time.monotonic()``; default: now):
    it rings ``ALARM_AFTER`` past the time limit."""
    max_seconds = (limits or Limits()).max_seconds
    elapsed = 0.0 if started is None else time.monotonic() - started
    return Alarm(max_seconds + ALARM_AFTER - elapsed, allowed=max_seconds)


class CpuLimit(_SignalStop):
    """The kernel signals this worker (SIGXCPU) once the coming run has used ``seconds`` of CPU time; the signal
    stops the run with a ``LimitExceeded`` that keeps its output and trace so far."""

    signum = signal.SIGXCPU

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def message(self) -> str:
        return f"the program used more than {self.seconds:g} seconds of CPU time (CPU limit)"

    def __enter__(self) -> CpuLimit:
        if self.seconds > 0 and self.arm():
            limit_cpu(self.seconds)
        return self

    def __exit__(self, *_: object) -> None:
        self.armed = False  # a late signal (the kernel repeats it every second) is ignored


def cleanup_later() -> None:
    """After a big run, give memory back in a thread, so that the answer goes out first (the thread runs while this
    worker waits for its next run, which first waits for it: ``cleaned``). After a small run (most), nothing: a
    thread per run would cost more than the run."""
    rss = resident_bytes() or 0
    if "base_rss" not in WORKER:
        WORKER["base_rss"] = rss + 2**20
    if rss > WORKER["base_rss"] + _TRIM_ABOVE:
        thread = threading.Thread(target=_give_memory_back, daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no address space left for a thread's stack (a run near the memory limit): now
            _give_memory_back()
            return
        WORKER["cleanup"] = thread


def cleaned() -> None:
    """Wait for the previous run's clean-up, if still going."""
    thread = WORKER.get("cleanup")
    if thread is not None:
        thread.join()
        WORKER["cleanup"] = None


def _give_memory_back() -> None:
    """Collect the run's garbage and return freed heap memory to the OS, so the worker goes back to its baseline."""
    gc.collect()
    libc = WORKER["libc"]
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim(0)

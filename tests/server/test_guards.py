"""The worker-side guards of server/guards.py, in this process: demotion of a long run and its undoing, the alarm
that stops a run stuck in engine code, and the CPU-time limit's arithmetic."""

from __future__ import annotations

import os
import resource
import time

import pytest

from engine.sandbox import Limits
from engine.sandbox.errors import LimitExceeded
from server import guards


def _spin(cpu_seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < cpu_seconds:
        pass


def test_a_run_past_its_cpu_allowance_is_demoted_then_restored() -> None:
    base = os.getpriority(os.PRIO_PROCESS, 0)
    if not guards.can_renice():  # without the right to lower niceness back, the pool leaves demotion off
        assert guards.WORKER.get("base_nice") is None
        return
    seen = []
    with guards.Demotion(0.05):
        _spin(0.02)
        seen.append(os.getpriority(os.PRIO_PROCESS, 0))
        _spin(0.1)
        seen.append(os.getpriority(os.PRIO_PROCESS, 0))
    assert seen == [base, 19]
    assert os.getpriority(os.PRIO_PROCESS, 0) == base


def test_the_alarm_stops_python_code_that_never_checks_the_clock() -> None:
    start = time.monotonic()
    with (
        pytest.raises(LimitExceeded, match=r"ran longer than 0.1 seconds \(time limit\)"),
        guards.alarm(Limits(max_seconds=0.1)),
    ):
        while True:
            pass
    assert time.monotonic() - start < 2
    with guards.alarm(Limits(max_seconds=0.1)):  # a run that ends in time is not disturbed afterwards
        pass
    time.sleep(0.5)


def test_the_cpu_limit_is_set_relative_to_the_time_already_used() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    try:
        guards.limit_cpu(30)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        new_soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
        assert usage.ru_utime + usage.ru_stime + 30 <= new_soft <= usage.ru_utime + usage.ru_stime + 32
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))

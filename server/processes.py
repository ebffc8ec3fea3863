"""How many server processes and workers one replica runs, from the CPUs it may use (docs/SCALE-OUT.md).

A run that goes to a worker costs about a third as much CPU in the server process (its event loop) as in the
worker, so one server process keeps ~2-3 cores busy: ``max(1, round(cpus / 3))`` processes, and
``ceil(6 * cpus / processes)`` workers each (12 on 2 cores: enough that a few long runs never make short ones wait).

The CPUs are the replica's quota where it has one (a container's cgroup ``cpu.max``), not ``os.cpu_count()``, which
inside a container reports the host's cores.

Example::

    >>> processes_for(2.0), workers_for(2.0, 1)
    (1, 12)
    >>> processes_for(8.0), workers_for(8.0, 3)
    (3, 16)
"""

from __future__ import annotations

import math
import os
from pathlib import Path


def available_cpus(cgroup: Path = Path("/sys/fs/cgroup")) -> float:
    """The CPUs this process may use: the cgroup's quota (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``) if it sets one,
    else the CPUs it is allowed to run on."""
    cpus = float(len(os.sched_getaffinity(0)))
    quota: float | None = None
    try:
        limit, period = (cgroup / "cpu.max").read_text().split()[:2]
        if limit != "max":
            quota = int(limit) / int(period)
    except (OSError, ValueError):
        try:
            limit_us = int((cgroup / "cpu" / "cpu.cfs_quota_us").read_text())
            period_us = int((cgroup / "cpu" / "cpu.cfs_period_us").read_text())
            if limit_us > 0 and period_us > 0:
                quota = limit_us / period_us
        except (OSError, ValueError):
            pass
    return min(cpus, quota) if quota else cpus


def processes_for(cpus: float) -> int:
    """Server processes for ``cpus`` CPUs."""
    return max(1, round(cpus / 3))


def workers_for(cpus: float, processes: int) -> int:
    """Worker processes per server process."""
    return max(1, math.ceil(6 * cpus / processes))

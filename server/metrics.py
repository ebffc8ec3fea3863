"""``/metrics`` for Prometheus: the HTTP metrics of prometheus-fastapi-instrumentator and the runs' own.

- ``gradtrace_runs_total{outcome}``: every answer to a run, by outcome: ``ok`` (ran, no error), ``error`` (the
  program raised), ``limit`` (a budget ended it), ``killed`` (its worker was killed: deadline, CPU or memory of the
  process), ``kept`` (a kept answer given again, no worker);
- ``gradtrace_run_seconds``: from a run's admission to its answer (runs that went to a worker);
- ``gradtrace_limit_hits_total{limit}``: which budget ended a run (``steps``, ``time``, ``memory``, ``graph``,
  ``output``, ``tensor_size``, ``size``, ``depth``, ``cpu``, ``deadline``, ``other``);
- ``gradtrace_worker_replacements_total``: worker processes replaced (killed with their run, stopped with a stream
  whose client left, or recycled after ``GRADTRACE_WORKER_MAX_RUNS`` runs);
- ``gradtrace_pending_runs``: runs waiting or running now.

Several server processes per replica (``python -m server --processes N``) share one ``/metrics`` through
prometheus_client's multiprocess mode: ``server/__main__.py`` points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh
directory before the processes start, each process writes its values there, and whichever process answers a scrape
sums them (the pending gauge as ``livesum``: only live processes count). One process: plain in-memory metrics.

Example::

    $ curl -s localhost:8000/metrics | grep '^gradtrace_runs_total'
    gradtrace_runs_total{outcome="ok"} 12.0
"""

from __future__ import annotations

import os

from fastapi import FastAPI
from prometheus_client import Counter, Gauge, Histogram
from prometheus_fastapi_instrumentator import Instrumentator

OUTCOMES = ("ok", "error", "limit", "killed", "kept")

RUNS = Counter("gradtrace_runs_total", "Answers to runs, by outcome", ["outcome"])
RUN_SECONDS = Histogram(
    "gradtrace_run_seconds",
    "Seconds from a run's admission to its answer (runs that went to a worker)",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 4.5, 5.0, 8.0, 10.0),
)
LIMIT_HITS = Counter("gradtrace_limit_hits_total", "Runs ended by a budget, by budget", ["limit"])
REPLACEMENTS = Counter("gradtrace_worker_replacements_total", "Worker processes replaced")
PENDING = Gauge("gradtrace_pending_runs", "Runs waiting or running now", multiprocess_mode="livesum")

for _outcome in OUTCOMES:  # every series exists from the start (a rate over a missing series is no rate)
    RUNS.labels(_outcome)


def count_run(outcome: str, limit: str | None = None, seconds: float | None = None) -> None:
    """Count one answer to a run."""
    RUNS.labels(outcome).inc()
    if limit is not None:
        LIMIT_HITS.labels(limit).inc()
    if seconds is not None:
        RUN_SECONDS.observe(seconds)


def multiprocess() -> bool:
    """Whether the metrics are shared by several processes (``PROMETHEUS_MULTIPROC_DIR``)."""
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def instrument(app: FastAPI) -> None:
    """HTTP metrics for every route, and ``GET /metrics`` (nginx keeps it from the public: Prometheus scrapes the
    replicas directly)."""
    Instrumentator(excluded_handlers=["/metrics"], should_group_untemplated=True).instrument(app).expose(
        app, include_in_schema=False, should_gzip=True
    )

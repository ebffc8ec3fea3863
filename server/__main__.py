"""``python -m server --host H --port P [--processes N]``: serve the API and the playground with uvicorn.

``--processes`` (``GRADTRACE_PROCESSES``; default: from the CPUs the replica may use, ``server/processes.py``)
server processes share the port, each with its own event loop and its own pool of ``GRADTRACE_WORKERS`` workers
(default, when unset: sized from the same CPUs). With more than one, uvicorn starts them from the import string
``server.app:create_app`` and watches them (one that dies is replaced), their metrics are shared through
prometheus_client's multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, a fresh directory unless given), and their
kept answers through Redis when ``GRADTRACE_REDIS_URL`` is set. SIGTERM lets runs under way finish
(``--graceful-seconds``, 10 by default: inside Kubernetes' 30 s grace).

The heavy imports live inside ``main``: the worker processes (``server/isolation.py``) load this module again as
``__mp_main__``, and must not pay for uvicorn and FastAPI there.
"""

from __future__ import annotations

import argparse
import os
from typing import Any


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m server", description="Serve gradtrace.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--processes", type=int, default=None, help="server processes (default: from the CPUs)")
    parser.add_argument("--graceful-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)

    # here, as uvicorn below: the workers load this module again and must not import more than they need
    from server.processes import available_cpus, processes_for, workers_for

    cpus = available_cpus()
    processes = args.processes or int(os.environ.get("GRADTRACE_PROCESSES") or 0) or processes_for(cpus)
    os.environ.setdefault("GRADTRACE_WORKERS", str(workers_for(cpus, processes)))
    if processes > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import tempfile

        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="gradtrace-metrics-")

    import uvicorn

    from server.logs import log_config  # here, as uvicorn: the workers must not import it
    from server.settings import get_settings  # here, as uvicorn: the workers must not import it

    settings = get_settings()
    common: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "log_config": log_config(args.log_level, settings.log_format),
        "access_log": settings.log_format != "json",  # the JSON request log (server/logs.py) says more
        "timeout_graceful_shutdown": args.graceful_seconds,
    }
    if processes > 1:
        uvicorn.run(
            "server.app:create_app", factory=True, workers=processes, http="server.http_guard:FromSettings", **common
        )
        return

    from server.app import create_app
    from server.http_guard import guarded_protocol  # here, as uvicorn: the workers must not import it

    protocol = guarded_protocol(
        settings.max_header_bytes,
        settings.max_head_bytes,
        settings.max_header_count,
        settings.head_timeout_seconds,
        settings.body_timeout_seconds,
    )
    uvicorn.run(create_app(settings), http=protocol, **common)


if __name__ == "__main__":
    main()

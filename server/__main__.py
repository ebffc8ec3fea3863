"""``python -m server --host H --port P``: serve the API and the playground with uvicorn.

The heavy imports live inside ``main``: the worker processes (``server/isolation.py``) load this module again as
``__mp_main__``, and must not pay for uvicorn and FastAPI there.
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m server", description="Serve gradtrace.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)

    import uvicorn

    from server.app import create_app
    from server.http_guard import guarded_protocol  # here, as uvicorn: the workers must not import it
    from server.settings import get_settings  # here, as uvicorn: the workers must not import it

    settings = get_settings()
    protocol = guarded_protocol(
        settings.max_header_bytes,
        settings.max_head_bytes,
        settings.max_header_count,
        settings.head_timeout_seconds,
        settings.body_timeout_seconds,
    )
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level, http=protocol)


if __name__ == "__main__":
    main()

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

    uvicorn.run(create_app(), host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()

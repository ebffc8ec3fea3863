"""``python -m server --host H --port P``: serve the API and the playground with uvicorn."""

from __future__ import annotations

import argparse

import uvicorn

from server.app import create_app


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m server", description="Serve gradtrace.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()

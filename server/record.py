"""``gradtrace record code.py -o trace.json``: run a program on this machine (no server) and write its trace, the
file a course page's widget replays with no server (``data-trace-src="trace.json"``) and the playground opens.

The file has the shape of the playground's Trace JSON export: ``{code, stdout, error, seed, events}``, the events
those of ``POST /api/run``. Pass ``--seed`` to record with a given seed (as a link's ``seed=`` runs).

Example::

    $ gradtrace record lesson2.py -o lesson2.json --seed 0
    lesson2.py: 17 events, 3 lines of output -> lesson2.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.runner import run
from server.jsonio import dumps, result_body
from server.settings import Settings


def record(code: str, seed: int | None = None) -> dict[str, Any]:
    """The trace of one run of ``code``, under the server's default budgets."""
    result = run(code, seed=seed, limits=Settings().limits())
    return {"code": code, **result_body(result)}


def main(argv: list[str] | None = None) -> int:
    """The ``gradtrace`` console script: ``gradtrace record FILE [-o OUT] [--seed N]``."""
    parser = argparse.ArgumentParser(prog="gradtrace", description="gradtrace's command line")
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="run a program and write its trace as JSON")
    rec.add_argument("file", type=Path, help="the program (PyTorch-style Python); - reads standard input")
    rec.add_argument("-o", "--output", type=Path, help="where to write the trace (default: standard output)")
    rec.add_argument("--seed", type=int, default=None, help="the run's RNG seed (default: drawn, and recorded)")
    args = parser.parse_args(argv)
    code = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    trace = record(code, seed=args.seed)
    text = dumps(trace)
    if args.output is None:
        sys.stdout.write(text + "\n")
    else:
        args.output.write_text(text, encoding="ascii")
        lines = trace["stdout"].count("\n")
        print(f"{args.file}: {len(trace['events'])} events, {lines} lines of output -> {args.output}", file=sys.stderr)
    if trace["error"] is not None:
        error = trace["error"]
        print(f"{args.file}: the program stopped: {error['type']}: {error['message']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Time ``engine.run`` (interpreter + engine + recording) on each lesson against real PyTorch running the same
code eagerly, side by side in one process, and print the ratios (ours / PyTorch's; below 1.0 means faster).

Run: ``make bench`` (or ``.venv/bin/python benchmarks/lessons.py [--repeat N]``). Figures are medians of
interleaved rounds, so that a noisy neighbour hits both sides alike.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch

import engine
from server.lessons import LESSONS


def _torch_runner(code: str) -> Callable[[], None]:
    def run_with_torch() -> None:
        # PyTorch's side gets Python's compile too, as our run includes parsing the code.
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "<lesson>", "exec"), {"__name__": "__bench__"})  # trusted lesson code only

    return run_with_torch


def _ours_runner(code: str) -> Callable[[], None]:
    def run_with_engine() -> None:
        result = engine.run(code)
        if result.error is not None:
            raise RuntimeError(f"lesson failed in gradtrace: {result.error}")

    return run_with_engine


def _time(fn: Callable[[], None], inner: int) -> float:
    start = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - start) / inner


def measure(rounds: int, inner: int) -> list[dict[str, float | str]]:
    torch.set_num_threads(1)
    rows: list[dict[str, float | str]] = []
    for lesson in LESSONS:
        ours, theirs = _ours_runner(lesson.code), _torch_runner(lesson.code)
        ours(), theirs()  # warm up both
        ours_t, theirs_t = [], []
        for _ in range(rounds):
            ours_t.append(_time(ours, inner))
            theirs_t.append(_time(theirs, inner))
        a, b = statistics.median(ours_t), statistics.median(theirs_t)
        rows.append({"lesson": lesson.id, "gradtrace_s": a, "pytorch_s": b, "ratio": a / b})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--inner", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON object (for benchmarks/report.py)")
    args = parser.parse_args()
    rows = measure(args.rounds, args.inner)
    if args.json:
        print(json.dumps({"lessons": rows}))
        return
    print(f"torch {torch.__version__}, {args.rounds} interleaved rounds x {args.inner} runs, median per run")
    print(f"{'lesson':<24}{'gradtrace':>12}{'pytorch':>12}{'ratio':>8}")
    for row in rows:
        a, b = float(row["gradtrace_s"]), float(row["pytorch_s"])
        print(f"{row['lesson']:<24}{a * 1e6:>10.0f}us{b * 1e6:>10.0f}us{a / b:>7.2f}x")


if __name__ == "__main__":
    main()

"""The fidelity suite as a whole (tests/fidelity/snippets: every snippet), on gradtrace vs real PyTorch eager, side by
side in one process: the total time of one pass over all snippets, each side, as a ratio (ours / PyTorch's; below
1.0 means faster). Parse included on both sides (PyTorch's side compiles the snippet's Python).

Run: ``.venv/bin/python benchmarks/suite.py [--rounds 7] [--json]``. Rounds interleave the two sides, so a noisy
neighbour weighs on both; the figure is the median round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch

from tests.fidelity.harness import load_snippets, run_engine, run_torch


def measure(rounds: int) -> dict[str, float]:
    torch.set_num_threads(1)
    snippets = load_snippets()
    for s in snippets:  # warm up both sides (imports, first-call caches)
        run_engine(s.code), run_torch(s.code)
    ours, theirs = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for s in snippets:
            run_engine(s.code)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        for s in snippets:
            run_torch(s.code)
        theirs.append(time.perf_counter() - start)
    a, b = statistics.median(ours), statistics.median(theirs)
    return {"snippets": len(snippets), "gradtrace_s": a, "pytorch_s": b, "ratio": a / b}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print one JSON object (for benchmarks/report.py)")
    args = parser.parse_args()
    result = measure(args.rounds)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"fidelity suite, {result['snippets']} snippets: gradtrace {result['gradtrace_s'] * 1000:.0f} ms, "
        f"PyTorch {result['pytorch_s'] * 1000:.0f} ms, ratio {result['ratio']:.2f}x"
    )


if __name__ == "__main__":
    main()

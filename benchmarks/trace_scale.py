"""How a run's cost grows with its graph, and what its trace weighs on the wire (issue 14).

For graphs of 1k, 10k and 100k nodes (a chain ``y = y * 1.0001`` in a loop, then ``sum()`` and ``backward()``: n
nodes in all), each run in a fresh Python process (so that its peak memory is its own): the engine's time
(``engine.run`` with the server's limits but no time limit), the process's peak resident memory over its baseline,
and the growth per node, which must stay flat (linear growth). Then the trace of each seed lesson: events, JSON
bytes per event, and gzip's bytes per event (the server compresses JSON answers above 1 KiB).

Run: ``.venv/bin/python benchmarks/trace_scale.py [--sizes 1000 10000 100000] [--json]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHAIN = (
    "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x\nfor i in range({n}):\n"
    "    y = y * 1.0001\ny.sum().backward()\nprint(x.grad)\n"
)

_CHILD = """
import json, resource, sys, time
import engine
from engine.sandbox.budget import Limits
code = sys.argv[1]
engine.run("import torch\\nprint(torch.ones(2) * 2)")  # imports and first-call caches, as a warm worker has them
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
result = engine.run(code, limits=Limits(max_seconds=600, max_steps=10**9))
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "grown_kib": peak - base, "events": len(result.events),
                  "error": result.error and result.error["message"]}))
"""


def graph_sizes(sizes: list[int]) -> list[dict[str, float]]:
    rows = []
    for n in sizes:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, CHAIN.format(n=n - 2)], cwd=ROOT, capture_output=True, text=True, check=True
        )
        row = json.loads(out.stdout.strip().splitlines()[-1])
        row["nodes"] = n
        rows.append(row)
    return rows


def lesson_traces() -> list[dict[str, float]]:
    import engine
    from server.lessons import LESSONS

    rows = []
    for lesson in LESSONS:
        events = engine.run(lesson.code, seed=0).events
        raw = json.dumps(events, separators=(",", ":")).encode()
        rows.append(
            {
                "lesson": lesson.id,
                "events": len(events),
                "bytes_per_event": len(raw) / len(events),
                "gzip_bytes_per_event": len(gzip.compress(raw, 6)) / len(events),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--json", action="store_true", help="print one JSON object (for benchmarks/report.py)")
    args = parser.parse_args()
    result = {"graphs": graph_sizes(args.sizes), "traces": lesson_traces()}
    if args.json:
        print(json.dumps(result))
        return
    for row in result["graphs"]:
        print(
            f"{row['nodes']:>7} nodes: {row['seconds'] * 1000:8.0f} ms, +{row['grown_kib'] / 1024:6.1f} MiB peak, "
            f"{row['seconds'] / row['nodes'] * 1e6:5.1f} us and "
            f"{row['grown_kib'] * 1024 / row['nodes']:6.0f} B per node, "
            f"{row['events']} events"
        )
    for row in result["traces"]:
        print(
            f"{row['lesson']:<24} {row['events']:>5} events, {row['bytes_per_event']:6.0f} B/event JSON, "
            f"{row['gzip_bytes_per_event']:5.0f} B/event gzip"
        )


if __name__ == "__main__":
    main()

"""``make bench``: run every benchmark in one go, print one report and write it to benchmarks/RESULTS.md.

Each figure is a ratio measured side by side in one run (these machines are shared and noisy: absolute times say
little, ratios measured together say more). Sections: the seed lessons and the fidelity suite against PyTorch eager
(benchmarks/lessons.py, suite.py); the service (throughput.py: /api/run with new code against an unisolated
in-process endpoint and a bare one, kept answers, 2 workers against 1); graph size (trace_scale.py: time and memory
of 1k/10k/100k-node runs, trace bytes per event raw and gzip); the browser (graph_render.py). The targets are issue
14's; a figure that misses its target says so in the table.

Run: ``make bench`` (or ``.venv/bin/python benchmarks/report.py [--quick]``; ``--quick`` measures less, for a look).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


def _json_of(script: str, *args: str) -> Any:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _verdict(value: float, target: float, higher_is_better: bool) -> str:
    met = value >= target if higher_is_better else value <= target
    return "met" if met else f"**missed** ({value / target:.2f}× the target)"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    quick = args.quick
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    say("# Benchmark results (`make bench`)")
    say()
    say(
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores ({_cpu()}), "
        f"load average {load:.1f} at the start, by `benchmarks/report.py`. Ratios are ours / theirs measured "
        "side by side in one run unless the row says otherwise."
    )
    say()
    say("## The engine against PyTorch eager (parse included on both sides; below 1.0 is faster)")
    say()
    say("| program | gradtrace | PyTorch | ratio | target ≤ 1.0× |")
    say("| --- | ---: | ---: | ---: | --- |")
    lessons = _json_of("lessons.py", "--rounds", "5" if quick else "15", "--inner", "5" if quick else "20")
    for row in lessons["lessons"]:
        say(
            f"| lesson `{row['lesson']}` | {row['gradtrace_s'] * 1e3:.2f} ms | {row['pytorch_s'] * 1e3:.2f} ms | "
            f"{row['ratio']:.2f}× | {_verdict(row['ratio'], 1.0, False)} |"
        )
    suite = _json_of("suite.py", "--rounds", "3" if quick else "7")
    say(
        f"| fidelity suite ({suite['snippets']} snippets, one pass) | {suite['gradtrace_s'] * 1e3:.0f} ms | "
        f"{suite['pytorch_s'] * 1e3:.0f} ms | {suite['ratio']:.2f}× | {_verdict(suite['ratio'], 1.0, False)} |"
    )
    say()
    say("## The service (`POST /api/run`, lesson 1, 8 concurrent clients on this machine, requests per second)")
    say()
    service = _json_of("throughput.py", "--seconds", "4" if quick else "12", "--slices", "4" if quick else "6")
    say("| server | req/s | errors |")
    say("| --- | ---: | ---: |")
    for name, row in service["servers"].items():
        say(f"| {name} | {row['req_per_s']:.0f} | {row['errors']} |")
    say()
    targets = {
        "new code / unisolated in-process": 0.8,
        "kept answers / bare": 0.9,
        f"{service['workers']} workers / 1 worker (new code)": 1.8,
    }
    say("| ratio | measured | target | |")
    say("| --- | ---: | ---: | --- |")
    for name, value in service["ratios"].items():
        target = targets.get(name)
        verdict = _verdict(value, target, True) if target else ""
        say(f"| {name} | {value:.2f}× | {f'≥ {target}×' if target else ''} | {verdict} |")
    say()
    say("## Graph size: one run of n nodes, server side (a fresh process each; growth must be linear)")
    say()
    scale = _json_of("trace_scale.py", *(["--sizes", "1000", "10000"] if quick else []))
    say("| nodes | time | peak memory growth | per node | target |")
    say("| ---: | ---: | ---: | ---: | --- |")
    for row in scale["graphs"]:
        target = _verdict(row["seconds"], 1.0, False) if row["nodes"] == 10_000 else ""
        say(
            f"| {row['nodes']:,} | {row['seconds'] * 1e3:.0f} ms | {row['grown_kib'] / 1024:.1f} MiB | "
            f"{row['seconds'] / row['nodes'] * 1e6:.1f} µs, {row['grown_kib'] * 1024 / row['nodes']:.0f} B | "
            f"{'< 1 s at 10k: ' + target if target else ''} |"
        )
    say()
    say("| lesson trace | events | JSON bytes/event | gzip bytes/event |")
    say("| --- | ---: | ---: | ---: |")
    for row in scale["traces"]:
        say(
            f"| `{row['lesson']}` | {row['events']} | {row['bytes_per_event']:.0f} | "
            f"{row['gzip_bytes_per_event']:.0f} |"
        )
    say()
    say("## The browser: laying out and drawing a big graph (`benchmarks/graph_render.py`, headless Chromium)")
    say()
    drawn = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "graph_render.py"), "--repeat", "1" if quick else "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    table = [line for line in drawn.stdout.splitlines() if line.startswith("|") or line.startswith("medians")]
    if drawn.returncode != 0 or not table:
        say(f"graph_render.py failed (exit {drawn.returncode}): {drawn.stderr.strip().splitlines()[-1:]}")
    for line in table:
        say(line)
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nwritten to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

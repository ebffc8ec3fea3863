"""Time how the playground lays out and draws a big autograd graph in headless Chromium: the longest main-thread
task (the browser's long-task timing) and the time to first paint and to all nodes drawn, for 100, 1,000 and 10,000
nodes.

A synthetic trace (10 leaves, then results of two recent tensors each, like an unrolled network) is served to the
page as the SSE stream of ``/api/run/stream``; the clock runs from pressing Run (parsing, reducer, the layout in its
Web Worker and drawing included). First paint: the first graph node is in the SVG; all drawn: every node the graph
window shows (at most 1,000: a bigger graph shows the window of its latest nodes). The longest task is the longest
main-thread task the browser reports (PerformanceObserver "longtask", tasks of 50 ms and more) from Run until one
second after all is drawn; "< 50" when there was none. The page's own ``performance.measure`` entries split the work
into layout (in the worker) and drawing.

Run: ``.venv/bin/python benchmarks/graph_render.py [--repeat N] [--nodes 100 1000 10000] [--url URL]`` (build the
frontend first: ``make frontend``). Prints each round and the medians; a measurement, not a test. Figures depend on the
machine's load; benchmarks/RESULTS.md keeps the last ones measured.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright

from tests.conftest import start_server

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OPS = ["AddBackward0", "MulBackward0", "SubBackward0", "DivBackward0"]


def synthetic_trace(nodes: int, leaves: int = 10, seed: int = 0) -> list[dict]:
    """`nodes` tensor events: `leaves` leaves, then results of two recent tensors each (a deep, wide graph)."""
    rng = random.Random(seed)
    events: list[dict] = []
    for i in range(nodes):
        is_leaf = i < leaves
        inputs = [] if is_leaf else sorted({rng.randrange(max(0, i - 30), i), rng.randrange(max(0, i - 8), i)})
        events.append(
            {
                "seq": i,
                "type": "tensor",
                "line": 3 + i // 10,
                "id": i,
                "name": f"w{i}" if is_leaf else None,
                "op": None if is_leaf else rng.choice(OPS),
                "inputs": inputs,
                "shape": [],
                "dtype": "float32",
                "values": round(rng.uniform(-2, 2), 4),
                "requires_grad": True,
                "is_leaf": is_leaf,
            }
        )
    return events


LONG_TASKS = """() => {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask' });
}"""

FIRST_PAINT = """() => new Promise((resolve) => {
  const t0 = performance.now();
  const graph = document.querySelector('[data-testid=graph]');
  const seen = () => graph.querySelector('[data-node-id]');
  const obs = new MutationObserver(() => {
    if (seen()) { obs.disconnect(); requestAnimationFrame(() => resolve(performance.now() - t0)); }
  });
  obs.observe(graph, { childList: true, subtree: true });
  document.querySelector('[data-testid=run]').click();
})"""


def measure(page, nodes: int) -> dict[str, float]:
    shown = min(nodes, 1000)
    page.evaluate("performance.clearMeasures()")
    page.evaluate("window.__long = []")
    page.evaluate("window.__t0 = performance.now()")
    first = page.evaluate(FIRST_PAINT)
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=graph] [data-node-id]').length >= {shown}",
        polling="raf",
        timeout=120_000,
    )
    total = page.evaluate("performance.now() - window.__t0")
    page.wait_for_timeout(1000)  # tasks still running after the last node is drawn count too
    longest = page.evaluate("Math.max(0, ...window.__long.filter(([t]) => t >= window.__t0).map(([, d]) => d))")
    entries = page.evaluate(
        "performance.getEntriesByType('measure').filter(m => m.name.startsWith('gradtrace:'))"
        ".map(m => [m.name, m.duration])"
    )
    layout = max((d for n, d in entries if n == "gradtrace:layout"), default=float("nan"))
    draw = max((d for n, d in entries if n == "gradtrace:draw"), default=float("nan"))
    render = max((d for n, d in entries if n == "gradtrace:render"), default=float("nan"))
    return {"first": first, "total": total, "longest": longest, "layout": layout, "draw": draw, "render": render}


def bench(browser, url: str, nodes: int, repeat: int) -> dict[str, float]:
    events = synthetic_trace(nodes)
    done = 'event: done\ndata: {"stdout": "", "error": null, "seed": 0}\n\n'
    body = f"event: trace\ndata: {json.dumps(events)}\n\n{done}"
    code = f"import torch\n# a synthetic {nodes:,}-node graph (benchmarks/graph_render.py)\n"
    # the benchmark's own probes are evaluated strings, which the server's CSP (rightly) refuses the page
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page.route(
        "**/api/run/stream",
        lambda route: route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body),
    )
    b64 = base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")
    page.goto(f"{url}/#code={b64}")
    page.evaluate(LONG_TASKS)
    rounds = []
    for i in range(repeat):
        r = measure(page, nodes)
        rounds.append(r)
        print(
            f"{nodes:>6} nodes, round {i + 1}: first paint {r['first']:6.0f} ms, all drawn {r['total']:6.0f} ms, "
            f"longest task {r['longest']:5.0f} ms (layout in the worker {r['layout']:5.0f} ms, "
            f"SVG {r['draw']:4.0f} ms, all panels {r['render']:4.0f} ms)"
        )
    page.close()
    return {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--url", help="a running server to use (default: start one)")
    args = parser.parse_args()
    proc, url = (None, args.url) if args.url else start_server()
    results = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS, headless=True)
            for n in args.nodes:
                results[n] = bench(browser, url, n, args.repeat)
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"\nmedians over {args.repeat} rounds (target at 1,000 nodes: longest task ≤ 50 ms, first paint ≤ 500 ms)")
    print("| nodes | first paint | all drawn | longest main-thread task | layout (worker) | SVG draw |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, m in results.items():
        longest = f"{m['longest']:.0f} ms" if m["longest"] >= 50 else "< 50 ms (none reported)"
        print(
            f"| {n:,} | {m['first']:.0f} ms | {m['total']:.0f} ms | {longest} | {m['layout']:.0f} ms "
            f"| {m['draw']:.0f} ms |"
        )


if __name__ == "__main__":
    main()

"""Time how long the playground takes to lay out and first draw a 1,000-node autograd graph in headless Chromium.

A synthetic trace (10 leaves and 990 grad_fn results, each computed from two recent tensors, like an unrolled
network) is served to the page as the SSE stream of ``/api/run/stream``; the clock runs from pressing Run to the
moment all 1,000 nodes are in the SVG (parsing, reducer, dagre layout and drawing included). The page's own
``performance.measure`` entries split that into layout and drawing.

Run: ``.venv/bin/python benchmarks/graph_render.py [--repeat N] [--nodes N]`` (build the frontend first:
``make frontend``). Prints each round and the median; it is a measurement, not a test. The figure depends on the
machine's load (on the shared 2-core dev box: a median of ~0.7 s, single rounds up to ~2 s when other test
runs take the cores).
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

from playwright.sync_api import Route, sync_playwright  # noqa: E402

from tests.conftest import start_server  # noqa: E402

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


def measure(page, nodes: int) -> dict[str, float]:  # noqa: ANN001 - a Playwright Page
    page.evaluate("performance.clearMeasures()")
    page.evaluate("window.__t0 = performance.now()")
    page.get_by_test_id("run").click()
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=graph] [data-node-id]').length >= {nodes}",
        polling="raf",
        timeout=120_000,
    )
    total = page.evaluate("performance.now() - window.__t0")
    entries = page.evaluate(
        "performance.getEntriesByType('measure').filter(m => m.name.startsWith('gradtrace:'))"
        ".map(m => [m.name, m.duration])"
    )
    layout = max((d for n, d in entries if n == "gradtrace:layout"), default=float("nan"))
    draw = max((d for n, d in entries if n == "gradtrace:draw"), default=float("nan"))
    render = max((d for n, d in entries if n == "gradtrace:render"), default=float("nan"))
    return {"total": total, "layout": layout, "draw": draw, "render": render}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=1000)
    args = parser.parse_args()

    events = synthetic_trace(args.nodes)
    done = 'event: done\ndata: {"stdout": "", "error": null, "seed": 0}\n\n'
    body = f"event: trace\ndata: {json.dumps(events)}\n\n{done}"
    code = "import torch\n# a synthetic 1,000-node graph (benchmarks/graph_render.py)\n"
    proc, url = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS, headless=True)
            # the benchmark's own probes are evaluated strings, which the server's CSP (rightly) refuses the page
            page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)

            def sse(route: Route) -> None:
                route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

            page.route("**/api/run/stream", sse)
            b64 = base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")
            page.goto(f"{url}/#code={b64}")
            rounds = []
            for i in range(args.repeat):
                r = measure(page, args.nodes)
                rounds.append(r)
                print(
                    f"round {i + 1}: {r['total']:7.1f} ms  (all panels {r['render']:6.1f} ms, of which layout "
                    f"{r['layout']:6.1f} ms and SVG {r['draw']:5.1f} ms)"
                )
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    med = {k: statistics.median(r[k] for r in rounds) for k in ("total", "layout", "draw", "render")}
    print(
        f"{args.nodes} nodes, Run pressed → all drawn: median {med['total']:.0f} ms "
        f"(layout {med['layout']:.0f} ms, first draw {med['draw']:.0f} ms) over {args.repeat} rounds"
    )


if __name__ == "__main__":
    main()

"""Issue 12, point 7 in a real browser: a 1,000-node graph is drawn in parts, nearest the view first
(frontend/src/drawparts.js), and in the end every node and every edge is drawn exactly once, with the current node
in the panel. The figures (longest task, first paint) are measured by benchmarks/graph_render.py, not here.
Screenshot: test-artifacts/graph-big-1000.png.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import code_url, serve_trace, shot_panel


def synthetic(nodes: int, leaves: int = 10) -> dict:
    """`nodes` tensors: `leaves` leaves, then results of two recent tensors each (as benchmarks/graph_render.py)."""
    rng = random.Random(0)
    events = []
    for i in range(nodes):
        leaf = i < leaves
        inputs = [] if leaf else sorted({rng.randrange(max(0, i - 30), i), rng.randrange(max(0, i - 8), i)})
        events.append(
            {
                "seq": i,
                "type": "tensor",
                "line": 3,
                "id": i,
                "name": f"w{i}" if leaf else None,
                "op": None if leaf else rng.choice(["AddBackward0", "MulBackward0"]),
                "inputs": inputs,
                "shape": [],
                "dtype": "float32",
                "values": round(rng.uniform(-2, 2), 4),
                "requires_grad": True,
                "is_leaf": leaf,
            }
        )
    return {"stdout": "", "error": None, "seed": 0, "events": events}


# Drawn nodes and edges, and those drawn more than once.
DRAWN = """() => {
  const g = document.querySelector('[data-testid=graph]');
  const ids = [...g.querySelectorAll('[data-node-id]')].map((n) => n.dataset.nodeId);
  const edges = [...g.querySelectorAll('path.edge[data-edge-id]')].map((p) => p.dataset.edgeId);
  const twice = (xs) => xs.filter((x, i) => xs.indexOf(x) !== i);
  return { nodes: ids.length, edges: edges.length, twiceNodes: twice(ids), twiceEdges: twice(edges) };
}"""


def test_a_1000_node_graph_is_drawn_in_parts_each_node_and_edge_once(page: Page, live_server: str) -> None:
    trace = synthetic(1000)
    serve_trace(page, trace)
    page.goto(code_url(live_server, "import torch\n# a synthetic 1,000-node graph\n"))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)
    nodes = page.locator("[data-testid=graph] [data-node-id]")
    expect(nodes).to_have_count(1000, timeout=30_000)
    page.wait_for_timeout(300)  # any part still to come would draw more
    drawn = page.evaluate(DRAWN)
    edges = sum(len(e["inputs"]) for e in trace["events"])
    assert drawn == {"nodes": 1000, "edges": edges, "twiceNodes": [], "twiceEdges": []}
    # a step back redraws in parts again (999 tensors exist then): the current node, drawn first, is in the panel
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")
    current = page.locator('[data-testid=graph] [data-current="true"]')
    expect(current).to_have_count(1)
    g = page.get_by_test_id("graph").bounding_box()
    b = current.locator(":scope > rect.box").bounding_box()
    assert g and b and g["x"] <= b["x"] and b["x"] + b["width"] <= g["x"] + g["width"] + 0.5
    expect(nodes).to_have_count(999, timeout=30_000)
    assert page.evaluate(DRAWN)["twiceNodes"] == []
    shot_panel(page, "graph", "graph-big-1000")

"""Issue 12, point 3: search the graph by variable name, op or parameter / module name; matches are marked and Enter
moves the view to each in turn (on the 3-layer MLP, zoomed in so that most of it is out of view)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import code_url, shot_panel
from tests.browser.programs import MLP

INSIDE = """(id) => {
  const g = document.querySelector('[data-testid=graph]').getBoundingClientRect();
  const b = document.querySelector(`[data-testid=graph] [data-node-id="${id}"] > rect`).getBoundingClientRect();
  return b.left >= g.left && b.right <= g.right && b.top >= g.top && b.bottom <= g.bottom;
}"""


def test_search_marks_names_ops_and_modules_and_enter_moves_the_view_to_each(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, MLP))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)
    graph = page.get_by_test_id("graph")
    box = graph.get_by_role("searchbox", name="Search the graph by variable name, op or parameter")
    status = graph.locator(".graph-found")
    found = graph.locator("[data-node-id].found")

    box.fill("weight")  # parameter names: model.0.weight, model.2.weight, model.4.weight
    expect(found).to_have_count(3)
    expect(status).to_have_text("3 found")
    box.fill("relu")  # an op, by its short name
    expect(found).to_have_count(2)
    box.fill("AddmmBackward0")  # an op, by its grad_fn name
    expect(found).to_have_count(3)
    box.fill("model.2")  # a module: the nodes its call made and its parameters
    expect(found).to_have_count(4)
    box.fill("no such thing")
    expect(status).to_have_text("none found")
    expect(found).to_have_count(0)

    # zoomed in, Enter brings each match into view in turn (and the page's step keys stay out of the box)
    for _ in range(8):
        graph.get_by_role("button", name="Zoom in").click()
    box.fill("weight")
    ids = found.evaluate_all("els => els.map((e) => e.dataset.nodeId)")
    counter = page.get_by_test_id("timeline").locator(".counter")
    before = counter.inner_text()
    for i in range(3):
        box.press("Enter")
        expect(status).to_have_text(f"{i + 1} of 3")
        page.wait_for_function(f"({INSIDE})('{ids[i]}')")
    box.press("ArrowLeft")
    assert counter.inner_text() == before
    shot_panel(page, "graph", "graph-search-weight")

"""Issue 12's acceptance for long programs: a 5,000-iteration loop followed by backward() — the trace folds the
loop (and the page says so), the ledger shows x.grad, and the backward pass is animated on the graph shown."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import code_url, shot, shot_panel

LONG_LOOP = (
    "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x\nfor i in range(5000):\n"
    "    y = y * 1.0001\nloss = y.sum()\nloss.backward()\nprint(x.grad)\n"
)


def test_a_5000_iteration_loop_then_backward_shows_the_backward_pass_and_the_grad(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, LONG_LOOP))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)
    expect(page.get_by_test_id("stdout")).to_have_text("tensor([1.6488, 1.6488, 1.6488])\n")
    expect(page.locator("#warnings")).to_contain_text("Loop at line 4: iterations 3–4998 folded")
    expect(page.get_by_test_id("ledger").locator(".ledger-leaf h3")).to_contain_text(
        "x.grad = [1.6488, 1.6488, 1.6488]"
    )
    # The chain's two ends (iterations 0-2 and 4999) are joined by a box for the folded iterations between.
    fold = page.locator("[data-testid=graph] [data-fold-for]")
    expect(fold).to_have_count(1)
    expect(fold).to_contain_text("⋯ folded iterations")
    expect(page.locator("[data-testid=graph] path.fold-edge")).to_have_count(1)
    shot_panel(page, "graph", "long-loop-folded-chain")
    # Step to the backward pass: its nodes light up as they run.
    page.get_by_role("button", name="First step").click()
    ran = page.locator('[data-testid="graph"] svg [data-node-id].ran')
    # The graph is redrawn a frame after the click: wait for the first step's drawing (nothing has run yet), or a
    # loaded machine reads the end state's marks still on screen and stops before the backward pass.
    expect(ran).to_have_count(0)
    for _ in range(40):
        if ran.count() >= 2:
            break
        page.get_by_role("button", name="Next step (→)").click()
    assert ran.count() >= 2, "no backward node was drawn as run"
    expect(page.get_by_test_id("step")).to_contain_text("Backward")
    shot(page, "long-loop-backward")

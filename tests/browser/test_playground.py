"""The playground in a real browser: the browser contract of docs/HTTP.md (``/#code=``, the data-testid hooks) and
what a learner sees — the lesson-2 ledger 4 → 16 → None → 12, the graph, stdout, errors with their line.

Tests named ``test_live_*`` run real code on the real server (``live_server``); the ``test_replay_*`` tests
serve a hand-written trace (frontend/test/fixtures) as the SSE stream, so the UI is checked on known events.
Every test fails on a console error or an uncaught exception (see conftest.py). Screenshots: test-artifacts/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    code_url,
    fixture_trace,
    lesson,
    serve_batch_only,
    serve_trace,
    serve_with_strict_csp,
    shot,
)

GRAPH_NODES = '[data-testid="graph"] svg [data-node-id]'


def run(page: Page) -> None:
    """Press Run and wait until the run is over (the status line names the event count)."""
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^(\d+ events?|Run failed)"))


def editor_text(page: Page) -> str:
    return page.get_by_test_id("editor").locator(".cm-content").inner_text()


# ── against the real server ───────────────────────────────────────────────────────────────────────────────


def test_live_lesson2_ledger_and_graph(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, lesson("accumulation")))
    assert "(x ** 3).backward()" in editor_text(page)  # /#code= loaded the lesson
    run(page)

    # The .grad ledger of x tells the lesson: 4, then +12 = 16, reset to None, then 12.
    ledger = page.get_by_test_id("ledger")
    expect(ledger.locator(".ledger-entry .after")).to_have_text(["4.", "16.", "None", "12."])
    expect(ledger).to_contain_text("4. + 12. = 16.")

    # The graph: one SVG element per tensor, x and three PowBackward0 nodes at least.
    nodes = page.locator(GRAPH_NODES)
    expect(nodes.first).to_be_visible()
    ids = [nodes.nth(i).get_attribute("data-node-id") for i in range(nodes.count())]
    assert len(ids) >= 4 and len(set(ids)) == len(ids) and all(ids), ids
    expect(page.locator(f"{GRAPH_NODES}.op")).to_have_count(3)
    expect(page.locator(f"{GRAPH_NODES}.leaf")).to_contain_text(".grad 12.")
    expect(page.get_by_test_id("stdout")).to_have_text("tensor(4.)\ntensor(16.)\ntensor(12.)\n")
    expect(page.get_by_test_id("error")).to_be_hidden()
    expect(page.get_by_test_id("timeline")).to_contain_text(re.compile(r"step (\d+) / \1"))
    shot(page, "live-lesson2-1280")


def test_live_lesson1_stdout(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, lesson("scalar_backward")))
    run(page)
    expect(page.get_by_test_id("stdout")).to_contain_text("tensor([2., 4., 6.])")
    expect(page.get_by_test_id("ledger")).to_contain_text("[2., 4., 6.]")
    expect(page.locator(f"{GRAPH_NODES}.op")).to_have_count(2)  # PowBackward0, SumBackward0
    shot(page, "live-lesson1-1280")


def test_live_error_shows_type_message_and_line(page: Page, live_server: str) -> None:
    code = "import torch\nx = torch.tensor(2.0)\ny = x * undefined_name\nprint(y)\n"
    page.goto(code_url(live_server, code))
    run(page)
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_have_text(re.compile(r"^\w+: .+ \(line 3\)$"))
    expect(page.get_by_test_id("editor").locator(".cm-mark-error")).to_have_text("y = x * undefined_name")
    shot(page, "live-error-1280")


def test_live_examples_menu_loads_a_lesson(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    menu = page.locator("#examples")
    expect(menu.locator("option")).to_have_count(4)  # "Examples…" and the three lessons
    menu.select_option("scalar_backward")
    assert "y = (x ** 2).sum()" in editor_text(page)
    run(page)
    expect(page.get_by_test_id("stdout")).to_contain_text("tensor([2., 4., 6.])")
    assert "#code=" in page.url  # the URL now carries the code that ran


def test_live_small_screen(browser, live_server: str, problems) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        page = context.new_page()
        page.on("console", problems.console)
        page.on("pageerror", problems.page_error)
        page.goto(code_url(live_server, lesson("accumulation")))
        run(page)
        expect(page.get_by_test_id("ledger").locator(".ledger-entry")).to_have_count(4)
        for hook in ("editor", "run", "graph", "timeline", "ledger", "stdout"):
            expect(page.get_by_test_id(hook)).to_be_visible()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at 375px"
        shot(page, "live-lesson2-375")
    finally:
        context.close()
    assert not problems.items, problems.items


# ── replaying a known trace (no engine involved) ─────────────────────────────────────────────────────────────


def test_replay_step_through_backward(page: Page, live_server: str) -> None:
    trace = fixture_trace("accumulation")
    serve_trace(page, trace)
    page.goto(code_url(live_server, lesson("accumulation")))
    run(page)
    timeline = page.get_by_test_id("timeline")
    n = len(trace["events"])
    expect(timeline).to_contain_text(f"step {n} / {n}")

    x = page.locator(f'{GRAPH_NODES}[data-node-id="0"]')
    page.get_by_role("button", name="First step").click()
    expect(timeline).to_contain_text(f"step 0 / {n}")
    expect(page.locator(GRAPH_NODES)).to_have_count(0)  # nothing exists before the first event
    expect(page.get_by_test_id("ledger").locator(".ledger-entry.future")).to_have_count(4)

    next_step = page.get_by_role("button", name="Next step (→)")
    for _ in range(4):
        next_step.click()
    # step 4: PowBackward0 of x ** 2 ran, the gradient 4 flows down the edge to x
    expect(timeline).to_contain_text("PowBackward0 ran: grad_output 1. → grad_inputs (4.)")
    expect(page.locator(f'{GRAPH_NODES}[data-node-id="1"]')).to_have_class(re.compile(r"\bactive\b.*\bran\b"))
    expect(page.locator(".edge-label")).to_contain_text("4.")
    expect(x).to_contain_text(".grad None")
    next_step.click()  # step 5: AccumulateGrad
    expect(x).to_contain_text(".grad 4.")
    expect(x).to_have_class(re.compile(r"\bgrad-changed\b"))
    expect(page.get_by_test_id("ledger").locator(".ledger-entry.current")).to_contain_text("None + 4. = 4.")
    expect(page.get_by_test_id("editor").locator(".cm-mark-step")).to_have_text(re.compile(r"^\(x \*\* 2\)\.backward"))
    shot(page, "replay-lesson2-step5")

    page.keyboard.press("Escape")
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # ← / → step too
    expect(timeline).to_contain_text(f"step 10 / {n}")
    expect(x).to_contain_text(".grad 16.")
    expect(page.locator(f'{GRAPH_NODES}[data-node-id="1"]')).to_have_class(re.compile(r"\bdone\b"))

    page.get_by_test_id("ledger").get_by_role("button", name=re.compile("reset to None")).click()
    expect(timeline).to_contain_text(f"step 12 / {n}")
    expect(x).to_contain_text(".grad None")
    expect(page.get_by_test_id("stdout")).to_have_text("tensor(4.)\ntensor(16.)\n")


def test_replay_error_trace(page: Page, live_server: str) -> None:
    serve_trace(page, fixture_trace("error"))
    page.goto(code_url(live_server, "import torch\n\nx = torch.tensor(2.0)\n(x ** 2).backward()\n"))
    run(page)
    expect(page.get_by_test_id("error")).to_have_text(
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn (line 4)"
    )
    expect(page.locator(f"{GRAPH_NODES}.const")).to_have_count(2)


def test_replay_gradient_accumulation_trace(page: Page, live_server: str) -> None:
    """A bigger run (lesson 3 shaped: 8 mini-batches, optimizer steps and zero_grad) stays usable."""
    trace = fixture_trace("gradient_accumulation")
    serve_trace(page, trace)
    page.goto(code_url(live_server, lesson("gradient_accumulation")))
    run(page)
    n = len(trace["events"])
    expect(page.get_by_test_id("timeline")).to_contain_text(f"step {n} / {n}")
    ledger = page.get_by_test_id("ledger")
    expect(ledger.locator(".ledger-leaf")).to_have_count(2)  # model.weight, model.bias
    expect(ledger.locator(".ledger-leaf").first).to_contain_text("model.weight.grad = None")
    expect(ledger.locator(".ledger-entry.step")).to_have_count(4)  # 2 optimizer steps × 2 parameters
    # The data batches (x, y) are constants nothing is computed from in the autograd graph: not drawn.
    expect(page.locator(f"{GRAPH_NODES}.const")).to_have_count(0)
    expect(page.locator(f"{GRAPH_NODES}.leaf")).to_have_count(2)
    # Each pass through the loop builds a new graph: the panel shows the current iteration's 4 grad_fns, and says so.
    expect(page.locator(f"{GRAPH_NODES}.op")).to_have_count(4)
    expect(page.locator(".graph-note")).to_have_text(re.compile(r"^Iteration 8 of 8: "))
    page.locator("input.slider").fill("70")
    expect(page.locator(".node.active")).to_have_count(1)
    assert len(page.get_by_test_id("timeline").locator(".what").inner_text()) < 400  # big tensors are cut short
    shot(page, "replay-lesson3-step70")


def test_replay_falls_back_to_the_batch_route(page: Page, live_server: str) -> None:
    calls = serve_batch_only(page, fixture_trace("scalar_backward"))
    page.goto(code_url(live_server, lesson("scalar_backward")))
    page.get_by_test_id("editor").locator(".cm-content").click()
    page.keyboard.press("Control+Enter")  # Ctrl+Enter runs, like the Run button
    expect(page.get_by_test_id("stdout")).to_have_text("tensor([2., 4., 6.])\n")
    expect(page.get_by_test_id("ledger")).to_contain_text("None + [2., 4., 6.] = [2., 4., 6.]")
    assert calls == ["/api/run/stream", "/api/run"]


def test_replay_under_a_strict_csp(page: Page, live_server: str) -> None:
    """No inline script, no eval, no inline style without the nonce: a CSP violation is a console error."""
    serve_with_strict_csp(page)
    serve_trace(page, fixture_trace("accumulation"))
    page.goto(code_url(live_server, lesson("accumulation")))
    run(page)
    expect(page.get_by_test_id("ledger").locator(".ledger-entry .after")).to_have_text(["4.", "16.", "None", "12."])
    expect(page.locator('meta[name="csp-nonce"]')).to_have_count(1)  # the CSP'd document is the one we got
    # CodeMirror's own styles applied (they are the <style> elements the nonce lets in)
    assert page.locator(".cm-gutters").evaluate("el => getComputedStyle(el).display") == "flex"


def test_live_lesson3_gradient_accumulation(page: Page, live_server: str) -> None:
    """Lesson 3 on the real engine: two parameters, their .grad accumulated over 4 mini-batches, 2 optimizer steps."""
    page.goto(code_url(live_server, lesson("gradient_accumulation")))
    run(page)
    expect(page.get_by_test_id("error")).to_be_hidden()
    ledger = page.get_by_test_id("ledger")
    expect(ledger.locator(".ledger-leaf")).to_have_count(2)
    expect(ledger).to_contain_text("model.weight.grad")
    expect(ledger).to_contain_text("model.bias.grad")
    expect(ledger.locator(".ledger-entry.step")).to_have_count(4)
    expect(ledger.locator(".ledger-entry.accumulate")).to_have_count(16)
    expect(page.locator(f"{GRAPH_NODES}.leaf")).to_have_count(2)
    page.get_by_role("button", name="First step").click()
    for _ in range(3):
        page.get_by_role("button", name="Next step (→)").click()
    expect(page.get_by_test_id("timeline")).to_contain_text("step 3 /")
    shot(page, "live-lesson3-1280")

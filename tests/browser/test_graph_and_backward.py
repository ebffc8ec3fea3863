"""Issue 4, points 1, 2, 4 and 5 in a real browser: the graph (left to right, AccumulateGrad, hover ↔ source line,
zoom and pan), the backward animation (chain rule per node, play/pause/step/speed, keys, reduced motion), freed
graphs with the second backward's error explained, and the gradient= vector of a vector–Jacobian product.
Screenshots: test-artifacts/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import code_url, fixture_trace, lesson, serve_trace, shot

GRAPH_NODES = '[data-testid="graph"] svg [data-node-id]'
SECOND_BACKWARD = """import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = x * w + x ** 2
y.backward()
y.backward()
"""
VJP = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
v = torch.tensor([1.0, 0.1, 0.01])
y.backward(gradient=v)
print(x.grad)
"""


def run(page: Page) -> None:
    page.get_by_test_id("run").click()
    # a run on a busy machine may take a while: wait for it longer than for a redraw
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^(\d+ events?|Run failed)"), timeout=30_000)


def node(page: Page, tensor_id: str):
    return page.locator(f'{GRAPH_NODES}[data-node-id="{tensor_id}"]')


def transform(page: Page) -> str:
    return page.locator('[data-testid="graph"] .viewport').get_attribute("transform") or ""


# ── 1. the graph ─────────────────────────────────────────────────────────────────────────────────────────────


def test_graph_left_to_right_with_accumulategrad_hover_and_zoom(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, SECOND_BACKWARD.replace("y.backward()\ny.backward()\n", "y.backward()\n")))
    run(page)
    x, mul, add = node(page, "0"), node(page, "2"), node(page, "4")
    expect(x).to_contain_text("x")
    expect(x).to_contain_text("leaf · [] float32")
    expect(x).to_contain_text(".grad 7.")
    expect(mul).to_contain_text("MulBackward0")
    expect(add).to_contain_text("AddBackward0")
    expect(add).to_contain_text("y · [] float32")
    expect(add).to_contain_text("10.")
    # the program ended with its backward: that graph has been freed
    expect(page.locator(f"{GRAPH_NODES}.op.freed")).to_have_count(3)
    # AccumulateGrad nodes write the leaves' .grad
    expect(page.locator('[data-testid="graph"] [data-acc-for]')).to_have_count(2)
    expect(page.locator('[data-acc-for="0"]')).to_contain_text("AccumulateGrad")
    # forward runs left to right: leaf, then its grad_fn, then the root
    bx, bm, ba = (n.bounding_box() for n in (x, mul, add))
    assert bx and bm and ba and bx["x"] < bm["x"] < ba["x"], (bx, bm, ba)

    # hovering a node highlights its source line …
    mul.hover()
    expect(page.get_by_test_id("editor").locator(".cm-mark-hover")).to_have_text("y = x * w + x ** 2")
    # … and hovering a line highlights its nodes
    page.get_by_test_id("editor").locator(".cm-line").nth(1).hover()  # line 2: x = torch.tensor(…)
    expect(x).to_have_class(re.compile(r"\bhl\b"))
    expect(mul).not_to_have_class(re.compile(r"\bhl\b"))
    shot(page, "graph-hover-1280")

    # zoom with the buttons, pan by dragging
    before = transform(page)
    page.get_by_role("button", name="Zoom in").click()
    zoomed = transform(page)
    assert zoomed != before and "scale" in zoomed, (before, zoomed)
    box = page.get_by_test_id("graph").bounding_box()
    assert box
    page.mouse.move(box["x"] + 40, box["y"] + 40)
    page.mouse.down()
    page.mouse.move(box["x"] + 140, box["y"] + 90, steps=5)
    page.mouse.up()
    assert transform(page) != zoomed
    page.get_by_role("button", name="Fit graph").click()
    expect(x).to_be_in_viewport()


# ── 2. the backward animation ───────────────────────────────────────────────────────────────────────────────


def test_backward_steps_show_the_chain_rule_and_the_player_obeys(page: Page, live_server: str) -> None:
    trace = fixture_trace("accumulation")
    serve_trace(page, trace)
    page.goto(code_url(live_server, lesson("accumulation")))
    run(page)
    n = len(trace["events"])
    timeline = page.get_by_test_id("timeline")
    page.get_by_role("button", name="First step").click()
    for _ in range(4):
        page.get_by_role("button", name="Next step (→)").click()
    chain = page.get_by_test_id("step").locator(".chain-rule")
    expect(chain).to_contain_text("PowBackward0: grad_output 1. → local derivative → grad_inputs")
    expect(chain).to_contain_text("∂/∂x x² = 2·x = 2·2 = 4; 4 × 1 = 4")
    # the panel under the graph says it, never a callout over the graph; the node that ran is the current one
    expect(page.locator('[data-testid="graph"] .callout')).to_have_count(0)
    expect(page.locator('[data-testid="graph"] [data-current="true"]')).to_have_attribute("data-node-id", "1")
    expect(page.locator(".edge.grad.fresh")).to_have_count(1)  # the gradient travelling to x
    fresh = page.locator(".edge.grad.fresh")
    assert fresh.get_attribute("marker-start") == "url(#arrow-grad-back)" and fresh.get_attribute("marker-end") is None
    shot(page, "backward-chain-rule-step4")
    page.locator("input.slider").fill("9")  # the scrubber: x ** 3's node
    expect(chain).to_contain_text("∂/∂x x³ = 3·x² = 3·2² = 12; 12 × 1 = 12")
    next_step = page.get_by_role("button", name="Next step (→)")
    next_step.click()
    expect(page.locator('[data-acc-for="0"]')).to_contain_text("+ 12.")  # AccumulateGrad adds 12
    expect(chain).to_be_hidden()

    # keys: Home / End / arrows; Space plays and pauses
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(timeline).to_contain_text(f"step 0 / {n}")
    page.keyboard.press("End")
    expect(timeline).to_contain_text(f"step {n} / {n}")
    page.keyboard.press("Home")
    page.keyboard.press(" ")  # 1×: a step every 0.7 s
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    expect(timeline).to_contain_text(re.compile(r"step [1-9] / "))
    page.keyboard.press(" ")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    paused = timeline.locator(".counter").inner_text()
    page.wait_for_timeout(1000)
    assert timeline.locator(".counter").inner_text() == paused  # paused means paused
    page.get_by_label("Playback speed").select_option("8")
    page.get_by_role("button", name="Play").click()
    expect(timeline).to_contain_text(f"step {n} / {n}", timeout=10_000)  # plays to the end and stops
    expect(page.get_by_role("button", name="Play")).to_be_visible()


def test_tensor_nodes_show_the_formula_with_their_values(page: Page, live_server: str) -> None:
    serve_trace(page, fixture_trace("scalar_backward"))
    page.goto(code_url(live_server, lesson("scalar_backward")))
    run(page)
    page.locator("input.slider").fill("7")
    chain = page.get_by_test_id("step").locator(".chain-rule")
    expect(chain).to_contain_text("grad_output [3]")
    expect(chain).to_contain_text("grad_x = grad_out · 2·x = [1., 1., 1.] · 2·[1., 2., 3.] = [2., 4., 6.]")


def test_reduced_motion_stops_the_flowing_edges(browser: Browser, live_server: str, problems) -> None:
    animations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
        try:
            page = context.new_page()
            page.on("console", problems.console)
            page.on("pageerror", problems.page_error)
            serve_trace(page, fixture_trace("accumulation"))
            page.goto(code_url(live_server, lesson("accumulation")))
            run(page)
            page.locator("input.slider").fill("4")
            fresh = page.locator(".edge.grad.fresh")
            expect(fresh).to_have_count(1)
            animations[motion] = fresh.evaluate("el => getComputedStyle(el).animationName")
        finally:
            context.close()
    assert animations == {"no-preference": "flow", "reduce": "none"}, animations
    assert not problems.items, problems.items


# ── 4. graph lifetime ───────────────────────────────────────────────────────────────────────────────────────


def test_freed_graph_and_the_second_backward_error(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, SECOND_BACKWARD))
    run(page)
    error = page.get_by_test_id("error")
    second_time = r"^RuntimeError: Trying to backward through the graph a second time.* \(line 6\)$"
    expect(error).to_have_text(re.compile(second_time))
    expect(page.locator("#error-explain")).to_have_text(re.compile(r"freed the saved values.*retain_graph=True"))
    expect(page.get_by_test_id("editor").locator(".cm-mark-error")).to_have_text("y.backward()")
    # after the first backward (no retain_graph) its grad_fns look freed
    expect(page.locator(f"{GRAPH_NODES}.op.freed")).to_have_count(3)
    expect(page.locator(".freed-badge").first).to_have_text("graph freed")
    shot(page, "graph-freed-second-backward-error")
    # while the first backward runs they are not freed yet
    page.get_by_role("button", name="First step").click()
    for _ in range(7):
        page.get_by_role("button", name="Next step (→)").click()
    expect(page.locator(f"{GRAPH_NODES}.freed")).to_have_count(0)


def test_retain_graph_keeps_the_graph(page: Page, live_server: str) -> None:
    code = SECOND_BACKWARD.replace("y.backward()\ny.backward()", "y.backward(retain_graph=True)\ny.backward()")
    page.goto(code_url(live_server, code))
    run(page)
    expect(page.get_by_test_id("error")).to_be_hidden()
    expect(node(page, "0")).to_contain_text(".grad 14.")
    expect(page.locator(f"{GRAPH_NODES}.freed")).to_have_count(3)  # the second call (no retain_graph) freed it
    page.locator("input.slider").fill("12")  # the second backward begins: the first one kept the graph
    expect(page.get_by_test_id("timeline")).to_contain_text("y.backward(gradient=1.) starts the backward pass")
    expect(page.locator(f"{GRAPH_NODES}.freed")).to_have_count(0)


# ── 5. non-scalar backward ──────────────────────────────────────────────────────────────────────────────────


def test_gradient_vector_of_a_vjp_enters_at_the_root(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, VJP))
    run(page)
    seed = page.locator('[data-testid="graph"] [data-seed-for="1"]')
    expect(seed).to_have_class(re.compile(r"\bvjp\b"))
    expect(seed).to_contain_text("gradient = [1.0000, 0.1000, 0.0100]")
    expect(seed).to_contain_text("v in vᵀ·J (vector–Jacobian product)")
    expect(page.locator(".seed-edge")).to_have_count(1)
    bs, by = seed.bounding_box(), node(page, "1").bounding_box()
    assert bs and by and bs["x"] > by["x"]  # it enters from the right, where backward starts
    expect(page.get_by_test_id("ledger")).to_contain_text("[2.0000, 0.2000, 0.0200]")
    shot(page, "graph-vjp-gradient")

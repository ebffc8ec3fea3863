"""Issue 12, points 1, 2, 4 and 9 in a real browser, on the seed lessons, a 3-layer MLP trained 20 steps, a
micrograd-style neuron and a loop of 500 iterations: the graph is always framed (fitted while it stays legible, else
the current node and its neighbours; the learner's own pan or zoom kept until Fit or Run), no text is drawn under
11 px on screen (semantic zoom), edge labels never sit on boxes, the minimap, and the step panel beside the graph
with the chain rule for tensors. Screenshots: test-artifacts/graph-view-*.png.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import code_url, lesson, shot, shot_panel
from tests.browser.programs import LOOP_500, MLP, NEURON

PROGRAMS = {
    "scalar_backward": lesson("scalar_backward"),
    "accumulation": lesson("accumulation"),
    "gradient_accumulation": lesson("gradient_accumulation"),
    "mlp": MLP,
    "neuron": NEURON,
    "loop500": LOOP_500,
}

BOXES = "[data-testid=graph] [data-node-id], [data-testid=graph] [data-acc-for], [data-testid=graph] [data-seed-for]"

# Boxes of the graph (screen px) that stick out of the graph panel.
OUTSIDE = """(sel) => {
  const g = document.querySelector('[data-testid=graph]').getBoundingClientRect();
  const out = [];
  for (const n of document.querySelectorAll(sel)) {
    const b = n.querySelector(':scope > rect').getBoundingClientRect();
    if (b.left < g.left - 0.5 || b.top < g.top - 0.5 || b.right > g.right + 0.5 || b.bottom > g.bottom + 0.5)
      out.push(n.outerHTML.slice(0, 80));
  }
  return out;
}"""

# Text drawn in the graph under 11 px on screen (font size × the zoom the text is drawn at).
SMALL_TEXT = """() => {
  const small = [];
  let drawn = 0;
  for (const t of document.querySelectorAll('[data-testid=graph] svg text')) {
    if (!t.textContent.trim() || t.getBoundingClientRect().width === 0) continue; // not drawn
    drawn += 1;
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    if (px < 10.99) small.push(`${t.textContent} ${px.toFixed(2)}px`);
  }
  return { small, drawn };
}"""

# Is the node of the current step inside the graph panel? 'none' when the step has no node on screen.
CURRENT = """() => {
  const n = document.querySelector('[data-testid=graph] [data-current="true"]');
  if (!n) return 'none';
  const g = document.querySelector('[data-testid=graph]').getBoundingClientRect();
  const b = n.querySelector(':scope > rect').getBoundingClientRect();
  const inside = b.left >= g.left - 0.5 && b.top >= g.top - 0.5 && b.right <= g.right + 0.5 && b.bottom <= g.bottom + 0.5;
  return inside ? 'in' : 'out';
}"""

# Drawn edge labels that overlap a box, and edges that pass through a box that is not one of their ends.
OVERLAPS = """() => {
  const rect = (el) => el.getBoundingClientRect();
  const boxes = [...document.querySelectorAll('[data-testid=graph] [data-node-id], [data-testid=graph] [data-acc-for], [data-testid=graph] [data-seed-for]')]
    .map((n) => ({ id: n.dataset.nodeId ?? (n.dataset.accFor ? `acc:${n.dataset.accFor}` : `seed:${n.dataset.seedFor}`), r: rect(n.querySelector(':scope > rect')) }));
  const hit = (a, b, pad) => a.left < b.right - pad && b.left < a.right - pad && a.top < b.bottom - pad && b.top < a.bottom - pad;
  const bad = [];
  for (const l of document.querySelectorAll('[data-testid=graph] .edge-label rect')) {
    const r = rect(l);
    if (r.width === 0) continue;
    for (const b of boxes) if (hit(r, b.r, 0.5)) bad.push(`label over ${b.id}`);
  }
  for (const p of document.querySelectorAll('[data-testid=graph] path.edge[data-edge-id]')) {
    const [from, rest] = p.dataset.edgeId.split('->');
    const to = rest.split('#')[0];
    const len = p.getTotalLength();
    const m = p.getScreenCTM();
    for (let i = 1; i < 20; i++) {
      const q = p.getPointAtLength((len * i) / 20);
      const x = m.a * q.x + m.c * q.y + m.e;
      const y = m.b * q.x + m.d * q.y + m.f;
      for (const b of boxes) {
        if (b.id === from || b.id === to) continue;
        if (x > b.r.left + 2 && x < b.r.right - 2 && y > b.r.top + 2 && y < b.r.bottom - 2) bad.push(`${p.dataset.edgeId} through ${b.id}`);
      }
    }
  }
  return [...new Set(bad)];
}"""

# Module labels (drawn above their frames) and frames that cover another module's label or frame, or a box: a box
# partly inside a frame, or any box under a label (a module's own boxes are inside its frame, never under its label).
CLUSTER_OVERLAPS = """() => {
  const g = document.querySelector('[data-testid=graph]');
  const rect = (el) => el.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const inside = (a, f) => a.left >= f.left - 0.5 && a.right <= f.right + 0.5 && a.top >= f.top - 0.5 && a.bottom <= f.bottom + 0.5;
  const boxes = [...g.querySelectorAll('[data-node-id], [data-acc-for], [data-seed-for], .cluster.collapsed')]
    .map((n) => ({ id: n.dataset.nodeId ?? n.dataset.accFor ?? n.dataset.seedFor ?? n.dataset.module, r: rect(n.querySelector(':scope > rect')) }));
  const clusters = [...g.querySelectorAll('.cluster[data-module]:not(.collapsed)')]
    .map((c) => ({ path: c.dataset.module, frame: rect(c.querySelector(':scope > rect')), label: rect(c.querySelector(':scope > .cluster-label')) }));
  const bad = [];
  for (const c of clusters) {
    for (const b of boxes) {
      if (hit(c.label, b.r)) bad.push(`${c.path}'s label over ${b.id}`);
      if (hit(c.frame, b.r) && !inside(b.r, c.frame)) bad.push(`${c.path}'s frame over ${b.id}`);
    }
    for (const o of clusters) {
      if (o === c) continue;
      if (hit(c.label, o.label) || hit(c.label, o.frame)) bad.push(`${c.path}'s label over ${o.path}`);
      if (hit(c.frame, o.frame)) bad.push(`${c.path}'s frame over ${o.path}'s`);
    }
  }
  return [...new Set(bad)];
}"""


def run(page: Page, code: str, live_server: str) -> None:
    page.goto(code_url(live_server, code))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)
    expect(page.locator(BOXES).first).to_be_attached()
    page.wait_for_function(
        "() => !document.querySelector('.graph-busy') || document.querySelector('.graph-busy').hidden"
    )


def step_until(page: Page, text: str, limit: int = 40) -> None:
    """Press → until the step panel shows `text` (each press waits for the counter to move)."""
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    counter = page.get_by_test_id("timeline").locator(".counter")
    for k in range(1, limit + 1):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_text(re.compile(rf"^step {k} / "))
        if text in page.get_by_test_id("step").inner_text():
            return
    raise AssertionError(f"no step shows {text!r}")


def scale(page: Page) -> float:
    t = page.locator("[data-testid=graph] .viewport").get_attribute("transform") or ""
    m = re.search(r"scale\(([\d.e-]+)\)", t)
    return float(m.group(1)) if m else 1.0


def assert_legible_and_inside(page: Page, name: str) -> None:
    assert page.evaluate(OUTSIDE, BOXES) == [], f"{name}: boxes outside the graph panel"
    text = page.evaluate(SMALL_TEXT)
    assert text["small"] == [], f"{name}: text under 11 px: {text['small'][:5]}"
    assert text["drawn"] > 0, f"{name}: no text drawn at all"


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_after_run_the_whole_graph_is_in_the_panel_and_no_text_is_under_11px(
    page: Page, live_server: str, name: str
) -> None:
    run(page, PROGRAMS[name], live_server)
    assert_legible_and_inside(page, name)
    assert page.evaluate(OVERLAPS) == [], name
    shot(page, f"graph-view-after-run-{name}")
    shot_panel(page, "graph", f"graph-panel-after-run-{name}")


def test_the_seed_lesson_is_fitted_with_every_row_readable(page: Page, live_server: str) -> None:
    run(page, PROGRAMS["scalar_backward"], live_server)
    assert scale(page) >= 11 / 12 - 1e-6  # every row of every node readable, nothing collapsed
    expect(page.locator("[data-testid=graph] svg")).to_have_class(re.compile(r"\bz-full\b"))
    expect(page.locator('[data-node-id="0"] .row.grad')).to_be_visible()
    expect(page.get_by_test_id("minimap")).to_be_hidden()  # everything is in view: no minimap


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_every_timeline_move_keeps_the_current_node_in_the_panel(page: Page, live_server: str, name: str) -> None:
    run(page, PROGRAMS[name], live_server)
    n = int(page.locator("input.slider").get_attribute("max") or "0")
    counter = page.get_by_test_id("timeline").locator(".counter")
    rng = random.Random(12)
    seen = 0

    def check(how: str) -> None:
        nonlocal seen
        page.wait_for_function(f"({CURRENT})() !== 'out'", timeout=5_000)
        seen += page.evaluate(CURRENT) == "in"
        assert page.evaluate(SMALL_TEXT)["small"] == [], (name, how)
        assert page.evaluate(OUTSIDE, '[data-testid=graph] [data-current="true"]') == [], (name, how)

    # 10 random positions of the slider
    for k in [rng.randint(1, n) for _ in range(10)]:
        page.locator("input.slider").fill(str(k))
        expect(counter).to_have_text(f"step {k} / {n}")
        check(f"slider {k}")
    # clicks on the track, and the keys: PageUp/PageDown (backward() calls), Home, End, arrows
    track = page.locator("input.slider").bounding_box()
    assert track
    for frac in (0.15, 0.55, 0.9):
        before = counter.inner_text()
        page.mouse.click(track["x"] + track["width"] * frac, track["y"] + track["height"] / 2)
        expect(counter).not_to_have_text(before)
        check(f"track {frac}")
    page.locator("body").click(position={"x": 5, "y": 5})
    for key in ("Home", "PageDown", "PageDown", "ArrowRight", "ArrowRight", "PageUp", "End", "ArrowLeft"):
        page.keyboard.press(key)
        page.wait_for_timeout(50)
        check(key)
    assert seen >= 5, f"{name}: only {seen} of 21 positions had a current node drawn"
    shot(page, f"graph-view-after-seeks-{name}")
    shot_panel(page, "graph", f"graph-panel-after-seeks-{name}")


def test_the_learners_zoom_is_kept_until_fit_and_the_names_then_marks_when_zoomed_out(
    page: Page, live_server: str
) -> None:
    run(page, MLP, live_server)
    fitted = scale(page)
    assert fitted < 11 / 12  # an MLP does not fit with every row readable: its nodes show their op names
    expect(page.locator("[data-testid=graph] svg")).to_have_class(re.compile(r"\bz-names\b"))
    names = page.locator("[data-testid=graph] .name").evaluate_all("els => els.map((e) => e.textContent)")
    assert "addmm" in names and "relu" in names, names
    shot(page, "graph-view-mlp-names")
    # zoom in: every row again, from 11 px up
    for _ in range(12):
        page.get_by_role("button", name="Zoom in").click()
        if scale(page) >= 11 / 12:
            break
    expect(page.locator("[data-testid=graph] svg")).to_have_class(re.compile(r"\bz-full\b"))
    assert page.evaluate(SMALL_TEXT)["small"] == []
    zoomed = scale(page)
    expect(page.get_by_test_id("minimap")).to_be_visible()  # part of the graph is out of view
    shot(page, "graph-view-mlp-zoomed-in-minimap")
    # stepping keeps the learner's zoom (it may pan to keep the current node in view)
    page.locator("body").click(position={"x": 5, "y": 5})
    for key in ("ArrowLeft", "ArrowLeft", "PageUp"):
        page.keyboard.press(key)
        page.wait_for_function(f"({CURRENT})() !== 'out'", timeout=5_000)
        assert scale(page) == pytest.approx(zoomed)
    # just past the names level: coloured marks, each module's label in the middle of its frame where it fits
    for _ in range(20):
        page.get_by_role("button", name="Zoom out").click()
        if scale(page) < 0.12:
            break
    labels = page.locator("[data-testid=graph] .cluster-label.inside").evaluate_all(
        "els => els.map((e) => e.textContent)"
    )
    assert len(labels) == 5 and {"model.0", "model.2", "model.4"} <= set(labels), labels
    assert page.evaluate(SMALL_TEXT)["small"] == []
    shot_panel(page, "graph", "graph-view-mlp-marks-modules")
    # zoomed far out: coloured marks, still no text under 11 px
    for _ in range(14):
        page.get_by_role("button", name="Zoom out").click()
    assert scale(page) < fitted
    assert page.evaluate(SMALL_TEXT)["small"] == []
    shot(page, "graph-view-mlp-marks")
    # Fit frames the whole graph again
    page.get_by_role("button", name="Fit graph").click()
    assert scale(page) == pytest.approx(fitted, rel=0.02)
    assert page.evaluate(OUTSIDE, BOXES) == []


def test_the_minimap_shows_where_the_view_is_and_moves_it(page: Page, live_server: str) -> None:
    run(page, MLP, live_server)
    minimap = page.get_by_test_id("minimap")
    expect(minimap).to_be_hidden()
    for _ in range(6):
        page.get_by_role("button", name="Zoom in").click()
    expect(minimap).to_be_visible()
    before = page.locator("[data-testid=graph] .viewport").get_attribute("transform")
    box = minimap.bounding_box()
    assert box
    page.mouse.click(box["x"] + 8, box["y"] + box["height"] / 2)  # the left end: the inputs
    after = page.locator("[data-testid=graph] .viewport").get_attribute("transform")
    assert after != before
    assert scale(page) == pytest.approx(float(re.search(r"scale\(([\d.e-]+)\)", before or "").group(1)))  # type: ignore[union-attr]


def test_the_step_panel_explains_powbackward_with_x_and_2_beside_the_graph(page: Page, live_server: str) -> None:
    run(page, PROGRAMS["scalar_backward"], live_server)
    step = page.get_by_test_id("step")
    step_until(page, "PowBackward0: grad_output")
    chain = step.locator(".chain-rule")
    expect(chain).to_contain_text("grad_x = grad_out · 2·x = [1., 1., 1.] · 2·[1., 2., 3.] = [2., 4., 6.]")
    expect(page.locator('[data-testid=graph] [data-current="true"]')).to_contain_text("PowBackward0")
    # hovering a number shows it in full
    num = chain.locator(".num", has_text="[1., 2., 3.]")
    expect(num).to_have_attribute("title", "[1, 2, 3]")
    # beside the graph, never over it
    g = page.get_by_test_id("graph").bounding_box()
    s = step.bounding_box()
    assert g and s and s["y"] >= g["y"] + g["height"], (g, s)
    shot(page, "graph-view-step-panel-pow")


def test_the_neurons_tanh_step_writes_its_formula_with_the_values(page: Page, live_server: str) -> None:
    run(page, NEURON, live_server)
    step = page.get_by_test_id("step")
    step_until(page, "TanhBackward0: grad_output")
    # 0-d tensors: the scalar arithmetic, with the formula the engine declares
    expect(step.locator(".chain-rule")).to_contain_text(
        re.compile(r"grad_n = grad_out · \(1 − o²\) = 1 · \(1 − 0\.7071²\) = 0\.5(000)?$")
    )
    assert page.evaluate(SMALL_TEXT)["small"] == []
    shot(page, "graph-view-neuron-tanh")


def test_nodes_made_inside_a_module_call_are_framed_as_its_cluster(page: Page, live_server: str) -> None:
    run(page, MLP, live_server)
    for path, kind in (("model.0", "Linear"), ("model.2", "Linear"), ("model.4", "Linear")):
        cluster = page.locator(f'[data-testid=graph] [data-module="{path}"]')
        expect(cluster).to_have_count(1)
        expect(cluster).to_contain_text(f"{path} · {kind}")
    # the cluster frames its addmm, t and parameters, and nothing from outside it (the loss's pow)
    frame = page.locator('[data-module="model.4"] > rect').bounding_box()
    weight = page.locator("[data-testid=graph] [data-node-id]", has_text="model.4.weight").locator(":scope > rect.box")
    pow_ = page.locator("[data-testid=graph] [data-node-id]", has_text="PowBackward0").locator(":scope > rect.box")
    w, p = weight.bounding_box(), pow_.bounding_box()
    assert frame and w and p
    assert frame["x"] <= w["x"] and w["x"] + w["width"] <= frame["x"] + frame["width"] + 0.5, (frame, w)
    assert p["x"] >= frame["x"] + frame["width"] or p["y"] >= frame["y"] + frame["height"], (frame, p)
    assert page.evaluate(SMALL_TEXT)["small"] == []
    assert page.evaluate(CLUSTER_OVERLAPS) == []
    shot(page, "graph-view-mlp-modules")


def test_a_module_cluster_collapses_to_one_box_and_expands_again(page: Page, live_server: str) -> None:
    run(page, MLP, live_server)
    weight = page.locator("[data-testid=graph] [data-node-id]", has_text="model.2.weight")
    expect(weight).to_have_count(1)
    drawn = page.locator("[data-testid=graph] [data-node-id]").count()
    page.locator('[data-testid=graph] [data-module="model.2"] > .cluster-label').click()
    box = page.locator('[data-testid=graph] [data-module="model.2"].collapsed')
    expect(box).to_have_count(1)
    expect(weight).to_have_count(0)  # its parameters and grad_fns are inside the box now
    assert page.locator("[data-testid=graph] [data-node-id]").count() == drawn - 4
    # the edges that crossed its frame end at the box: the relu before it and the relu after it
    assert page.evaluate(OUTSIDE, '[data-testid=graph] [data-module="model.2"].collapsed') == []
    assert page.evaluate(SMALL_TEXT)["small"] == []
    assert page.evaluate(CLUSTER_OVERLAPS) == []  # model.3's label clear of model.4's frame above it
    shot_panel(page, "graph", "graph-module-collapsed")
    # stepping keeps it collapsed; a click on the box expands it
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")
    expect(box).to_have_count(1)
    box.click()
    expect(weight).to_have_count(1)
    expect(page.locator('[data-testid=graph] [data-module="model.2"].collapsed')).to_have_count(0)
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(CLUSTER_OVERLAPS) == []

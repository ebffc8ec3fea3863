"""Issue 12, points 5 and 8 in a real browser: jumps to the previous/next backward(), optimizer.step() and .grad
change (buttons and PageUp/PageDown), playback paced to the program's length, the loss curve (clickable, log ticks,
the real value in its caption), the editor (Tab indents by 4 spaces, Escape then Tab leaves it, dark theme) and the
phone-width page (the graph first after Run). Screenshots: test-artifacts/time-page-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import code_url, shot
from tests.browser.programs import LOOP_500, MLP


def run(page: Page, code: str, live_server: str) -> None:
    page.goto(code_url(live_server, code))
    page.get_by_test_id("run").click()
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events?"), timeout=30_000)


def counter(page: Page) -> int:
    text = page.get_by_test_id("timeline").locator(".counter").inner_text()
    return int(re.match(r"step (\d+) /", text).group(1))  # type: ignore[union-attr]


def test_jumps_to_backward_optimizer_step_and_grad_changes(page: Page, live_server: str) -> None:
    run(page, MLP, live_server)
    what = page.get_by_test_id("timeline").locator(".what")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")
    expect(what).to_contain_text("loss.backward(gradient=1.) starts the backward pass")
    first = counter(page)
    page.keyboard.press("PageDown")
    # the next backward's text reads like the first's: wait for the step to move before comparing
    expect(page.get_by_test_id("timeline").locator(".counter")).not_to_have_text(re.compile(rf"^step {first} /"))
    expect(what).to_contain_text("starts the backward pass")
    assert counter(page) > first
    page.keyboard.press("PageUp")
    expect(page.get_by_test_id("timeline").locator(".counter")).to_have_text(re.compile(rf"^step {first} /"))
    page.get_by_role("button", name="Next optimizer.step()").click()
    expect(what).to_contain_text("parameter update (an optimizer step)")
    at_step = counter(page)
    page.get_by_role("button", name="Next .grad change").click()
    expect(what).to_contain_text(re.compile(r"\.grad = (None|.*\+)"))
    assert counter(page) > at_step
    page.get_by_role("button", name="Previous optimizer.step()").click()
    expect(page.get_by_test_id("timeline").locator(".counter")).to_have_text(re.compile(rf"^step {at_step} /"))
    page.keyboard.press("Home")
    expect(page.get_by_role("button", name="Previous backward() (PageUp)")).to_be_disabled()
    shot(page, "time-page-jumps")


def test_loop_iterations_are_numbered_counting_the_folded_ones_and_one_click_apart(
    page: Page, live_server: str
) -> None:
    run(page, MLP, live_server)  # 20 steps: iterations 0-2 and 19 traced in full, 3-18 folded
    note = page.locator(".graph-note")
    expect(note).to_have_text(re.compile(r"^Iteration 20 of 20: .*\(index 19\)\.$"))
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.get_by_role("button", name="Next iteration").click()
    # it lands on the iteration's first grad_fn, where its graph is drawn
    expect(page.get_by_test_id("timeline").locator(".what")).to_contain_text("grad_fn=<TBackward0>")
    expect(note).to_have_text(re.compile(r"^Iteration 1 of 20: "))
    for want in (2, 3, 20):
        page.get_by_role("button", name="Next iteration").click()
        expect(note).to_have_text(re.compile(rf"^Iteration {want} of 20: "))
    expect(page.get_by_role("button", name="Next iteration")).to_be_disabled()
    page.get_by_role("button", name="Previous iteration").click()
    expect(note).to_have_text(re.compile(r"^Iteration 3 of 20: "))
    # the backward() of a folded iteration: said so, and the last graph traced before it is shown
    page.get_by_role("button", name="Next backward() (PageDown)").click()
    expect(note).to_have_text(re.compile(r"^Iteration 3 of 20: "))  # iteration 3's own backward()
    page.get_by_role("button", name="Next backward() (PageDown)").click()
    expect(note).to_have_text(
        re.compile(r"^Iteration 4 of 20: folded, its graph is not in the trace; showing iteration 3's \(index 2\)")
    )
    shot(page, "time-page-folded-iteration")


def test_playback_is_paced_to_the_programs_length(page: Page, live_server: str) -> None:
    run(page, LOOP_500, live_server)
    n = int(page.locator("input.slider").get_attribute("max") or "0")
    assert n > 1000  # 500 iterations (most of them folded: their ledger events only)
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.keyboard.press(" ")
    page.wait_for_timeout(2000)
    page.keyboard.press(" ")
    # at 1× the whole run takes about 20 s: after 2 s, hundreds of steps (one step per 0.7 s would be 3)
    assert counter(page) >= 100, counter(page)


def test_the_loss_curve_moves_the_timeline_and_writes_tiny_losses_in_full(page: Page, live_server: str) -> None:
    run(page, LOOP_500, live_server)
    caption = page.locator("#loss-caption")
    # the loss falls to 9.0949e-13: PyTorch's scientific notation, never "loss 0"
    expect(caption).to_contain_text("loss 9.0949e-13")
    # a log axis over 13 powers of ten: a few short labels, each a power of ten, none written over another
    chart = page.locator("#loss-chart")
    expect(chart).to_have_attribute("data-ticks", re.compile(r"^1e-\d+ "))
    ticks = (chart.get_attribute("data-ticks") or "").split()
    assert 3 <= len(ticks) <= 8 and len(set(ticks)) == len(ticks), ticks
    assert all(re.fullmatch(r"1e-?\d+|0\.0*1|10*", t) for t in ticks), ticks
    expect(page.locator("#h-loss")).to_be_visible()
    over = page.locator("#loss-chart .u-over")
    over.scroll_into_view_if_needed()
    box = over.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] * 0.1, box["y"] + box["height"] / 2)
    expect(caption).to_contain_text(re.compile(r"backward #\d+: loss .*\(click: go there\)"))
    page.mouse.click(box["x"] + box["width"] * 0.1, box["y"] + box["height"] / 2)
    what = page.get_by_test_id("timeline").locator(".what")
    # the backward() of that point (a folded iteration's root is not named: its tensor event was left out)
    expect(what).to_contain_text(re.compile(r"(loss|a tensor)\.backward\(gradient=1\.\) starts the backward pass"))
    k = counter(page)
    n = int(page.locator("input.slider").get_attribute("max") or "0")
    assert 0 < k < n * 0.3, (k, n)  # a point near the start of the curve: a backward() near the start
    shot(page, "time-page-loss-click")


def test_tab_indents_by_four_spaces_and_escape_then_tab_leaves_the_editor(page: Page, live_server: str) -> None:
    page.goto(code_url(live_server, "for i in range(3):\n"))
    content = page.get_by_test_id("editor").locator(".cm-content")
    content.click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")
    text = page.evaluate("() => document.querySelector('.cm-content').innerText")
    assert text.endswith("\n    "), repr(text)  # one indent unit: 4 spaces, as the lessons use
    page.keyboard.type("print(i)")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # Tab stays in the editor: it indents
    assert page.evaluate("() => document.activeElement.closest('.cm-editor') !== null")
    text = page.evaluate("() => document.querySelector('.cm-content').innerText")
    assert "\n    print(i)\n        " in text, repr(text)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # Escape then Tab: focus moves on, out of the editor
    assert page.evaluate("() => document.activeElement.closest('.cm-editor') === null")


def test_dark_mode_themes_the_editor(browser: Browser, live_server: str, problems) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    try:
        page = context.new_page()
        page.on("console", problems.console)
        page.on("pageerror", problems.page_error)
        run(page, MLP, live_server)
        bg = page.evaluate("getComputedStyle(document.querySelector('.cm-editor')).backgroundColor")
        assert sum(int(c) for c in re.findall(r"\d+", bg)[:3]) < 150, bg
        ink = page.evaluate("getComputedStyle(document.querySelector('.cm-line')).color")
        assert sum(int(c) for c in re.findall(r"\d+", ink)[:3]) > 450, ink
        shot(page, "time-page-dark-editor")
    finally:
        context.close()
    assert not problems.items, problems.items


def test_at_phone_width_the_graph_comes_first_after_run(browser: Browser, live_server: str, problems) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        page = context.new_page()
        page.on("console", problems.console)
        page.on("pageerror", problems.page_error)
        run(page, MLP, live_server)
        expect(page.locator("[data-testid=graph] [data-node-id]").first).to_be_attached()
        box = page.get_by_test_id("graph").bounding_box()
        assert box and 0 <= box["y"] < 740 * 0.5, box  # the graph is on screen, near the top
        shot(page, "time-page-phone")
    finally:
        context.close()
    assert not problems.items, problems.items

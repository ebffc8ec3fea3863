"""Course pages in a real browser: a static page on another origin with three Markdown-style ``language-gradtrace``
blocks, one ``<gradtrace-playground>`` and one iframe; everything runs and prints what PyTorch prints.

The page is served from a second local port, so every request to the gradtrace server is cross-origin (the module
script, its hashed assets and the runs need CORS, on by default). Screenshots: test-artifacts/.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.course_site import static_site
from tests.browser.helpers import AXE, lesson, shot
from tests.oracle import torch_stdout

BLOCKS = ["scalar_backward", "accumulation", "gradient_accumulation"]
SEEDED = "import torch\ntorch.manual_seed(0)\nw = torch.randn(3, requires_grad=True)\n(w * w).sum().backward()\nprint(w.grad)\n"
WIDGETS = "gradtrace-playground"


def b64(code: str) -> str:
    return base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")


def course_html(server: str) -> str:
    blocks = "\n".join(
        f'<h2>{name}</h2>\n<pre><code class="language-gradtrace">{html.escape(lesson(name))}</code></pre>'
        for name in BLOCKS
    )
    frame = f"{server}/embed#code={b64(lesson('accumulation'))}"
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,">
<script type="module" src="{server}/embed.js"></script>
<script src="follow.js"></script></head>
<body><main><h1>Backward and .grad</h1>
{blocks}
<h2>A custom element</h2>
<gradtrace-playground data-autorun data-hide="timeline">{html.escape(SEEDED)}</gradtrace-playground>
<h2>An iframe</h2>
<iframe id="frame" src="{frame}" title="gradtrace: autograd playground" width="100%" height="200"></iframe>
</main></body></html>"""


FOLLOW = """window.heights = [];
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'gradtrace:height') {
    window.heights.push(e.data.height);
    document.getElementById('frame').height = e.data.height;
  }
});"""


@pytest.fixture()
def course_site(live_server: str, tmp_path: Path) -> Iterator[str]:
    (tmp_path / "index.html").write_text(course_html(live_server), encoding="utf-8")
    (tmp_path / "follow.js").write_text(FOLLOW, encoding="utf-8")
    (tmp_path / "axe.js").write_bytes(AXE.read_bytes())
    with static_site(tmp_path) as url:
        yield url


def widget(page: Page, i: int):
    return page.locator(WIDGETS).nth(i)


def test_course_page_on_another_origin_runs_every_form(page: Page, live_server: str, course_site: str) -> None:
    assert course_site.split(":")[-1] != live_server.split(":")[-1]  # another origin
    page.goto(f"{course_site}/index.html")
    expect(page.locator(WIDGETS)).to_have_count(4)  # three blocks upgraded, one element
    expect(page.locator("pre > code.language-gradtrace")).to_have_count(0)

    for i, name in enumerate(BLOCKS):
        w = widget(page, i)
        w.scroll_into_view_if_needed()
        w.get_by_test_id("run").click()
        want = torch_stdout(lesson(name)) if name != "gradient_accumulation" else None
        if want is not None:
            expect(w.get_by_test_id("stdout")).to_have_text(want, timeout=30_000)
        else:
            expect(w.get_by_test_id("run-status-done")).to_have_count(0)
            expect(w.locator("#run-status")).to_have_text(re.compile(r"^\d+ events"), timeout=30_000)
        expect(w.get_by_test_id("error")).to_be_hidden()
        expect(w.locator('[data-testid="graph"] svg [data-node-id]').first).to_be_visible()

    element = widget(page, 3)
    element.scroll_into_view_if_needed()
    expect(element.get_by_test_id("stdout")).to_have_text(torch_stdout(SEEDED), timeout=30_000)  # data-autorun
    expect(element.locator(".timeline-panel")).to_be_hidden()  # data-hide="timeline"
    expect(element.get_by_test_id("ledger")).to_contain_text("w")

    frame = page.frame_locator("#frame")
    page.locator("#frame").scroll_into_view_if_needed()
    expect(frame.get_by_test_id("stdout")).to_have_text(torch_stdout(lesson("accumulation")), timeout=30_000)
    expect(frame.get_by_test_id("editor")).to_be_visible()  # the iframe form shows the code by default
    page.wait_for_function("window.heights.length > 0 && window.heights.at(-1) > 400")
    assert int(page.locator("#frame").get_attribute("height") or 0) > 400  # it followed the reported height

    shot(page, "course-page-cross-origin")
    page.add_script_tag(url=f"{course_site}/axe.js")
    violations = page.evaluate(
        """async () => (await axe.run({include: [['gradtrace-playground']]})).violations
             .filter((v) => v.impact === 'serious' || v.impact === 'critical')
             .map((v) => `${v.id} (${v.impact}): ${v.help} ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`)"""
    )
    assert violations == []


def test_the_seed_course_page_runs_its_three_blocks(page: Page, live_server: str) -> None:
    from server.course import COURSE_DIR, course_page

    blocks = course_page((COURSE_DIR / "backward-and-grad.txt").read_text(encoding="utf-8")).blocks
    page.goto(f"{live_server}/course/backward-and-grad")
    widgets = page.locator(WIDGETS)
    expect(widgets).to_have_count(3)
    for i, code in enumerate(blocks):
        w = widgets.nth(i)
        w.scroll_into_view_if_needed()  # data-autorun: each runs once it is in view
        expect(w.locator("#run-status")).to_have_text(re.compile(r"^\d+ events"), timeout=30_000)
        expect(w.get_by_test_id("stdout")).to_have_text(torch_stdout(code, seed=0))  # data-seed="0"
        expect(w.get_by_test_id("error")).to_be_hidden()
    w = widgets.nth(0)
    w.scroll_into_view_if_needed()
    w.screenshot(path=str(shot(page, "course-seed-page").with_name("course-seed-widget.png")))


def test_widgets_start_lazily_follow_the_page_theme_and_work_from_the_keyboard(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    code = html.escape(lesson("scalar_backward"))
    (tmp_path / "index.html").write_text(
        f"""<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8"><title>lazy</title>
<link rel="icon" href="data:,"><script type="module" src="{live_server}/embed.js"></script></head><body><main>
<gradtrace-playground id="near" data-readonly>{code}</gradtrace-playground>
<div style="height: 4000px"></div>
<gradtrace-playground id="far" data-autorun>{code}</gradtrace-playground></main></body></html>""",
        encoding="utf-8",
    )
    runs: list[str] = []
    page.on("request", lambda r: runs.append(r.url) if "/api/run" in r.url else None)
    with static_site(tmp_path) as site:
        page.goto(f"{site}/index.html")
        near = page.locator("#near")
        expect(near.get_by_test_id("editor")).to_be_visible()  # in view: started (not run: no data-autorun)
        assert page.evaluate("document.querySelector('#far').started") is False  # far below: not started
        assert runs == []
        assert near.get_attribute("data-theme") == "dark"  # from <html data-theme>
        bg = near.locator(".panel").first.evaluate("(el) => getComputedStyle(el).backgroundColor")
        assert bg == "rgb(23, 28, 35)", bg  # the dark theme's panel colour

        # keyboard only: Tab into the read-only editor, Ctrl+Enter runs; typing changes nothing
        near.get_by_test_id("editor").locator(".cm-content").focus()
        page.keyboard.type("zzz")
        page.keyboard.press("Control+Enter")
        expect(near.get_by_test_id("stdout")).to_have_text(torch_stdout(lesson("scalar_backward")), timeout=30_000)
        assert "zzz" not in near.get_by_test_id("editor").inner_text()
        page.keyboard.press("Home")  # the timeline's keys work inside the widget (outside the editor: Tab out)
        near.get_by_test_id("run").focus()
        page.keyboard.press("Home")
        expect(near.get_by_test_id("timeline")).to_contain_text("step 0 /")

        far = page.locator("#far")
        far.scroll_into_view_if_needed()
        expect(far.get_by_test_id("stdout")).to_have_text(torch_stdout(lesson("scalar_backward")), timeout=30_000)
        assert len([u for u in runs if u.endswith("/api/run/stream")]) == 2

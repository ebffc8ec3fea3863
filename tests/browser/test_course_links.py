"""Links that carry the whole state (seed, step, hide, autorun), the playground replaying a trace file, edits that
survive a reload and an example, and /docs with every CDN blocked."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from server.record import record
from tests.browser.helpers import b64url, lesson, shot
from tests.oracle import torch_stdout

RANDOM = "import torch\nw = torch.randn(4, requires_grad=True)\n(w ** 2).sum().backward()\nprint(w)\nprint(w.grad)\n"


def test_a_link_with_seed_gives_the_same_numbers_in_two_fresh_browsers(browser: Browser, live_server: str) -> None:
    url = f"{live_server}/#seed=1234&autorun=1&code={b64url(RANDOM)}"
    seen = []
    for _ in range(2):
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(url)  # autorun=1: it runs on open
            stdout = page.get_by_test_id("stdout")
            expect(stdout).to_have_text(re.compile(r"grad_fn|requires_grad"), timeout=30_000)
            seen.append(stdout.inner_text())
        finally:
            context.close()
    assert seen[0] == seen[1] == torch_stdout(RANDOM, seed=1234)


def test_a_link_opens_on_its_step_with_its_panels_hidden(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/#step=3&hide=graph,timeline&autorun=1&code={b64url(lesson('accumulation'))}")
    expect(page.locator("#run-status")).to_have_text(re.compile(r"^\d+ events"), timeout=30_000)
    expect(page.locator(".graph-panel")).to_be_hidden()
    expect(page.locator(".timeline-panel")).to_be_hidden()
    expect(page.locator(".editor-panel")).to_be_visible()
    # step 3 of the run: nothing printed yet (the first print comes after the first backward)
    expect(page.get_by_test_id("stdout")).to_have_text("")
    assert re.search(r"step 3 / \d+", page.get_by_test_id("timeline").text_content() or "")
    page.keyboard.press("End")
    expect(page.get_by_test_id("stdout")).to_have_text(torch_stdout(lesson("accumulation")))


def test_the_playground_opens_a_recorded_trace_and_replays_it(page: Page, live_server: str, tmp_path: Path) -> None:
    code = lesson("accumulation")
    trace = record(code)
    path = tmp_path / "lesson2.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    page.route("**/api/run/stream", lambda route: route.abort())  # no run: the file alone
    page.goto(f"{live_server}/")
    page.locator('#open-trace input[type="file"]').set_input_files(str(path))
    expect(page.get_by_test_id("notice")).to_contain_text("Replaying lesson2.json")
    expect(page.get_by_test_id("stdout")).to_have_text(torch_stdout(code))
    expect(page.get_by_test_id("ledger").locator(".ledger-entry .after")).to_have_text(["4.", "16.", "None", "12."])
    assert "(x ** 3).backward()" in page.get_by_test_id("editor").locator(".cm-content").inner_text()
    shot(page, "playground-opened-trace")


def test_edits_survive_a_reload_and_stay_one_click_from_an_example(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    expect(page.locator("#examples option")).not_to_have_count(1)
    content = page.get_by_test_id("editor").locator(".cm-content")
    content.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("print('my edit')\n")
    page.reload()
    expect(content).to_contain_text("print('my edit')")
    page.locator("#examples").select_option("accumulation")
    expect(content).to_contain_text("(x ** 3).backward()")
    expect(page.get_by_test_id("notice")).to_contain_text("Your edited code is kept")
    page.locator("#examples").select_option("__edit")
    expect(content).to_contain_text("print('my edit')")


def test_docs_render_with_every_cdn_blocked(page: Page, live_server: str) -> None:
    outside: list[str] = []

    def block(route) -> None:
        outside.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), block)
    page.goto(f"{live_server}/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("gradtrace", timeout=20_000)
    expect(page.locator(".opblock-summary-path").filter(has_text="/api/run/stream")).to_be_visible()
    assert outside == []
    shot(page, "docs-offline")


def test_the_playground_links_to_help_docs_and_the_course_page(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    nav = page.get_by_role("navigation", name="Help")
    for name, path in [("Help", "help.html"), ("API docs", "docs"), ("Course page", "course/backward-and-grad")]:
        expect(nav.get_by_role("link", name=name)).to_have_attribute("href", f"./{path}")
    nav.get_by_role("link", name="Supported subset").click()
    expect(page.locator("#supported")).to_be_visible()


# Drops a file with this text on the page, as a learner dragging it from their desktop would.
DROP = """([name, text]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([text], name, { type: 'application/json' }));
  for (const type of ['dragenter', 'dragover', 'drop'])
    document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
}"""


def test_the_trace_json_export_loads_back_by_drag_and_drop(page: Page, live_server: str) -> None:
    code = lesson("accumulation")
    page.goto(f"{live_server}/#code={b64url(code)}")
    page.get_by_test_id("run").click()
    entries = page.get_by_test_id("ledger").locator(".ledger-entry .after")
    expect(entries).to_have_text(["4.", "16.", "None", "12."], timeout=30_000)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download Trace JSON").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    # a fresh page that cannot run anything: the dropped file alone
    page.route("**/api/run/stream", lambda route: route.abort())
    page.route("**/api/run", lambda route: route.abort())
    page.goto(f"{live_server}/")
    page.evaluate(DROP, ["exported.json", exported])
    expect(page.get_by_test_id("notice")).to_contain_text("Replaying exported.json")
    expect(page.get_by_test_id("stdout")).to_have_text(torch_stdout(code))
    expect(entries).to_have_text(["4.", "16.", "None", "12."])
    assert "(x ** 3).backward()" in page.get_by_test_id("editor").locator(".cm-content").inner_text()
    shot(page, "playground-dropped-trace")

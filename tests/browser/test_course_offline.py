"""Recorded traces with no server: a course site that hosts the widget's files itself (copied from frontend/dist)
and points its widgets at a gradtrace server (``data-server``). While the server is up, a live widget runs; once it
is stopped, a widget with a trace recorded by ``gradtrace record`` replays it to the end with the same ledger and
stdout, a live one says the server is unreachable, and a live one with a trace falls back to it."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ROOT, PageProblems
from tests.browser.course_site import static_site
from tests.browser.helpers import ARTIFACTS, lesson
from tests.conftest import running_server
from tests.oracle import torch_stdout

DIST = ROOT / "frontend" / "dist"
CODE = lesson("accumulation")


def gradtrace_script() -> str:
    """The ``gradtrace`` console script that ``pip install -e .`` (make setup) put beside this Python."""
    script = Path(sys.executable).parent / "gradtrace"
    assert script.exists(), f"no console script at {script}: install the package (make setup, pip install -e .)"
    return str(script)


def record_cli(code: str, folder: Path) -> dict:
    """``gradtrace record code.py -o trace.json``: the package's console script, as a course author runs it (this
    checkout's code first on its path, so a worktree records with its own server package)."""
    (folder / "code.py").write_text(code, encoding="utf-8")
    subprocess.run(
        [gradtrace_script(), "record", "code.py", "-o", "trace.json"],
        cwd=folder,
        check=True,
        capture_output=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    return json.loads((folder / "trace.json").read_text(encoding="utf-8"))


def course_page(server: str, trace: dict) -> str:
    code = html.escape(CODE)
    inline = json.dumps(trace).replace("</", "<\\/")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>offline</title>
<link rel="icon" href="data:,"><script type="module" src="embed.js"></script></head><body><main>
<h2>recorded</h2><gradtrace-playground id="recorded" data-server="{server}" data-trace-src="trace.json">{code}</gradtrace-playground>
<h2>live</h2><gradtrace-playground id="live" data-server="{server}" data-autorun>{code}</gradtrace-playground>
<h2>live with a recording</h2><gradtrace-playground id="fallback" data-server="{server}" data-autorun>{code}
<script type="application/json">{inline}</script></gradtrace-playground>
</main></body></html>"""


def ledger(page: Page, widget: str) -> list[str]:
    entries = page.locator(f"#{widget}").get_by_test_id("ledger").locator(".ledger-entry .after")
    expect(entries.first).to_be_visible(timeout=30_000)
    return entries.all_inner_texts()


def test_recorded_traces_replay_with_the_server_stopped(browser: Browser, tmp_path: Path) -> None:
    trace = record_cli(CODE, tmp_path)
    assert trace["stdout"] == torch_stdout(CODE) and trace["error"] is None and trace["events"]
    shutil.copy(DIST / "embed.js", tmp_path / "embed.js")
    shutil.copytree(DIST / "assets", tmp_path / "assets")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    problems = PageProblems()
    page = context.new_page()
    page.on("console", problems.console)
    page.on("pageerror", problems.page_error)
    page.set_default_timeout(30_000)
    try:
        with static_site(tmp_path) as site:
            with running_server() as server:
                (tmp_path / "index.html").write_text(course_page(server, trace), encoding="utf-8")
                page.goto(f"{site}/index.html")
                live = page.locator("#live")
                live.scroll_into_view_if_needed()
                expect(live.get_by_test_id("stdout")).to_have_text(torch_stdout(CODE))
                live_ledger = ledger(page, "live")
                assert live_ledger == ["4.", "16.", "None", "12."]
            # the server is stopped now
            page.reload()
            recorded = page.locator("#recorded")
            recorded.scroll_into_view_if_needed()
            expect(recorded.get_by_test_id("stdout")).to_have_text(trace["stdout"])
            assert ledger(page, "recorded") == live_ledger  # the recording replays to the live run's ledger
            expect(recorded.get_by_test_id("timeline")).to_contain_text(f"step {len(trace['events'])} /")
            expect(recorded.get_by_test_id("notice")).to_contain_text("recorded run")

            live = page.locator("#live")
            live.scroll_into_view_if_needed()
            expect(live.get_by_test_id("error")).to_contain_text("can't be reached")
            expect(live.get_by_test_id("stdout")).to_have_text("")

            fallback = page.locator("#fallback")
            fallback.scroll_into_view_if_needed()
            expect(fallback.get_by_test_id("notice")).to_contain_text("can't be reached")
            expect(fallback.get_by_test_id("notice")).to_contain_text("Showing the run recorded with this page")
            expect(fallback.get_by_test_id("stdout")).to_have_text(trace["stdout"])
            assert ledger(page, "fallback") == live_ledger
            expect(fallback.get_by_test_id("error")).to_be_hidden()
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "course-offline.png"), full_page=True)
    finally:
        context.close()
    # the only errors: the browser's own notes of the refused connections to the stopped server
    unexpected = [p for p in problems.items if "ERR_CONNECTION_REFUSED" not in p]
    assert unexpected == [], unexpected

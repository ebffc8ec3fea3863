"""Helpers for the browser tests: URLs carrying code, screenshots, fixture traces served as SSE."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LESSONS = ROOT / "server" / "lessons"
FIXTURES = ROOT / "frontend" / "test" / "fixtures"


def lesson(lesson_id: str) -> str:
    return (LESSONS / f"{lesson_id}.py").read_text(encoding="utf-8")


def code_url(base: str, code: str) -> str:
    """``/#code=<base64url of UTF-8 code>``, the playground's contract."""
    b64 = base64.urlsafe_b64encode(code.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{base}/#code={b64}"


def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot to test-artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def shot_panel(page: Page, testid: str, name: str) -> Path:
    """Save a screenshot of one panel (its ``data-testid``) at full resolution to test-artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.get_by_test_id(testid).screenshot(path=str(path))
    return path


def fixture_trace(name: str) -> dict[str, Any]:
    """A hand-written trace (frontend/test/fixtures/<name>.json): stdout, error, seed, events."""
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def serve_trace(page: Page, trace: dict[str, Any]) -> None:
    """Answer the page's runs with ``trace`` (as the SSE stream of the HTTP contract), whatever the code."""

    def sse(route: Route) -> None:
        parts = [f"event: trace\ndata: {json.dumps(e)}\n\n" for e in trace["events"]]
        done = {"stdout": trace["stdout"], "error": trace["error"], "seed": trace["seed"]}
        parts.append(f"event: done\ndata: {json.dumps(done)}\n\n")
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body="".join(parts))

    page.route("**/api/run/stream", sse)


def serve_batch_only(page: Page, trace: dict[str, Any]) -> list[str]:
    """A server without streaming: /api/run/stream answers plain JSON, /api/run the whole trace.

    Returns the list of paths the page posted to, in order.
    """
    calls: list[str] = []

    def not_a_stream(route: Route) -> None:
        calls.append("/api/run/stream")
        route.fulfill(status=200, headers={"Content-Type": "application/json"}, body="{}")

    def batch(route: Route) -> None:
        calls.append("/api/run")
        route.fulfill(status=200, headers={"Content-Type": "application/json"}, body=json.dumps(trace))

    page.route("**/api/run/stream", not_a_stream)
    page.route("**/api/run", batch)
    return calls


STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-{nonce}'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)


def serve_with_strict_csp(page: Page, nonce: str = "gradtrace-test-nonce") -> None:
    """Serve the playground's HTML under a strict CSP (no inline scripts or eval; inline <style> only with the
    response's nonce, which the page reads from <meta name="csp-nonce">) — what the server is to send later."""

    def document(route: Route) -> None:
        response = route.fetch()
        body = response.text().replace("<head>", f'<head><meta name="csp-nonce" content="{nonce}">', 1)
        headers = {**response.headers, "content-security-policy": STRICT_CSP.format(nonce=nonce)}
        route.fulfill(response=response, body=body, headers=headers)

    page.route(lambda url: url.split("#")[0].endswith(("/", "/index.html")), document)


AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe-core (from npm, injected into the page) and return the violations of the given impacts.

    The page runs under the server's CSP (script-src 'self'), so axe is served from the page's own origin.
    """
    origin = re.match(r"^https?://[^/]+", page.url).group(0)  # type: ignore[union-attr]
    page.route(f"{origin}/__axe.js", lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
    page.add_script_tag(url=f"{origin}/__axe.js")
    result = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result
        if v["impact"] in impacts
    ]


def b64url(code: str) -> str:
    """base64url of UTF-8 ``code``, unpadded: the ``code=`` of a link."""
    return base64.urlsafe_b64encode(code.encode("utf-8")).decode("ascii").rstrip("=")

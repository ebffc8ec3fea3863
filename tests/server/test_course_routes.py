"""The course-facing routes: /course/<name>, /embed.js with CORS and cache headers on by default, Swagger UI from
our own files, `gradtrace record`, and one error shape for unknown paths and wrong methods."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx

from server.course import course_page, render
from server.record import record
from tests.oracle import torch_stdout

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "server" / "course_texts" / "backward-and-grad.txt"


def test_the_course_text_becomes_a_page_with_its_three_code_blocks() -> None:
    page = course_page(COURSE.read_text(encoding="utf-8"))
    assert page.title == ".backward() and the .grad Buffer"
    assert len(page.blocks) == 3
    assert (
        page.blocks[0].startswith("import torch\n\nx = torch.tensor([1.0, 2.0, 3.0]")
        and "Comments" not in page.blocks[2]
    )
    assert torch_stdout(page.blocks[1]) == "tensor(4.)\ntensor(16.)\ntensor(12.)\n"  # real code, as written
    headings = [text for kind, _, text in page.parts if kind == "h2"]
    assert "The .grad accumulator" in headings and "Non-scalar outputs" in headings
    html = render(page)
    assert html.count('<code class="language-gradtrace">') == 3 and '<script type="module" src="/embed.js">' in html
    assert "x ** 2).sum()        # collapse" in html and "<script>" not in html


def test_course_page_route(client: httpx.Client) -> None:
    ok = client.get("/course/backward-and-grad")
    assert ok.status_code == 200 and ok.text.count("language-gradtrace") == 3
    for bad in ("/course/nope", "/course/..%2Fsettings"):
        missing = client.get(bad)
        assert missing.status_code == 404 and set(missing.json()) == {"detail"}


def test_embed_js_is_cacheable_and_open_to_any_origin_by_default(client: httpx.Client) -> None:
    script = client.get("/embed.js", headers={"Origin": "https://course.example.edu"})
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert script.headers["access-control-allow-origin"] == "*" and script.headers["cache-control"] == "no-cache"
    assets = re.findall(r"\./assets/[\w.-]+\.js", script.text)
    assert assets, "embed.js loads its panels from hashed assets"
    asset = client.get(assets[0][1:], headers={"Origin": "https://course.example.edu"})
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert asset.headers["access-control-allow-origin"] == "*"
    preflight = client.options(
        "/api/run/stream",
        headers={
            "Origin": "https://x.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == "*"
    # what a widget doesn't need stays same-origin
    for path in ("/", "/api/grad"):
        other = client.get(path, headers={"Origin": "https://course.example.edu"})
        assert "access-control-allow-origin" not in other.headers


def test_docs_come_from_our_own_files(client: httpx.Client) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "cdn" not in page.text.lower()
    for src in re.findall(r'(?:src|href)="\./([^"]+)"', page.text):
        assert client.get(f"/{src}").status_code == 200, src
    assert "cdn.jsdelivr.net" not in page.headers["content-security-policy"]
    assert client.get("/redoc").status_code == 404


def test_unknown_paths_and_wrong_methods_answer_one_error_shape(client: httpx.Client) -> None:
    for method, path, status in [
        ("GET", "/no/such/page", 404),
        ("GET", "/api/nope", 404),
        ("POST", "/api/examples", 405),
        ("GET", "/api/run", 405),
        ("DELETE", "/healthz", 405),
        ("POST", "/course/backward-and-grad", 405),
    ]:
        answer = client.request(method, path)
        assert answer.status_code == status, (method, path, answer.status_code)
        assert answer.headers["content-type"].startswith("application/json"), (method, path)
        assert set(answer.json()) == {"detail"}, (method, path, answer.text)
    refused = client.post("/api/run", json={"code": 1})
    assert refused.status_code == 422 and set(refused.json()) == {"detail"}


def test_gradtrace_record_writes_what_a_live_run_answers(client: httpx.Client, tmp_path: Path) -> None:
    code = "import torch\nw = torch.randn(3, requires_grad=True)\n(w * 2).sum().backward()\nprint(w.grad, w)\n"
    (tmp_path / "lesson.py").write_text(code, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "server.record", "record", "lesson.py", "-o", "t.json", "--seed", "11"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    trace = json.loads((tmp_path / "t.json").read_text(encoding="ascii"))
    live = client.post("/api/run", json={"code": code, "seed": 11}).json()
    assert trace["code"] == code and trace["seed"] == live["seed"] == 11
    assert trace["stdout"] == live["stdout"] == torch_stdout(code, seed=11)
    assert trace["events"] == live["events"]
    assert record(code, seed=11)["events"] == live["events"]


def test_the_package_declares_the_gradtrace_console_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["gradtrace"] == "server.record:main"

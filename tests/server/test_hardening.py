"""The service's outer walls: security headers, CORS, per-client rate limiting, budgets set from the environment,
and the CPU-time limit of a worker."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import running_server, start_server

LESSON_1 = (
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"
)
STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)


@pytest.fixture(scope="module")
def configured_server() -> Iterator[str]:
    """A server with a course site allowed by CORS, a low rate limit and small budgets, all from the environment."""
    proc, url = start_server(
        {
            "GRADTRACE_CORS_ORIGINS": "https://course.example.edu, https://lms.example.edu",
            "GRADTRACE_EMBED_FRAME_ANCESTORS": "https://course.example.edu",
            "GRADTRACE_MAX_STEPS": "5000",
            "GRADTRACE_MAX_OUTPUT_BYTES": "100",
            "GRADTRACE_MAX_TENSOR_ELEMENTS": "1000",
            "GRADTRACE_WORKERS": "2",
        }
    )
    try:
        yield url
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_pages_get_the_strict_policy_and_cannot_be_framed(client: httpx.Client) -> None:
    for path in ("/", "/healthz", "/api/examples"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == STRICT_CSP, path
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
    refused = client.post("/api/run", content=b"x" * 300_000, headers={"content-type": "application/json"})
    assert refused.status_code == 413 and refused.headers["x-content-type-options"] == "nosniff"


def test_embed_may_be_framed_by_default(client: httpx.Client) -> None:
    response = client.get("/embed")
    policy = response.headers["content-security-policy"]
    assert policy.endswith("frame-ancestors *") and "script-src 'self';" in policy
    assert "x-frame-options" not in response.headers
    assert response.headers["x-content-type-options"] == "nosniff"


def test_docs_stay_usable_and_unframeable(client: httpx.Client) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and "swagger-ui" in response.text
    policy = response.headers["content-security-policy"]
    # Swagger UI is ours now (issue 13): no CDN in the policy, no inline script
    assert "cdn.jsdelivr.net" not in policy and "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert client.get("/openapi.json").status_code == 200


def test_embed_framing_is_configurable(configured_server: str) -> None:
    policy = httpx.get(f"{configured_server}/embed", timeout=10).headers["content-security-policy"]
    assert policy.endswith("frame-ancestors https://course.example.edu")


def test_cors_allows_the_configured_course_sites_only(configured_server: str) -> None:
    preflight = {
        "Origin": "https://course.example.edu",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    allowed = httpx.options(f"{configured_server}/api/run", headers=preflight, timeout=10)
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "https://course.example.edu"
    other = httpx.options(
        f"{configured_server}/api/run", headers={**preflight, "Origin": "https://evil.example"}, timeout=10
    )
    assert other.status_code == 400 and "access-control-allow-origin" not in other.headers
    simple = httpx.get(f"{configured_server}/healthz", headers={"Origin": "https://lms.example.edu"}, timeout=10)
    assert simple.headers["access-control-allow-origin"] == "https://lms.example.edu"


def test_cors_for_the_widget_by_default_and_only_for_its_paths(client: httpx.Client) -> None:
    """Issue 13: a course page's widget works from any origin by default (server/cors.py); the rest does not."""
    response = client.get("/healthz", headers={"Origin": "https://course.example.edu"})
    assert response.headers["access-control-allow-origin"] == "*"
    grad = client.post(
        "/api/grad",
        json={"expression": "x.sum()", "inputs": {"x": [1.0]}},
        headers={"Origin": "https://course.example.edu"},
    )
    assert grad.status_code == 200 and "access-control-allow-origin" not in grad.headers


def test_no_cors_headers_when_turned_off() -> None:
    with running_server({"GRADTRACE_CORS_ORIGINS": ""}) as url:
        response = httpx.get(f"{url}/healthz", headers={"Origin": "https://course.example.edu"}, timeout=10)
        assert response.status_code == 200 and "access-control-allow-origin" not in response.headers


def test_budgets_come_from_the_environment(configured_server: str) -> None:
    def run(code: str) -> dict:
        response = httpx.post(f"{configured_server}/api/run", json={"code": code}, timeout=30)
        assert response.status_code == 200, response.text
        return response.json()

    loop = run("i = 0\nwhile True:\n    i += 1")
    assert loop["error"]["type"] == "LimitExceeded" and "5,000 steps (step limit)" in loop["error"]["message"]
    printed = run("for i in range(100):\n    print('hello')")
    assert "100 bytes (output limit)" in printed["error"]["message"] and printed["error"]["line"] == 2
    assert printed["stdout"] == "hello\n" * 16  # the output up to the breach is kept
    big = run("import torch\nx = torch.ones(2000)")
    assert big["error"]["message"] == "a tensor of 2000 elements is over the limit of 1,000 elements per tensor"


def test_rate_limit_answers_429_with_retry_after() -> None:
    env = {"GRADTRACE_RATE_LIMIT": "5/minute", "GRADTRACE_RATE_LIMIT_EXEMPT": "", "GRADTRACE_WORKERS": "1"}
    proc, url = start_server(env)
    try:
        _check_rate_limit(url)
    finally:
        _stop(proc)


def test_loopback_clients_are_not_rate_limited_by_default() -> None:
    with running_server({"GRADTRACE_RATE_LIMIT": "5/minute", "GRADTRACE_WORKERS": "1"}) as url:
        assert [httpx.get(f"{url}/api/examples", timeout=10).status_code for _ in range(8)] == [200] * 8


def _check_rate_limit(url: str) -> None:
    codes = []
    for _ in range(8):
        response = httpx.get(f"{url}/api/examples", timeout=10)
        codes.append(response.status_code)
        if response.status_code == 429:
            assert 1 <= int(response.headers["retry-after"]) <= 60
            assert "too many requests" in response.json()["detail"]
            assert response.headers["x-content-type-options"] == "nosniff"
    assert codes == [200] * 5 + [429] * 3
    assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200  # only /api/* is limited


def test_a_run_over_its_cpu_time_is_stopped_by_the_kernel() -> None:
    proc, url = start_server(
        {
            "GRADTRACE_RUN_CPU_SECONDS": "1",
            "GRADTRACE_MAX_STEPS": "1000000000",
            "GRADTRACE_MAX_SECONDS": "60",
            "GRADTRACE_RUN_DEADLINE_SECONDS": "60",
            "GRADTRACE_WORKERS": "1",
        }
    )
    try:
        code = "print('started')\nwhile True:\n    pass"
        body = httpx.post(f"{url}/api/run", json={"code": code}, timeout=60).json()
        assert body["error"]["type"] == "LimitExceeded" and "(CPU limit)" in body["error"]["message"]
        assert body["stdout"] == "started\n" and body["error"]["line"] in (
            2,
            3,
        )  # the signal stops the run: output kept
        after = httpx.post(f"{url}/api/run", json={"code": LESSON_1}, timeout=30).json()  # a fresh worker serves
        assert after["stdout"] == "tensor([2., 4., 6.])\n" and after["error"] is None
    finally:
        _stop(proc)


def test_a_run_stuck_inside_engine_code_is_stopped_at_its_time_limit() -> None:
    # Strings may be long and steps many here: formatting a million values (~1.7 s; it costs steps and counts as
    # built text) is the slow part.
    env = {
        "GRADTRACE_MAX_SECONDS": "1",
        "GRADTRACE_WORKERS": "1",
        "GRADTRACE_MAX_STR_LENGTH": "100000000",
        "GRADTRACE_MAX_STEPS": "1000000000",
        "GRADTRACE_MAX_BUILT_ITEMS": "1000000000",
    }
    with running_server(env) as url:
        code = "import torch\nprint('before')\ntorch.set_printoptions(threshold=10**9)\ns = str(torch.rand(10**6))"
        body = httpx.post(f"{url}/api/run", json={"code": code}, timeout=60).json()
        assert body["error"]["type"] == "LimitExceeded" and "(time limit)" in body["error"]["message"]
        assert body["error"]["line"] == 4 and body["stdout"] == "before\n"
        after = httpx.post(f"{url}/api/run", json={"code": LESSON_1}, timeout=30).json()
        assert after["stdout"] == "tensor([2., 4., 6.])\n" and after["error"] is None


def test_a_run_at_its_time_limit_answers_within_5_s_with_its_output_so_far() -> None:
    with running_server({"GRADTRACE_MAX_STEPS": "1000000000"}) as url:
        code = "print('started')\nn = 0\nwhile True:\n    n += 1"
        start = time.monotonic()
        body = httpx.post(f"{url}/api/run", json={"code": code}, timeout=60).json()
        assert time.monotonic() - start < 5
        assert body["error"]["type"] == "LimitExceeded" and "(time limit)" in body["error"]["message"]
        assert body["error"]["line"] in (3, 4) and body["stdout"] == "started\n"
        kinds = [e["type"] for e in body["events"]]
        # the print, the loop's first iterations, the rest folded up to the one the limit ended, then the error
        assert kinds[0] == "print" and kinds[-1] == "error" and set(kinds[1:-1]) == {"iteration", "folded"}


def test_a_run_out_of_worker_memory_gets_a_clear_error_and_the_worker_keeps_serving() -> None:
    # 45 tensors of 10**6 float32 (180 MB) stay inside the memory budget but not inside a 250 MiB worker
    env = {"GRADTRACE_WORKER_MEMORY_MB": "250", "GRADTRACE_WORKERS": "1"}
    code = "import torch\nprint('started')\nkeep = []\nfor i in range(45):\n    keep.append(torch.ones(10**6))"
    with running_server(env) as url:
        for _ in range(3):  # the same worker, again and again (it gives its memory back after each)
            body = httpx.post(f"{url}/api/run", json={"code": code}, timeout=30).json()
            assert body["error"]["type"] == "MemoryError" and body["error"]["line"] == 5, body["error"]
            assert body["error"]["message"].startswith("out of memory: unable to allocate 3.81 MiB")
            assert body["stdout"] == "started\n"
            after = httpx.post(f"{url}/api/run", json={"code": LESSON_1}, timeout=30).json()
            assert after["stdout"] == "tensor([2., 4., 6.])\n" and after["error"] is None

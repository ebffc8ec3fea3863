"""Shared fixtures: a real uvicorn server on a free loopback port, started once per test session."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

# CI (.ci/run exports CI=true): tests that may skip on a developer's machine must run there, and fail if they cannot
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m server`` on a free port (rate limiting off unless ``env`` sets it); return the process and
    its base URL once /healthz answers."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "GRADTRACE_RATE_LIMIT": "", **(env or {})},  # rate limiting gets in tests' way
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering /healthz")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not answer /healthz within 30 s")


@contextlib.contextmanager
def running_server(env: dict[str, str] | None = None) -> Iterator[str]:
    """A server (see :func:`start_server`) for the duration of a ``with`` block; yields its base URL."""
    proc, url = start_server(env)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """Base URL of a real gradtrace server (API + built playground) for the whole test session."""
    with running_server() as url:
        yield url


@pytest.fixture()
def client(live_server: str) -> Iterator[httpx.Client]:
    """An httpx client bound to the live server."""
    with httpx.Client(base_url=live_server, timeout=30) as http:
        yield http

"""What the image's build stage makes, made here without Docker: the project built from what that stage copies and
installed from its wheel (not the repository's editable copy) serves the API and the playground from anywhere, as the runtime stage runs it
(``python -m server`` in /opt/gradtrace, the frontend at GRADTRACE_FRONTEND_DIR)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import engine
from server.lessons import LESSONS
from tests.deploy.stack import STATIC_ROOT, Replica

ROOT = Path(__file__).resolve().parents[2]


def _build_context(destination: Path) -> Path:
    """What the Dockerfile's build stage copies (its COPY lines, read from the Dockerfile), copied here."""
    from tests.deploy.test_dockerfile import _stages

    for line in _stages()["build"]:
        if line.startswith("COPY "):
            *sources, target = line.split()[1:]
            for source in sources:
                place = (
                    destination / target / Path(source).name
                    if target.endswith("/") and not source.endswith("/")
                    else destination / target
                )
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, place, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    place.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(ROOT / source, place)
    return destination


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel built from the build stage's sources alone, unpacked where only it is found first."""
    out = tmp_path_factory.mktemp("wheel")
    context = _build_context(out / "src")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(context),
        ],
        check=True,
        timeout=300,
        cwd=out,
    )
    (wheel,) = out.glob("gradtrace-*.whl")
    site = out / "site"
    zipfile.ZipFile(wheel).extractall(site)
    yield site


def _tracked_sources() -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", "engine", "server"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.split()
    return {path for path in listed if path.endswith(".py")}


def test_the_wheel_holds_every_source_of_the_engine_and_the_server(installed: Path) -> None:
    packaged = {str(path.relative_to(installed)) for path in installed.rglob("*.py")}
    assert _tracked_sources() <= packaged, sorted(_tracked_sources() - packaged)
    assert not any(path.startswith("tests/") for path in packaged)


def test_the_installed_server_answers_from_outside_the_repository(installed: Path, tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(installed), "GRADTRACE_FRONTEND_DIR": str(STATIC_ROOT), "GRADTRACE_WORKERS": "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import server, engine; print(server.__file__, engine.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, **env},
        check=True,
    )
    assert all(path.startswith(str(installed)) for path in where.stdout.split()), where.stdout
    replica = Replica.start(env, cwd=tmp_path)  # as the image runs it: away from the repository
    try:
        replica.wait_ready()
        code = LESSONS[0].code
        answer = httpx.post(f"{replica.url}/api/run", json={"code": code}, timeout=30).json()
        page = httpx.get(f"{replica.url}/", timeout=10)
    finally:
        replica.stop()
    assert answer["error"] is None and answer["stdout"] == engine.run(code).stdout
    assert page.status_code == 200 and page.text == (STATIC_ROOT / "index.html").read_text()

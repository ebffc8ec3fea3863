"""What can be checked of the container set-up without a Docker engine: the files it copies exist, the services
it defines serve the app, and the Makefile/README/CI agree on the two commands. (tests/deploy/ checks the rest.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _dockerfile_lines() -> list[str]:
    return [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()]


def test_dockerfile_copies_only_what_exists() -> None:
    for line in _dockerfile_lines():
        if line.startswith("COPY") and "--from=" not in line:
            *sources, _dest = line.split()[1:]
            for source in sources:
                assert (ROOT / source).exists(), f"Dockerfile copies missing {source}"


def test_dockerfile_serves_the_server_module_on_8000() -> None:
    lines = _dockerfile_lines()
    cmd = [line for line in lines if line.startswith("CMD")][-1]  # the last stage's (the api image)
    assert '"-m", "server"' in cmd and '"8000"' in cmd
    assert any(line.startswith("USER") and "root" not in line for line in lines)


def test_compose_builds_this_repo_and_publishes_the_port() -> None:
    from tests.deploy.settings_names import unknown

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    built = {name: service["build"] for name, service in services.items() if "build" in service}
    assert built == {"api": {"context": ".", "target": "runtime"}, "nginx": {"context": ".", "target": "web"}}
    assert services["nginx"]["ports"] == ["${GRADTRACE_PORT:-8000}:8080"]  # the README's port, in front of the api
    assert unknown(services["api"]["environment"]) == []  # every variable is a setting (tests/deploy/settings_names)


def test_two_commands_are_documented_and_wired() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_torch_is_a_test_dependency_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith("torch") for dep in project["dependencies"])
    assert "torch==2.13.0" in project["optional-dependencies"]["test"]

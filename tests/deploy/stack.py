"""The production-shaped stack on loopback, from Debian's packages and the project's own files: api replicas (``python
-m server``, real uvicorn), one ``redis-server`` with ``deploy/redis/redis.conf`` and ``nginx`` with
``deploy/nginx/gradtrace.conf.template``, filled in with docker-compose.yml's values except for ports and paths.

Example::

    with Stack.start(tmp_path, replicas=2) as stack:
        httpx.get(stack.url + "/healthz")
        stack.replicas[0].kill()          # SIGKILL to its process group (server, forkserver, workers)
        stack.nginx.log()                 # the access log, one dict a request
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
import yaml

from tests.conftest import _free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "gradtrace.conf.template"
REDIS_CONF = ROOT / "deploy" / "redis" / "redis.conf"
COMPOSE_FILE = ROOT / "docker-compose.yml"
STATIC_ROOT = ROOT / "frontend" / "dist"

# Only these are the harness's own; every other placeholder takes docker-compose.yml's value.
PORTS_AND_PATHS = ("NGINX_LISTEN", "NGINX_API_SERVERS", "NGINX_STATIC_ROOT", "NGINX_ACCESS_LOG")

# Budgets that let a test's program compute silently for a second or two on a busy machine.
PATIENT = {
    "GRADTRACE_MAX_STEPS": "100000000",
    "GRADTRACE_MAX_SECONDS": "30",
    "GRADTRACE_RUN_DEADLINE_SECONDS": "40",
    "GRADTRACE_RUN_CPU_SECONDS": "40",
}


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` until it is true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not happen within {timeout:g} s")


def compose_service(name: str) -> dict[str, Any]:
    service: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())["services"][name]
    return service


_DEFAULT = re.compile(r"^\$\{(\w+):?-(.*)\}$")


def compose_environment(name: str) -> dict[str, str]:
    """A compose service's environment as compose would set it with nothing in the shell: ``${X:-d}`` is ``d``."""
    environment: dict[str, str] = {}
    for key, value in compose_service(name).get("environment", {}).items():
        text = str(value)
        match = _DEFAULT.match(text)
        environment[key] = match.group(2) if match else text
    return environment


def render_nginx(values: dict[str, str]) -> str:
    """The template with each ``${NGINX_…}`` placeholder replaced, as the nginx image's envsubst does with
    ``NGINX_ENVSUBST_FILTER=^NGINX_``; every one must be given."""
    text = NGINX_TEMPLATE.read_text()
    missing = sorted(set(placeholders()) - set(values))
    if missing:
        raise KeyError(f"no value for {missing}")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


PLACEHOLDER = re.compile(r"\$\{(NGINX_\w+)\}")


def placeholders() -> list[str]:
    """The names the nginx template expects from the environment."""
    return sorted(set(PLACEHOLDER.findall(NGINX_TEMPLATE.read_text())))


@dataclass
class Replica:
    """One ``python -m server`` in its own process group (its forkserver and workers with it)."""

    proc: subprocess.Popen[bytes]
    port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    @classmethod
    def start(cls, env: dict[str, str], cwd: Path = ROOT) -> Replica:
        port = _free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=cwd,
            env={**os.environ, "GRADTRACE_RATE_LIMIT": "", **env},
            start_new_session=True,
        )
        return cls(proc, port)

    def wait_ready(self, timeout: float = 60) -> None:
        def ready() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"replica on {self.port} exited with {self.proc.returncode}")
            return httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200

        wait_until(ready, timeout, f"replica on {self.port} answering /healthz")

    def health(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.url}/healthz", timeout=5).json()
        return body

    def kill(self) -> None:
        """Die at once, as a crashed or OOM-killed replica does: SIGKILL to the whole process group."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        with contextlib.suppress(ProcessLookupError):  # what is left of the group (workers of a killed server)
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)


@dataclass
class RedisServer:
    """Debian's ``redis-server`` with the project's redis.conf, on loopback, persisting nothing."""

    proc: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis[bytes]:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    @classmethod
    def start(cls, directory: Path, *overrides: str) -> RedisServer:
        directory.mkdir(parents=True, exist_ok=True)
        port = _free_port()
        command = [
            shutil.which("redis-server") or "/usr/bin/redis-server",
            str(REDIS_CONF),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(directory),
            "--logfile",
            str(directory / "redis.log"),
            "--daemonize",
            "no",
            *overrides,
        ]
        server = cls(subprocess.Popen(command, start_new_session=True), port)
        wait_until(lambda: bool(server.client().ping()), 20, f"redis-server on {port} answering PING")
        return server

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


_MAIN_CONF = """# tests/deploy harness: the process-level settings of a plain nginx process; the site is the project's file.
{user}worker_processes 2;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/gradtrace.conf;
}}
"""


@dataclass
class Nginx:
    """Debian's nginx as a plain process with the project's site config."""

    proc: subprocess.Popen[bytes]
    port: int
    directory: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @staticmethod
    def values(port: int, api_addresses: list[str], directory: Path) -> dict[str, str]:
        """The template's values: docker-compose.yml's nginx environment, with this harness's ports and paths."""
        values = compose_environment("nginx")
        values.update(
            NGINX_LISTEN=f"127.0.0.1:{port}",
            NGINX_API_SERVERS=" ".join(f"server {address};" for address in api_addresses),
            NGINX_STATIC_ROOT=str(STATIC_ROOT),
            NGINX_ACCESS_LOG=str(directory / "access.log"),
        )
        return values

    @classmethod
    def start(cls, directory: Path, api_addresses: list[str]) -> Nginx:
        directory.mkdir(parents=True, exist_ok=True)
        port = _free_port()
        (directory / "gradtrace.conf").write_text(render_nginx(cls.values(port, api_addresses, directory)))
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the test's private temp dir
        (directory / "nginx.conf").write_text(_MAIN_CONF.format(user=user, dir=directory))
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        command = [binary, "-c", str(directory / "nginx.conf"), "-p", str(directory)]
        checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the config:\n{checked.stderr}")
        nginx = cls(subprocess.Popen(command, start_new_session=True), port, directory)
        wait_until(
            lambda: httpx.get(f"{nginx.url}/favicon.svg", timeout=1).status_code == 200, 20, f"nginx on {port} serving"
        )
        return nginx

    def log(self) -> list[dict[str, Any]]:
        """The access log so far, one dict a request (the config's JSON format)."""
        path = self.directory / "access.log"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def errors(self) -> str:
        path = self.directory / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)


@dataclass
class Stack:
    """Redis, ``replicas`` api replicas and nginx in front of them."""

    redis: RedisServer
    replicas: list[Replica]
    nginx: Nginx
    extra: list[Any] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.nginx.url

    def by_address(self) -> dict[str, Replica]:
        return {replica.address: replica for replica in self.replicas}

    @classmethod
    @contextlib.contextmanager
    def start(cls, directory: Path, replicas: int = 2, env: dict[str, str] | None = None) -> Iterator[Stack]:
        started: list[Any] = []
        try:
            store = RedisServer.start(directory / "redis")
            started.append(store)
            servers = [
                Replica.start({"GRADTRACE_WORKERS": "2", **PATIENT, **(env or {}), "GRADTRACE_REDIS_URL": store.url})
                for _ in range(replicas)
            ]
            started.extend(servers)
            for server in servers:
                server.wait_ready()
            front = Nginx.start(directory / "nginx", [server.address for server in servers])
            started.append(front)
            yield cls(store, servers, front)
        finally:
            for part in reversed(started):
                part.stop()

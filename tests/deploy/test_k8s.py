"""deploy/k8s/ without a cluster: every resource validates strictly (kubernetes-validate, from PyPI) against the newest
Kubernetes it knows and an older one, and the resources fit together: selectors find the pods, probes and
Services name real ports and routes, the autoscaler and the disruption budget point at the api, the ingress at
Services that exist, the settings are the server's, Redis runs deploy/redis/redis.conf's settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from server.settings import Settings
from tests.deploy.settings_names import unknown
from tests.deploy.stack import REDIS_CONF

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
RESOURCE_FILES = sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")
VERSIONS = ["1.37.0", "1.30.0"]


def _validate(paths: list[Path], version: str) -> subprocess.CompletedProcess[str]:
    binary = Path(sys.executable).parent / "kubernetes-validate"
    return subprocess.run(
        [str(binary), "--strict", "-k", version, *map(str, paths)], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_every_resource_validates_strictly(version: str) -> None:
    result = _validate(RESOURCE_FILES, version)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" passed for resource ") == len(_resources())


def test_a_misspelt_field_does_not_validate(tmp_path: Path) -> None:
    text = (K8S / "api-deployment.yaml").read_text().replace("readinessProbe:", "readinesProbe:")
    broken = tmp_path / "api-deployment.yaml"
    broken.write_text(text)
    result = _validate([broken], VERSIONS[0])
    assert result.returncode != 0 and "readinesProbe" in result.stdout + result.stderr


def _resources() -> list[dict[str, Any]]:
    return [doc for path in RESOURCE_FILES for doc in yaml.safe_load_all(path.read_text()) if doc]


def _one(kind: str, name: str) -> dict[str, Any]:
    (found,) = [r for r in _resources() if r["kind"] == kind and r["metadata"]["name"] == name]
    return found


def test_kustomization_lists_every_resource_file() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == [path.name for path in RESOURCE_FILES]
    assert {r["metadata"].get("namespace", "gradtrace") for r in _resources()} == {"gradtrace"}
    assert {image["name"] for image in kustomization["images"]} == {
        c["image"]
        for r in _resources()
        if r["kind"] == "Deployment"
        for c in r["spec"]["template"]["spec"]["containers"]
        if ":" not in c["image"]
    }


@pytest.mark.parametrize("name", ["gradtrace-api", "gradtrace-redis", "gradtrace-web"])
def test_each_service_selects_its_deployments_pods_on_a_named_port(name: str) -> None:
    deployment, service = _one("Deployment", name), _one("Service", name)
    pod = deployment["spec"]["template"]
    labels = pod["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    ports = {port["name"] for container in pod["spec"]["containers"] for port in container["ports"]}
    assert {port["targetPort"] for port in service["spec"]["ports"]} <= ports


def test_the_api_pods_are_probed_on_routes_the_server_has() -> None:
    from server.routes import embed, grad, pages, run

    routes = {getattr(route, "path", None) for module in (embed, grad, pages, run) for route in module.router.routes}
    (container,) = _one("Deployment", "gradtrace-api")["spec"]["template"]["spec"]["containers"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] in routes and container[probe]["httpGet"]["port"] == "http"
    assert container["ports"] == [{"name": "http", "containerPort": 8000}]  # the image's CMD port
    assert set(container["resources"]) == {"requests", "limits"}


def test_the_autoscaler_and_the_disruption_budget_hold_the_api() -> None:
    hpa, pdb = _one("HorizontalPodAutoscaler", "gradtrace-api"), _one("PodDisruptionBudget", "gradtrace-api")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "gradtrace-api"}
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    labels = _one("Deployment", "gradtrace-api")["spec"]["template"]["metadata"]["labels"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]  # a drain can always move one pod


def test_the_ingress_sends_paths_to_services_that_exist() -> None:
    services = {r["metadata"]["name"]: r for r in _resources() if r["kind"] == "Service"}
    routes: dict[str, str] = {}
    for ingress in (r for r in _resources() if r["kind"] == "Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                assert backend["port"]["name"] in {p["name"] for p in services[backend["name"]]["spec"]["ports"]}
                routes[path["path"]] = backend["name"]
    assert routes["/"] == routes["/api/run/stream"] == "gradtrace-api"
    assert routes["/assets/"] == "gradtrace-web"
    stream = _one("Ingress", "gradtrace-stream")["metadata"]["annotations"]
    assert stream["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    for ingress in ("gradtrace", "gradtrace-stream"):
        annotations = _one("Ingress", ingress)["metadata"]["annotations"]
        assert "non_idempotent" in annotations["nginx.ingress.kubernetes.io/proxy-next-upstream"]
        assert annotations["nginx.ingress.kubernetes.io/proxy-body-size"] == "256k"


def test_the_api_settings_are_the_servers_and_fit_the_memory_limit() -> None:
    data = _one("ConfigMap", "gradtrace-api")["data"]
    assert unknown(data) == []
    settings = Settings(
        **{
            name.removeprefix("GRADTRACE_").lower(): value
            for name, value in data.items()
            if name.startswith("GRADTRACE_") and name.removeprefix("GRADTRACE_").lower() in Settings.model_fields
        }
    )
    (container,) = _one("Deployment", "gradtrace-api")["spec"]["template"]["spec"]["containers"]
    limit = container["resources"]["limits"]["memory"]
    assert limit.endswith("Gi")
    at_rest_mib = 350  # the server and its workers at rest (README: ~320 MiB PSS for 12)
    assert at_rest_mib + settings.workers * settings.max_resident_growth_mb < int(limit[:-2]) * 1024
    assert data["GRADTRACE_REDIS_URL"] == "redis://gradtrace-redis:6379/0"


def _redis_conf() -> dict[str, str]:
    settings: dict[str, str] = {}
    for line in REDIS_CONF.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition(" ")
            settings[key] = value.strip().strip('"')
    return settings


def test_redis_runs_redis_conf_settings() -> None:
    (container,) = _one("Deployment", "gradtrace-redis")["spec"]["template"]["spec"]["containers"]
    args = container["args"]
    assert args[0] == "redis-server"
    assert dict(zip(args[1::2], args[2::2])) == {f"--{key}": value for key, value in _redis_conf().items()}
    memory_limit = container["resources"]["limits"]["memory"]
    assert int(memory_limit.removesuffix("Mi")) > int(_redis_conf()["maxmemory"].removesuffix("mb"))


def test_every_pod_runs_restricted() -> None:
    for deployment in (r for r in _resources() if r["kind"] == "Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["automountServiceAccountToken"] is False
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False and context["readOnlyRootFilesystem"] is True
            assert context["capabilities"]["drop"] == ["ALL"]
            assert "limits" in container["resources"] and "memory" in container["resources"]["limits"]


def test_prometheus_may_scrape_the_api_pods_metrics() -> None:
    from server.metrics import instrument  # noqa: F401 - the server has /metrics (server/metrics.py)

    template = _one("Deployment", "gradtrace-api")["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true" and annotations["prometheus.io/path"] == "/metrics"
    assert int(annotations["prometheus.io/port"]) == template["spec"]["containers"][0]["ports"][0]["containerPort"]
    sources = [
        peer["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"]
        for rule in _one("NetworkPolicy", "gradtrace-api")["spec"]["ingress"]
        for peer in rule["from"]
        if "namespaceSelector" in peer
    ]
    assert "monitoring" in sources

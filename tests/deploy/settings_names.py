"""Which environment variables the deployment files may set: the server's settings (``server/settings.py``),
uvicorn's own, and the settings agreed for the server that it does not read yet (none now).

``PENDING`` is a ratchet: once the server reads one of them, the test that checks it is still pending fails and
says to move it out of here (tests/deploy/test_compose.py, test_k8s.py; tests/test_packaging.py).
"""

from __future__ import annotations

from server.settings import Settings

UVICORN = frozenset({"FORWARDED_ALLOW_IPS"})
"""Read by uvicorn itself: whose X-Forwarded-For to believe."""

PENDING: frozenset[str] = frozenset()
"""Agreed in docs/SCALE-OUT.md and set by compose or Kubernetes before the server reads them. (GRADTRACE_REDIS_URL
was, until the shared store of kept answers landed: tests/deploy/test_redis_answers.py.)"""


def setting_names() -> frozenset[str]:
    """``GRADTRACE_*`` names of the server's settings."""
    return frozenset(f"GRADTRACE_{name.upper()}" for name in Settings.model_fields)


def unknown(names: object) -> list[str]:
    """The names (of an environment mapping) that nothing reads and nothing has agreed to read."""
    return sorted(set(names) - setting_names() - UVICORN - PENDING)  # type: ignore[call-overload]

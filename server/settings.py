"""Server settings, read from ``GRADTRACE_*`` environment variables (pydantic-settings).

Example::

    $ GRADTRACE_MAX_CODE_BYTES=131072 python -m server --port 8000
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Every knob of the server, with a sensible default."""

    model_config = SettingsConfigDict(env_prefix="GRADTRACE_")

    max_code_bytes: int = 64 * 1024
    """Largest program accepted by /api/run (UTF-8 bytes); larger answers 413."""
    max_body_bytes: int = 256 * 1024
    """Largest request body read at all; refused before JSON parsing."""
    workers: int = 2
    """Worker processes running programs (each runs one program at a time)."""
    worker_memory_mb: int = 512
    """Address-space limit of each worker process; a run that passes it is stopped."""
    run_deadline_seconds: float = 8.0
    """Wall-clock time after which a run's worker is killed (the interpreter's own limit is 5 s)."""
    max_pending_runs: int = 32
    """Runs waiting or running at once; past it, requests answer 429 with Retry-After."""
    frontend_dir: Path = REPO_ROOT / "frontend" / "dist"
    """The built playground (``make run`` builds it)."""


@lru_cache
def get_settings() -> Settings:
    """The process's settings (a FastAPI dependency that tests can override)."""
    return Settings()

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
    max_concurrent_runs: int = 4
    """Runs executing at once; further requests wait their turn."""
    frontend_dir: Path = REPO_ROOT / "frontend" / "dist"
    """The built playground (``make run`` builds it)."""


@lru_cache
def get_settings() -> Settings:
    """The process's settings (a FastAPI dependency that tests can override)."""
    return Settings()

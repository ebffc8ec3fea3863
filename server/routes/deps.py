"""Dependencies shared by the routers: settings and the run service (both swappable in tests)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from server.service import RunService
from server.settings import Settings


async def app_settings(request: Request) -> Settings:
    """The app's settings (``create_app(settings)``). Async and override-free on purpose: a sync dependency or a
    ``dependency_overrides`` entry costs a thread hop and a dependency analysis on every request."""
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(app_settings)]


async def get_service(request: Request) -> RunService:
    """The app's one RunService (made at start-up)."""
    service: RunService = request.app.state.run_service
    return service


ServiceDep = Annotated[RunService, Depends(get_service)]


def check_code_size(code: str, settings: Settings) -> None:
    """413 when ``code`` is over the configured limit."""
    size = len(code.encode("utf-8", "surrogatepass"))
    if size > settings.max_code_bytes:
        raise HTTPException(413, f"code is {size} bytes; the limit is {settings.max_code_bytes} bytes")


def client_of(request: Request) -> str:
    """Who sent the request, for the per-client share of the run slots: the client's address (behind a trusted
    proxy, uvicorn has put the address from ``X-Forwarded-For`` there)."""
    return request.client.host if request.client is not None else ""

"""GET /embed: the playground's compact page for iframes (``/embed#code=<base64url>``), built as embed.html."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from server.routes.deps import SettingsDep

router = APIRouter()


@router.get("/embed", include_in_schema=False)
async def embed(settings: SettingsDep) -> FileResponse:
    """The compact page; its assets are relative (``./assets/…``), so they resolve from ``/`` like the playground's."""
    page = settings.frontend_dir / "embed.html"
    if not page.is_file():
        raise HTTPException(404, "the playground isn't built yet: run `make frontend`")
    return FileResponse(page, media_type="text/html")

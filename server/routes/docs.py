"""GET /docs: Swagger UI from our own files (frontend/dist/swagger/, copied from npm's swagger-ui-dist at build),
so the API docs render with no network beyond this server."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter()

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>gradtrace API</title>
<link rel="stylesheet" href="./swagger/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="./swagger/swagger-ui-bundle.js"></script><script src="./swagger/init.js"></script></body></html>"""


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    """The interactive API docs (the schema is /openapi.json)."""
    return HTMLResponse(PAGE)

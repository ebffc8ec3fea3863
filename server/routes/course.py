"""GET /course/<name>: a course page (server/course_texts/<name>.txt) whose code blocks are live widgets."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse

from server.course import course_page, find, render

router = APIRouter()


@router.get("/course/{name}", include_in_schema=False)
async def course(name: str) -> HTMLResponse:
    """The page, or 404 for a name with no text."""
    path = find(name)
    if path is None:
        raise HTTPException(404, f"there is no course page called {name!r}")
    return HTMLResponse(render(course_page(path.read_text(encoding="utf-8"))))

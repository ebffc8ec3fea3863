"""The FastAPI application: API routers, the body-size guard, and the built playground at ``/``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from server.bodies import internal_error, validation_failed
from server.cors import WidgetCORS
from server.headers import SecurityHeaders
from server.limits import BodySizeLimit
from server.logs import RequestLog
from server.metrics import instrument
from server.ratelimit import RateLimit
from server.routes import course, docs, embed, fallback, grad, pages, run
from server.service import RunService
from server.settings import Settings, get_settings

_NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>gradtrace</title>
<p>The playground isn't built yet: run <code>make run</code> (it builds <code>frontend/dist</code>).
The API is up: see <a href="/docs">/docs</a>.</p>"""


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app configured by ``settings`` (default: the environment's)."""
    settings = settings or get_settings()
    service = RunService(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.close()

    app = FastAPI(
        lifespan=lifespan,
        title="gradtrace",
        summary="Run PyTorch-style code on a numpy autograd engine and get its autograd trace.",
        version="0.1.0",
        docs_url=None,  # server/routes/docs.py serves Swagger UI from our own files
        redoc_url=None,  # ReDoc would load from a CDN
    )
    app.add_exception_handler(RequestValidationError, validation_failed)
    app.add_exception_handler(Exception, internal_error)
    app.state.settings = settings
    app.state.run_service = service
    # The last added is the outermost: security headers on every answer (413 and 429 too), CORS headers on
    # refusals too (so a course page can read them), then rate limiting, then the body-size guard.
    # JSON answers above 1 KiB go out gzipped when the client accepts it (a trace compresses 3-4x); streams
    # (text/event-stream) never are; a body above 8 KiB is compressed in a thread, not in the event loop.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6, thread_minimum_size=8 * 1024)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RateLimit, rule=settings.rate_limit, exempt=settings.rate_limit_exempt)
    app.add_middleware(WidgetCORS, origins=settings.cors_origins)  # server/cors.py: the widget's paths only
    app.add_middleware(SecurityHeaders, embed_frame_ancestors=settings.embed_frame_ancestors)
    instrument(app)  # GET /metrics, and each request timed (inside the request log)
    app.add_middleware(RequestLog, log_code=settings.log_code)  # outermost: every answer has its id and log line
    for router in (run.router, grad.router, pages.router, embed.router, course.router, docs.router, fallback.router):
        app.include_router(router)
    if (settings.frontend_dir / "index.html").is_file():
        app.mount("/", StaticFiles(directory=settings.frontend_dir, html=True), name="playground")
    else:

        @app.get("/", include_in_schema=False)
        async def not_built() -> HTMLResponse:
            return HTMLResponse(_NOT_BUILT)

    return app

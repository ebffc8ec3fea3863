"""A bare FastAPI endpoint with gradtrace's route and a canned body: the baseline of benchmarks/throughput.py.

Run: ``python benchmarks/bare_app.py BODY_FILE PORT``.
"""

from __future__ import annotations

import sys

import uvicorn
from fastapi import FastAPI
from fastapi.responses import Response

app = FastAPI()
_body = b"{}"


@app.post("/api/run")
async def run(payload: dict[str, object]) -> Response:
    """Parse the request like the real route, answer the canned body."""
    return Response(_body, media_type="application/json")


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as file:
        _body = file.read()
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")

"""The unisolated baseline of benchmarks/throughput.py: a FastAPI endpoint that simply calls ``engine.run`` in its
handler and returns the same JSON shape, with no worker pool, no process isolation, no kept answers, no limits on
the service side (what the machine could do if isolation cost nothing). Run as uvicorn worker processes, as many as
gradtrace's own workers, so that both use the same cores.

Run: ``python benchmarks/inprocess_app.py PORT WORKERS``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from fastapi.responses import Response

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import json

import engine

app = FastAPI()


@app.post("/api/run")
def run(payload: dict[str, object]) -> Response:
    """Run the code right here (a thread of this process) and answer as /api/run does."""
    result = engine.run(str(payload["code"]))
    body = {"stdout": result.stdout, "error": result.error, "seed": result.seed, "events": result.events}
    return Response(json.dumps(body, separators=(",", ":")), media_type="application/json")


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


if __name__ == "__main__":
    uvicorn.run(
        "benchmarks.inprocess_app:app",
        host="127.0.0.1",
        port=int(sys.argv[1]),
        workers=int(sys.argv[2]),
        log_level="warning",
        app_dir=str(Path(__file__).resolve().parent.parent),
    )

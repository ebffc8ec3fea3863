"""Server settings, read from ``GRADTRACE_*`` environment variables (pydantic-settings).

Every budget of a run (``engine.sandbox.Limits``) has a setting of the same name here, so an operator can tighten
or loosen it without touching code; the README's configuration table lists them all.

Example::

    $ GRADTRACE_MAX_CODE_BYTES=131072 GRADTRACE_MAX_STEPS=2000000 python -m server --port 8000
    $ GRADTRACE_CORS_ORIGINS='https://course.example.edu,https://lms.example.edu' python -m server
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from engine.sandbox import Limits

REPO_ROOT = Path(__file__).resolve().parent.parent
_RUN = Limits()


class Settings(BaseSettings):
    """Every knob of the server, with a sensible default."""

    model_config = SettingsConfigDict(env_prefix="GRADTRACE_")

    # -- requests ------------------------------------------------------------------------------------------
    max_code_bytes: int = Field(64 * 1024, gt=0)
    """Largest program accepted by /api/run (UTF-8 bytes); larger answers 413."""
    max_body_bytes: int = Field(256 * 1024, gt=0)
    """Largest request body read at all; refused before JSON parsing."""
    max_header_bytes: int = Field(16 * 1024, gt=0)
    """Longest request header line (name and value); longer answers 431 before the parser reads it
    (``server/http_guard.py``)."""
    max_head_bytes: int = Field(64 * 1024, gt=0)
    """Largest request head (request line and all headers); larger answers 431."""
    max_header_count: int = Field(100, gt=0)
    """Most header lines in one request; more answers 431."""
    head_timeout_seconds: float = Field(10.0, gt=0)
    """A request head that takes longer to arrive answers 408 and its connection is closed."""
    body_timeout_seconds: float = Field(10.0, gt=0)
    """A request body not all there this long after its head answers 408 and its connection is closed."""
    stream_buffer_bytes: int = Field(4 * 2**20, gt=0)
    """Trace bytes a streamed run may hold for a client that reads slower than the run writes; past it the client
    is dropped and its run stopped (``server/sse.py``)."""
    rate_limit: str = "600/minute"
    """Requests per client address to /api/* (a ``limits`` string); empty turns it off. Generous by default: a whole
    classroom may share one address behind its school's NAT."""
    rate_limit_exempt: Annotated[list[str], NoDecode] = ["127.0.0.1", "::1"]
    """Client addresses never rate-limited, comma-separated; empty: none. Loopback by default: a client on the same
    machine is the operator's own (tests, benchmarks, a course's build); behind a reverse proxy, uvicorn takes the
    real client's address from ``X-Forwarded-For`` (``--forwarded-allow-ips``), so it is not exempt."""
    cors_origins: Annotated[list[str], NoDecode] = ["*"]
    """Origins (course sites) whose pages may load the widget (``/embed.js``) and call the runs it needs, from the
    browser; comma-separated; ``*`` (the default) for any; empty: none (``server/cors.py`` lists the paths)."""
    embed_frame_ancestors: str = "*"
    """Who may frame ``/embed`` (a CSP ``frame-ancestors`` source list); every other page may not be framed."""

    # -- isolation -----------------------------------------------------------------------------------------
    workers: int = Field(12, gt=0)
    """Worker processes running programs, one program each at a time (the OS shares the CPU among them)."""
    worker_memory_mb: int = Field(512, ge=0)
    """Address-space limit of each worker process; a run that passes it is stopped (0: no limit)."""
    worker_nice: int = Field(0, ge=0, le=19)
    """Niceness of the worker processes (higher: the server process gets the CPU first)."""
    demote_after_seconds: float = Field(0.05, ge=0)
    """CPU time after which a run yields the CPU to short runs (its worker's niceness goes to 19 until it ends;
    needs the right to lower it back, e.g. root; 0: off). A lesson uses a few ms of CPU: only long runs are demoted."""
    run_deadline_seconds: float = Field(8.0, gt=0)
    """The last resort: a run still going this long after its request arrived is killed with its worker. (The
    interpreter stops a program at ``max_seconds`` from the arrival, and an alarm just after it stops one stuck in
    engine code, so that answers are out within 5 s; this is for a run that escapes both.)"""
    run_cpu_seconds: float = Field(8.0, ge=0)
    """CPU time a run may use before the kernel signals its worker (RLIMIT_CPU) and the run stops (0: no limit)."""
    worker_max_runs: int = Field(100, gt=0)
    """Runs a worker process serves before a fresh one (forked warm, in milliseconds) takes its place: what a long
    life of runs leaves in a worker's heap (fragments, caches) goes with it."""
    max_pending_runs: int = Field(32, gt=0)
    """Runs waiting or running at once; past it, requests answer 429 with Retry-After."""
    max_pending_runs_per_client: int = Field(16, gt=0)
    """Runs one client address may have waiting or running at once (429 beyond): no client takes every slot.
    Behind NAT a classroom shares an address, and its runs take milliseconds: half of the slots by default."""
    answer_cache_mb: int = Field(32, ge=0)
    """Memory for the answers of reproducible runs, given again without a worker when the same code comes back
    (``server/answers.py``; 0: off, every request runs)."""
    redis_url: str = ""
    """Redis shared by every process and replica for the kept answers (``redis://host:6379/0``;
    ``server/answer_store.py``); empty: each process keeps its own. Redis away costs nothing but the sharing."""

    # -- processes and logs ------------------------------------------------------------------------------------
    processes: int = Field(0, ge=0)
    """Server processes (each with its event loop and its ``workers``) per replica; 0: from the CPUs the replica may
    use, ``max(1, round(CPUs / 3))`` (``server/processes.py``, docs/SCALE-OUT.md)."""
    log_format: str = Field("json", pattern="^(json|text)$")
    """``json``: one JSON object a line (each request with its id, route, status, duration and run outcome; never
    the user's code); ``text``: uvicorn's plain lines."""
    log_code: bool = False
    """Add the first 2,000 characters of each run's code to its log line (off: logs hold no user code)."""

    # -- budgets of one run (engine.sandbox.Limits) ----------------------------------------------------------
    max_steps: int = Field(_RUN.max_steps, gt=0)
    max_seconds: float = Field(_RUN.max_seconds, gt=0)
    max_tensor_elements: int = Field(_RUN.max_tensor_elements, gt=0)
    max_alive_elements: int = Field(_RUN.max_alive_elements, gt=0)
    max_graph_nodes: int = Field(_RUN.max_graph_nodes, gt=0)
    max_events: int = Field(_RUN.max_events, gt=0)
    max_output_bytes: int = Field(_RUN.max_output_bytes, gt=0)
    max_call_depth: int = Field(_RUN.max_depth, gt=0)
    max_ast_depth: int = Field(_RUN.max_ast_depth, gt=0)
    max_int_bits: int = Field(_RUN.max_int_bits, gt=0)
    max_str_length: int = Field(_RUN.max_str_length, gt=0)
    max_list_length: int = Field(_RUN.max_list_length, gt=0)
    max_built_items: int = Field(_RUN.max_built_items, gt=0)
    max_resident_growth_mb: int = Field(_RUN.max_resident_growth // 2**20, gt=0)

    frontend_dir: Path = REPO_ROOT / "frontend" / "dist"
    """The built playground (``make run`` builds it)."""

    @field_validator("cors_origins", "rate_limit_exempt", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    def limits(self) -> Limits:
        """The budgets every run gets."""
        return Limits(
            max_steps=self.max_steps,
            max_seconds=self.max_seconds,
            max_tensor_elements=self.max_tensor_elements,
            max_alive_elements=self.max_alive_elements,
            max_graph_nodes=self.max_graph_nodes,
            max_events=self.max_events,
            max_output_bytes=self.max_output_bytes,
            max_depth=self.max_call_depth,
            max_ast_depth=self.max_ast_depth,
            max_int_bits=self.max_int_bits,
            max_str_length=self.max_str_length,
            max_list_length=self.max_list_length,
            max_built_items=self.max_built_items,
            max_resident_growth=self.max_resident_growth_mb * 2**20,
        )


@lru_cache
def get_settings() -> Settings:
    """The process's settings (a FastAPI dependency that tests can override)."""
    return Settings()

"""Runs user programs for the routes, off the event loop, in the supervised worker pool (server/isolation.py).

Admission is bounded: past ``max_pending`` runs waiting or running, a request is refused with 429 and a
``Retry-After`` so a classroom's burst is told to come back rather than queued without end; one client (address)
holds at most ``max_pending_runs_per_client`` of them, so nobody can take every slot. Kept answers come from
this process's ``AnswerCache``, else from Redis when ``GRADTRACE_REDIS_URL`` is set (``server/answer_store.py``),
shared by every process and replica. Every run's clock
starts when its request is admitted: the interpreter stops the program ``max_seconds`` (4.5 s) after that, so the
answer is out within 5 s; a run that escapes that is killed ``run_deadline_seconds`` after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import AsyncGenerator, Callable
from typing import Any

import anyio.to_thread
from fastapi import HTTPException
from pebble import ProcessExpired

from engine.runner import RunResult
from server import logs, metrics
from server.answer_store import RedisAnswers
from server.answers import KEEP, TOO_BIG, AnswerCache, Kept, StreamCopy, outcome, sse, verdict
from server.inbox import END, EventInbox
from server.isolation import RunPool
from server.jsonio import done_answer, run_answer
from server.settings import Settings
from server.worker import Shipped, WorkerConfig

_LATE_FRAMES = 0.5  # seconds a finished run's last event frames may still take to arrive
_SHIPPED_WAIT = 5.0  # seconds a big answer's last bytes may take to arrive after its worker sent them

logger = logging.getLogger(__name__)


class RunService:
    """Executes ``engine.run`` in worker processes, batch or streamed."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        config = WorkerConfig(
            memory_bytes=settings.worker_memory_mb * 2**20,
            limits=settings.limits(),
            cpu_seconds=settings.run_cpu_seconds,
            nice=settings.worker_nice,
            demote_after=settings.demote_after_seconds,
        )
        self._pool = RunPool(
            settings.workers,
            config,
            deadline=settings.run_deadline_seconds,
            max_tasks=settings.worker_max_runs,
            on_replaced=metrics.REPLACEMENTS.inc,
        )
        self._inbox = EventInbox()
        self._pending = 0
        self._by_client: dict[str, int] = {}
        self.answers = AnswerCache(settings.answer_cache_mb * 2**20) if settings.answer_cache_mb > 0 else None
        self.shared = RedisAnswers(settings.redis_url) if settings.redis_url and self.answers is not None else None
        self.warm = False

    async def kept(self, code: str, seed: int | str | None) -> Kept | None:
        """The answer of an earlier reproducible run of exactly this code and seed, if still kept: by this process,
        else (filling this process's copy) by any process that shares the Redis store. Counted as given again."""
        if self.answers is None:
            return None
        kept = self.answers.get((code, seed))
        if kept is None and self.shared is not None:
            body = await self.shared.get(self.shared.key(code, seed))
            if body is not None:
                kept = Kept.of_body(body) if seed != "answer" else Kept(body=body, stream=b"")
                self.answers.fill((code, seed), kept)
                self.answers.hits += 1  # given again, from another process's run
        if kept is not None:
            _counted("kept")
        return kept

    def is_kept(self, code: str, seed: int | None) -> bool:
        """Is there a kept answer in this process (without counting a hit)?"""
        return self.answers is not None and (code, seed) in self.answers

    async def start(self) -> None:
        """Start the worker processes and the event inbox (once, at start-up)."""
        await self._inbox.start()
        await anyio.to_thread.run_sync(self._pool.warm_up)
        self.warm = True
        if self.shared is not None:
            await self.shared.ping()

    async def close(self) -> None:
        """Stop the worker processes and the event inbox."""
        self.warm = False
        await anyio.to_thread.run_sync(self._pool.close)
        await self._inbox.stop()
        if self.shared is not None:
            await self.shared.close()

    @property
    def pending(self) -> int:
        """Runs waiting or running now."""
        return self._pending

    def check_capacity(self, client: str = "") -> None:
        """Raise 429 (with Retry-After) when ``max_pending_runs`` runs are already waiting or running, or when
        ``client`` has ``max_pending_runs_per_client`` of them."""
        if self._pending >= self._settings.max_pending_runs:
            raise HTTPException(
                429,
                f"{self._pending} runs are already waiting or running; try again shortly",
                headers={"Retry-After": "1"},
            )
        if self._by_client.get(client, 0) >= self._settings.max_pending_runs_per_client:
            raise HTTPException(
                429, "you have too many runs waiting or running; try again shortly", headers={"Retry-After": "1"}
            )

    def _admit(self, client: str) -> float:
        self.check_capacity(client)
        self._enter(client)
        return time.monotonic()

    def _enter(self, client: str) -> None:
        self._pending += 1
        self._by_client[client] = self._by_client.get(client, 0) + 1
        metrics.PENDING.set(self._pending)

    def _leave(self, client: str) -> None:
        self._pending -= 1
        left = self._by_client[client] - 1
        if left:
            self._by_client[client] = left
        else:
            del self._by_client[client]
        metrics.PENDING.set(self._pending)

    def _log_code(self, code: str) -> None:
        if self._settings.log_code:  # off by default: logs hold no user code
            logs.note(code=logs.code_for_log(code))

    def _count(self, report: tuple[str, str | None, int], started: float) -> None:
        """Count a run a worker answered (``/metrics``); its worker is replaced after ``max_tasks`` runs."""
        kind, limit, runs = report
        _counted(kind, limit, time.monotonic() - started)
        if runs % self._pool.max_tasks == 0:
            metrics.REPLACEMENTS.inc()

    def _count_failure(self, exc: Exception, failed: RunResult, started: float) -> None:
        """Count a run the pool could not finish: killed with its worker (which limit), or failed."""
        if isinstance(exc, TimeoutError):
            limit: str | None = "deadline"
        elif isinstance(exc, ProcessExpired):
            limit = "cpu" if exc.exitcode == -signal.SIGXCPU else "memory"
        else:
            limit = None
        _counted("killed" if limit is not None else outcome(failed)[0], limit, time.monotonic() - started)

    def _failure(self, exc: Exception) -> RunResult:
        """The answer of a run the pool could not finish."""
        settings = self._settings
        if isinstance(exc, TimeoutError):
            reason = f"the run was stopped after {settings.run_deadline_seconds:g} s (wall-clock limit)"
        elif isinstance(exc, ProcessExpired) and exc.exitcode == -signal.SIGXCPU:
            reason = f"the run was stopped after {settings.run_cpu_seconds:g} s of CPU time (CPU limit)"
        elif isinstance(exc, ProcessExpired):
            reason = (
                f"the run was stopped: it went over the memory limit ({settings.worker_memory_mb} MiB) "
                "or crashed its worker"
            )
        else:  # the pool failed the run (a worker that could not start...): say so, never a 500
            logger.error("a run failed in its worker", exc_info=exc)
            error = {
                "type": "InternalError",
                "message": f"the run failed in its worker ({type(exc).__name__})",
                "line": None,
            }
            return RunResult(stdout="", error=error)
        return RunResult(stdout="", error={"type": "LimitExceeded", "message": reason, "line": None})

    async def run_encoded(self, code: str, seed: int | None = None, client: str = "") -> bytes | Kept:
        """Run ``code`` to completion and return its JSON answer (``/api/run``), encoded by the worker, or the
        ``Kept`` answer of an earlier run of the same code and seed."""
        self._log_code(code)
        kept = await self.kept(code, seed)
        if kept is not None:
            return kept
        started = self._admit(client)
        token, frames = self._inbox.open()  # where the worker sends a big answer (server/worker.py: ship)
        try:
            body, why, report = await self._pool.run_in_a_worker(
                code, started, encode=run_answer, seed=seed, client=client, reply=(self._inbox.path, token)
            )
            body = await _shipped(body, frames)
        except Exception as exc:
            failed = self._failure(exc)
            self._count_failure(exc, failed, started)
            self._offer((code, seed), verdict(failed), None)
            return run_answer(failed)
        finally:
            self._inbox.close(token)
            self._leave(client)
        self._count(report, started)
        self._offer((code, seed), why, lambda: Kept.of_body(body))
        return bytes(body)

    async def run_answer(
        self,
        code: str,
        encode: Callable[[Any], tuple[int, bytes]],
        failed: Callable[[RunResult], tuple[int, bytes]],
        client: str = "",
    ) -> tuple[int, bytes]:
        """Run ``code`` to completion and return ``encode(result)`` as the worker made it (``/api/grad``: a status
        and the answer's bytes), or ``failed(result)`` for a run the pool could not finish. Kept like
        ``/api/run``'s answers (200s only), under the key (code, "answer")."""
        self._log_code(code)
        kept = await self.kept(code, "answer")
        if kept is not None:
            return 200, kept.body
        started = self._admit(client)
        token, frames = self._inbox.open()
        try:
            (status, body), why, report = await self._pool.run_in_a_worker(
                code, started, encode=encode, client=client, reply=(self._inbox.path, token)
            )
            body = await _shipped(body, frames)
        except Exception as exc:
            result = self._failure(exc)
            self._count_failure(exc, result, started)
            return failed(result)
        finally:
            self._inbox.close(token)
            self._leave(client)
        self._count(report, started)
        if status == 200:
            self._offer((code, "answer"), why, lambda: Kept(body=body, stream=b""))
        return status, body

    def _offer(self, key: tuple[str, Any], why: str, make: Callable[[], Kept] | None) -> None:
        """Keep the answer ``make()`` makes if ``why`` says it may be kept, here and in Redis; count ``why`` either
        way."""
        if self.answers is None:
            return
        kept = self.answers.offer(key, why, make)
        if kept is not None and self.shared is not None:
            self.shared.put(self.shared.key(*key), kept.body)

    async def stream(self, code: str, seed: int | None = None, client: str = "") -> AsyncGenerator[bytes, None]:
        """Yield the run's Server-Sent Events, ready to send: ``trace`` messages (each a JSON array of events) as
        the run produces them, then ``done`` (``{stdout, error, seed}``). A kept answer comes as one piece.

        The route checks capacity before the stream starts (``check_capacity``); here the run only counts. Closing
        this generator (``aclose``, as ``server/sse.py`` does when the client leaves) stops the run at once."""
        self._log_code(code)
        kept = await self.kept(code, seed)
        if kept is not None:
            yield kept.stream
            return
        self._enter(client)
        started = time.monotonic()
        token, frames = self._inbox.open()
        task = asyncio.ensure_future(
            self._pool.run_in_a_worker(
                code, started, encode=done_answer, inbox=(self._inbox.path, token), seed=seed, client=client
            )
        )
        copy = StreamCopy(self.answers.max_entry_bytes if self.answers is not None else 0)
        try:
            async with contextlib.aclosing(_frames_until_done(frames, task)) as arrivals:
                async for frame in arrivals:
                    if frame is END:
                        copy.ended = True
                        continue
                    copy.add(frame)
                    yield sse(b"trace", frame)
            try:
                done, why, report = task.result()
                self._count(report, started)
            except Exception as exc:
                failed = self._failure(exc)
                self._count_failure(exc, failed, started)
                done, why = done_answer(failed), verdict(failed)
            if why == KEEP and not copy.whole():
                why = TOO_BIG  # over a kept answer's size (or some frames lost): not kept
            self._offer((code, seed), why, lambda: Kept.of_stream(copy.frames, done))
            yield sse(b"done", done)
        finally:
            task.cancel()  # a client that left early doesn't keep a worker busy (pebble stops its worker)
            self._inbox.close(token)
            self._leave(client)


def _counted(kind: str, limit: str | None = None, seconds: float | None = None) -> None:
    """A run's answer in ``/metrics`` and in its request's log line."""
    metrics.count_run(kind, limit, seconds)
    logs.note(outcome=kind, **({"limit": limit} if limit is not None else {}))


async def _shipped(body: bytes | Shipped, frames: asyncio.Queue[bytes | None]) -> bytes:
    """The answer's bytes: ``body``, or the frame its worker sent to the inbox in its place (``Shipped``)."""
    if not isinstance(body, Shipped):
        return body
    frame = await asyncio.wait_for(frames.get(), _SHIPPED_WAIT)
    if frame is END or len(frame) != body.size:
        raise RuntimeError("an answer its worker sent did not arrive whole")
    return frame


async def _frames_until_done(
    frames: asyncio.Queue[bytes | None], task: asyncio.Future[Any]
) -> AsyncGenerator[bytes | None, None]:
    """The run's event frames as they arrive, until its last one, then ``END`` (or, when its worker died, until the
    run ended, without ``END``: some frames may be missing)."""
    while True:
        getter = asyncio.ensure_future(frames.get())
        try:
            done, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
        finally:  # closed while waiting (its client left): no task left behind
            if not getter.done():
                getter.cancel()
        if getter not in done:
            break
        frame = getter.result()
        if frame is END:
            await asyncio.wait({task})
            yield END
            return
        yield frame
    # The run ended first: its last frames may still be on their way (none will come from a killed worker).
    wait = _LATE_FRAMES if task.exception() is None else 0.05
    while True:
        try:
            frame = await asyncio.wait_for(frames.get(), wait)
        except TimeoutError:
            return
        if frame is END:
            yield END
            return
        yield frame

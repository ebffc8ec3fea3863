"""Kept answers shared by every process and replica through Redis (``GRADTRACE_REDIS_URL``), behind each process's
own ``AnswerCache`` (``server/answers.py``): docs/SCALE-OUT.md tells the interface this implements.

A key is ``gradtrace:answer:v1:`` and the SHA-256 of the engine's fingerprint, the seed (``-`` without one) and the
code, so user input reaches Redis only through the hash, and a rolling update never gives one version's answer to
another. A value is ``/api/run``'s JSON bytes (the stream's bytes are sliced from it: ``Kept.of_body``). Redis is a
cache, never a dependency: a miss, a slow Redis (50 ms) and a dead one all answer ``None``; after a failure the store
leaves Redis alone for ``RETRY_AFTER`` seconds, so a dead Redis costs no request a timeout.

Example::

    store = RedisAnswers("redis://127.0.0.1:6379/0")
    key = store.key("print(1)", None)
    await store.put(key, b'{"stdout":"1\\n","error":null,"seed":7,"events":[]}')
    await store.get(key)   # the same bytes, from whichever replica wrote them
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

PREFIX = "gradtrace:answer:v1:"
RETRY_AFTER = 5.0  # seconds Redis is left alone after a failure
_LOG_EVERY = 60.0  # seconds between two log lines about a failing Redis

logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """The SHA-256 of the source of the installed ``engine`` and ``server`` packages (paths and bytes, sorted by
    path): two processes with the same one compute the same answers."""
    # the packages themselves, for their paths (imported long before this is called)
    import engine
    import server  # (its path: this module is in it)

    digest = hashlib.sha256()
    for package in (engine, server):
        root = Path(package.__file__ or "").resolve().parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def answer_key(code: str, seed: int | str | None) -> str:
    """The Redis key of the answer to ``code`` run with ``seed`` (an int, ``None``, or a route's own tag)."""
    text = f"{engine_fingerprint()}\0{'-' if seed is None else seed}\0{code}".encode("utf-8", "surrogatepass")
    return PREFIX + hashlib.sha256(text).hexdigest()


class RedisAnswers:
    """The Redis tier of the kept answers; never raises, never waits long."""

    def __init__(self, url: str, timeout: float = 0.05, connect_timeout: float = 0.2) -> None:
        self._client: Any = aioredis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=connect_timeout, max_connections=32
        )
        self._timeout = timeout
        self._down_until = 0.0
        self._logged_at = -_LOG_EVERY
        self.reached = False  # whether Redis answered once (``/readyz``)
        self.failures = 0
        self._writes: set[asyncio.Task[None]] = set()

    def key(self, code: str, seed: int | str | None) -> str:
        return answer_key(code, seed)

    @property
    def up(self) -> bool:
        """Not in the pause after a failure."""
        return time.monotonic() >= self._down_until

    def _failed(self, exc: BaseException) -> None:
        self.failures += 1
        self._down_until = time.monotonic() + RETRY_AFTER
        now = time.monotonic()
        if now - self._logged_at >= _LOG_EVERY:
            self._logged_at = now
            logger.warning("redis unreachable (%s); answers come from this process for %g s", type(exc).__name__, 5)

    async def get(self, key: str) -> bytes | None:
        """The kept answer's bytes, or None (a miss, or Redis slow or away)."""
        if not self.up:
            return None
        try:
            value = await asyncio.wait_for(self._client.get(key), self._timeout * 2)
        except Exception as exc:
            self._failed(exc)
            return None
        self.reached = True
        return value if isinstance(value, bytes) else None

    async def _set(self, key: str, body: bytes) -> None:
        try:
            await asyncio.wait_for(self._client.set(key, body, nx=True), 1.0)
            self.reached = True
        except Exception as exc:
            self._failed(exc)

    def put(self, key: str, body: bytes) -> None:
        """Write ``body`` under ``key`` in the background (``SET NX``: the first writer wins; no expiry: Redis's
        LRU decides)."""
        if not self.up:
            return
        task = asyncio.ensure_future(self._set(key, body))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def ping(self) -> bool:
        """Whether Redis answers now (``/readyz``)."""
        try:
            await asyncio.wait_for(self._client.ping(), 0.5)
        except Exception as exc:
            self._failed(exc)
            return False
        self.reached = True
        self._down_until = 0.0
        return True

    async def close(self) -> None:
        for task in list(self._writes):
            task.cancel()
        try:
            await self._client.aclose()
        except Exception:  # closing a pool whose server is gone
            pass

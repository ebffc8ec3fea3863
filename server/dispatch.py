"""Which waiting run gets the next free worker: the one of the client that has cost the workers least lately.

The pool (``server/isolation.py``) hands a run to a worker only when one is free, so runs wait here, not in a
first-come queue where a student's 5 ms run would wait behind a row of attackers' 4.5 s ones. Each client (address)
is charged what its runs cost beyond a short run's ``ALLOWANCE`` (seconds of a worker), and the charge halves every
``HALF_LIFE`` seconds. A client is *costly* when its charge is over ``COSTLY`` seconds or when its runs typically
take longer than ``LONG_RUN`` (a moving average of their lengths: one 4.5 s run is enough, where the charge needs a
few). A free worker goes to the waiting run of a client that is not costly first, then to the one whose client has
the smallest charge (first come among equals). A costly client is held to ``workers - reserve`` workers at once:
the reserved workers are always there for the runs of everybody else, so however many long runs some clients send,
a short run from anyone else starts at once. (Measured with benchmarks/load.py's attackers: clients whose streams
hang up after a second, or whose ``/api/grad`` runs take 1-4 s on a busy machine, stayed under ``COSTLY`` and took
the reserved workers; a student's run then waited up to 3.5 s for one.)

Example::

    dispatch = FairDispatch(workers=12, reserve=3)
    await dispatch.acquire("203.0.113.1")      # waits for a worker this client may take
    ...                                        # the run
    dispatch.release("203.0.113.1", seconds=0.004)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time

ALLOWANCE = 0.25  # seconds of a run that cost nothing (a lesson runs in milliseconds)
HALF_LIFE = 20.0  # seconds for a client's charge to halve
COSTLY = 4.0  # charge (seconds) past which a client's runs stay out of the reserved workers
LONG_RUN = 0.5  # seconds: a client whose runs typically take longer stays out of them too
_FOLLOW = 0.3  # weight of a client's last run in its typical run length


class FairDispatch:
    """Free workers to the cheapest clients' runs first, with ``reserve`` workers kept from costly clients."""

    def __init__(self, workers: int, reserve: int) -> None:
        self.workers = workers
        self.reserve = min(reserve, workers - 1) if workers > 1 else 0
        self.busy = 0
        self._charges: dict[str, tuple[float, float]] = {}  # client -> (charge, when)
        self._typical: dict[str, float] = {}  # client -> the typical length of its runs (seconds)
        self._waiting: list[tuple[bool, float, int, asyncio.Future[None], str]] = []
        self._order = itertools.count()

    def charge(self, client: str, now: float | None = None) -> float:
        """The client's cost of late, in worker-seconds beyond the allowance, decayed."""
        charge, when = self._charges.get(client, (0.0, 0.0))
        if not charge:
            return 0.0
        now = time.monotonic() if now is None else now
        return charge * math.exp2(-(now - when) / HALF_LIFE)

    def costly(self, client: str) -> bool:
        """Is ``client`` kept out of the reserved workers (charged over ``COSTLY``, or its runs are long)?"""
        return self.charge(client) > COSTLY or self._typical.get(client, 0.0) > LONG_RUN

    def _may_start(self, client: str) -> bool:
        limit = self.workers - (self.reserve if self.costly(client) else 0)
        return self.busy < limit

    async def acquire(self, client: str) -> None:
        """Wait for a worker ``client`` may take now; the caller then runs and calls ``release``."""
        if not self._waiting and self._may_start(client):
            self.busy += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (self.costly(client), self.charge(client), next(self._order), waiter, client))
        self._wake()  # a cheap run may start past costly ones held back by the reserve
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # given a worker just as it was cancelled: give it back
                self.busy -= 1
                self._wake()
            raise

    def release(self, client: str, seconds: float) -> None:
        """The run of ``client`` that took ``seconds`` of a worker has ended: charge it, and wake the next."""
        self.busy -= 1
        typical = self._typical.get(client)
        self._typical[client] = seconds if typical is None else typical + _FOLLOW * (seconds - typical)
        cost = seconds - ALLOWANCE
        if cost > 0:
            now = time.monotonic()
            self._charges[client] = (self.charge(client, now) + cost, now)
            if len(self._charges) > 10_000:  # forget the clients whose charge has faded
                self._charges = {c: v for c, v in self._charges.items() if self.charge(c, now) > 0.01}
        if len(self._typical) > 10_000:  # forget the clients of short runs (they start as any new client)
            self._typical = {c: t for c, t in self._typical.items() if c in self._charges}
        self._wake()

    def _wake(self) -> None:
        while self._waiting:
            *_, waiter, client = self._waiting[0]
            if waiter.done():  # cancelled while waiting
                heapq.heappop(self._waiting)
                continue
            if not self._may_start(client):
                return  # the cheapest waiting client may not start: nobody costlier may either
            heapq.heappop(self._waiting)
            self.busy += 1
            waiter.set_result(None)

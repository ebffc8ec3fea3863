"""server/dispatch.py: a free worker goes to the waiting run of the client that cost the workers least lately, and a
costly client never takes the reserved workers (issue 9: no client can hold what is not its own)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from server.dispatch import COSTLY, LONG_RUN, FairDispatch

T = TypeVar("T")


def _run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``scenario()`` on a fresh event loop in a thread of its own: in ``make test`` the browser tests'
    Playwright keeps an event loop running in the main thread, where ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(scenario())).result(timeout=60)


def _started(task: asyncio.Task[None]) -> bool:
    return task.done() and not task.cancelled()


async def _make_costly(dispatch: FairDispatch, client: str) -> None:
    await dispatch.acquire(client)
    dispatch.release(client, seconds=COSTLY + 1)  # one run that held a worker for 5 s


def test_a_cheap_clients_run_goes_before_the_costly_ones_waiting() -> None:
    async def scenario() -> list[str]:
        dispatch = FairDispatch(workers=2, reserve=0)
        await _make_costly(dispatch, "hog")
        await dispatch.acquire("hog")
        await dispatch.acquire("hog")  # both workers busy
        order: list[str] = []

        async def run(client: str) -> None:
            await dispatch.acquire(client)
            order.append(client)

        waiting = [asyncio.ensure_future(run("hog")) for _ in range(3)]
        await asyncio.sleep(0)
        student = asyncio.ensure_future(run("student"))
        await asyncio.sleep(0)
        assert not _started(student)  # no worker free yet
        dispatch.release("hog", 4.5)
        await asyncio.sleep(0)
        assert order == ["student"]  # came last, starts first
        for _ in range(3):
            dispatch.release("hog", 4.5)
            await asyncio.sleep(0)
        await asyncio.gather(*waiting)
        return order

    assert _run(scenario) == ["student", "hog", "hog", "hog"]


def test_a_costly_client_leaves_the_reserve_to_everybody_else() -> None:
    async def scenario() -> None:
        dispatch = FairDispatch(workers=4, reserve=1)
        await _make_costly(dispatch, "hog")
        held = [asyncio.ensure_future(dispatch.acquire("hog")) for _ in range(4)]
        await asyncio.sleep(0)
        assert [_started(task) for task in held] == [True, True, True, False]  # 3 of 4: one is reserved
        student = asyncio.ensure_future(dispatch.acquire("student"))
        await asyncio.sleep(0)
        assert _started(student) and dispatch.busy == 4  # the reserved worker, at once
        held[3].cancel()
        await asyncio.sleep(0)
        dispatch.release("student", 0.004)
        assert dispatch.busy == 3  # the cancelled wait took nothing

    _run(scenario)


def test_a_new_client_may_use_every_worker_and_charges_fade() -> None:
    async def scenario() -> None:
        dispatch = FairDispatch(workers=3, reserve=1)
        for _ in range(3):
            await dispatch.acquire("new")  # no charge yet: the reserve is open to it
        assert dispatch.busy == 3
        dispatch.release("new", COSTLY + 1)
        assert dispatch.charge("new") > COSTLY
        future = 200.0 + max(when for _, when in dispatch._charges.values())
        assert dispatch.charge("new", now=future) < 0.01

    _run(scenario)


def test_one_long_run_makes_a_client_leave_the_reserve_and_short_runs_bring_it_back() -> None:
    async def scenario() -> None:
        dispatch = FairDispatch(workers=4, reserve=1)
        await dispatch.acquire("slow")
        dispatch.release("slow", seconds=LONG_RUN + 1)  # charged less than COSTLY, but its runs are long
        assert dispatch.charge("slow") < COSTLY and dispatch.costly("slow")
        held = [asyncio.ensure_future(dispatch.acquire("slow")) for _ in range(4)]
        await asyncio.sleep(0)
        assert [_started(task) for task in held] == [True, True, True, False]
        held[3].cancel()
        for _ in range(3):
            dispatch.release("slow", seconds=0.01)
        for _ in range(2):
            await dispatch.acquire("slow")
            dispatch.release("slow", seconds=0.01)
        assert not dispatch.costly("slow")  # five short runs since: its runs are short again

    _run(scenario)

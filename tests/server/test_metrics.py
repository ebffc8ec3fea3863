"""Issue 15: ``/metrics`` over HTTP against a real server: a run, an error, a limit hit, a kept answer and a worker
replaced each move their own counter and nothing else; with several server processes the counts are the sum of
all of them (prometheus_client's multiprocess mode)."""

from __future__ import annotations

import time
import uuid

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import running_server

RUN_OUTCOMES = ("ok", "error", "limit", "killed", "kept")


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def runs(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> dict[str, float]:
    return {outcome: samples.get(("gradtrace_runs_total", (("outcome", outcome),)), 0.0) for outcome in RUN_OUTCOMES}


def limit_hits(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], limit: str) -> float:
    return samples.get(("gradtrace_limit_hits_total", (("limit", limit),)), 0.0)


def post(url: str, code: str, seed: int | None = None) -> dict[str, object]:
    body: dict[str, object] = {"code": code} if seed is None else {"code": code, "seed": seed}
    response = httpx.post(f"{url}/api/run", json=body, timeout=30)
    assert response.status_code == 200
    answer: dict[str, object] = response.json()
    return answer


def moved(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {key: after[key] - before[key] for key in after if after[key] != before[key]}


def test_a_run_a_limit_hit_and_a_kept_answer_each_move_their_own_counter() -> None:
    env = {"GRADTRACE_WORKERS": "1", "GRADTRACE_MAX_STEPS": "20000", "GRADTRACE_WORKER_MAX_RUNS": "3"}
    with running_server(env) as url:
        start = scrape(url)
        assert set(runs(start)) == set(RUN_OUTCOMES)  # every outcome's series is there from the start
        assert ("gradtrace_pending_runs", ()) in start and ("gradtrace_worker_replacements_total", ()) in start

        post(url, f"print('{uuid.uuid4().hex}')")
        one_run = scrape(url)
        assert moved(runs(start), runs(one_run)) == {"ok": 1}
        count = ("gradtrace_run_seconds_count", ())
        assert one_run[count] == start[count] + 1

        answer = post(url, "while True:\n    pass\n")
        assert answer["error"] is not None and "step limit" in str(answer["error"])
        limited = scrape(url)
        assert moved(runs(one_run), runs(limited)) == {"limit": 1}
        assert limit_hits(limited, "steps") == limit_hits(one_run, "steps") + 1

        post(url, "raise ValueError('no')\n")
        errored = scrape(url)
        assert moved(runs(limited), runs(errored)) == {"error": 1}

        code = f"import torch\nprint(torch.rand(2))  # {uuid.uuid4().hex}\n"
        first = post(url, code, seed=7)
        between = scrape(url)
        assert moved(runs(errored), runs(between)) == {"ok": 1}  # ran: kept for next time, not given again yet
        again = post(url, code, seed=7)
        assert again == first
        kept = scrape(url)
        assert moved(runs(between), runs(kept)) == {"kept": 1}
        assert kept[count] == between[count]  # no worker ran it

        # The one worker has served 4 runs with GRADTRACE_WORKER_MAX_RUNS=3: replaced once after its third.
        replaced = ("gradtrace_worker_replacements_total", ())
        assert kept[replaced] == start[replaced] + 1
        assert kept[("gradtrace_pending_runs", ())] == 0


def test_a_worker_killed_with_its_run_is_counted() -> None:
    env = {
        "GRADTRACE_WORKERS": "1",
        "GRADTRACE_MAX_STEPS": "100000000",
        "GRADTRACE_MAX_SECONDS": "30",
        "GRADTRACE_RUN_CPU_SECONDS": "30",
        "GRADTRACE_RUN_DEADLINE_SECONDS": "1",
    }
    with running_server(env) as url:
        before = scrape(url)
        answer = post(url, "while True:\n    pass\n")
        assert "wall-clock limit" in str(answer["error"])
        after = scrape(url)
    assert moved(runs(before), runs(after)) == {"killed": 1}
    assert limit_hits(after, "deadline") == limit_hits(before, "deadline") + 1
    replaced = ("gradtrace_worker_replacements_total", ())
    assert after[replaced] == before[replaced] + 1


def test_several_server_processes_share_one_count() -> None:
    """``--processes 2`` (here ``GRADTRACE_PROCESSES``): both processes answer runs, each keeps its own ``/healthz``
    counts, and whichever process answers a scrape counts the runs of both."""
    env = {"GRADTRACE_WORKERS": "1", "GRADTRACE_PROCESSES": "2"}
    with running_server(env) as url:
        before = runs(scrape(url))
        sent = 0
        kept_by: dict[int, int] = {}
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            for _ in range(4):
                with httpx.Client(timeout=30) as fresh:  # a new connection each: the kernel picks the process
                    response = fresh.post(f"{url}/api/run", json={"code": f"print({sent})  # {uuid.uuid4().hex}"})
                assert response.status_code == 200
                sent += 1
            for _ in range(12):
                health = httpx.get(f"{url}/healthz", timeout=10).json()
                kept_by[health["process"]] = health["kept"]
            if len(kept_by) == 2 and sum(kept_by.values()) == sent and all(kept_by.values()):
                break
        scrapes = [runs(scrape(url)) for _ in range(6)]
    assert len(kept_by) == 2 and all(kept_by.values()), f"both processes ran programs: {kept_by}"
    assert sum(kept_by.values()) == sent
    assert all(moved(before, each) == {"ok": sent} for each in scrapes)

"""Cost of isolation: requests per second of ``POST /api/run`` on lesson 1 against a bare FastAPI endpoint that
returns a response of the same size, side by side in one run. Lesson 1 is measured twice: sent again and again
as it is (after the first run, the server gives its kept answer: ``server/answers.py``), and with a new last line
each time (``# request n``), so that every request runs in a worker: the cost of isolation itself.

Run: ``.venv/bin/python benchmarks/throughput.py [--seconds 6] [--slices 6] [--concurrency 8]``. Both servers run
as real uvicorn processes on loopback; the client is a bounded asyncio httpx loop (it stops by itself). The two
are measured in alternating slices (A, B, A, B, ...), so that a change in the machine's load during the run
(other processes on a shared machine) weighs on both alike. It also reports the CPU time each request cost in the
server process, in the worker processes and in the client, which moves less with the machine's load than req/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.lessons import LESSONS  # noqa: E402 - after the sys.path line that makes the project importable
from tests.conftest import start_server  # noqa: E402 - after the sys.path line above

KEPT, FRESH, BARE = "/api/run, same code", "/api/run, new code", "bare FastAPI"
FRESH_ONE, INPROC = "/api/run, new code, 1 worker", "unisolated in-process, new code"


async def _hammer(url: str, code: str, seconds: float, concurrency: int, fresh: bool = False) -> tuple[int, int]:
    """Requests answered in ``seconds`` and how many failed; with ``fresh``, each request's code is new."""
    done = errors = 0
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:

        async def worker() -> None:
            nonlocal done, errors
            while time.monotonic() < deadline:
                text = f"{code}# request {time.monotonic_ns()}\n" if fresh else code
                response = await client.post("/api/run", json={"code": text})
                done += 1
                errors += response.status_code != 200 or response.json().get("error") is not None

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return done, errors


def _cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds used so far by the server process, by its worker processes (those alive now), by this client."""
    server = psutil.Process(pid)
    workers = 0.0
    for child in server.children(recursive=True):
        try:
            times = child.cpu_times()
            workers += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    times = server.cpu_times()
    return times.user + times.system, workers, time.process_time()


def _start_bare(body: bytes) -> tuple[subprocess.Popen[bytes], str]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as file:
        file.write(body)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "bare_app.py"), file.name, str(port)])
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("bare server did not start")


def _start_inprocess(workers: int) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    script = ROOT / "benchmarks" / "inprocess_app.py"
    proc = subprocess.Popen([sys.executable, str(script), str(port), str(workers)], cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("in-process server did not start")


def measure(seconds: float, slices: int, concurrency: int, workers: int, env: dict[str, str]) -> dict[str, Any]:
    """Requests per second of each server, measured in alternating slices, and the CPU each request cost."""
    code = LESSONS[0].code
    started: list[subprocess.Popen[bytes]] = []
    try:
        ours, ours_url = start_server({"GRADTRACE_WORKERS": str(workers), **env})
        started.append(ours)
        one, one_url = start_server({"GRADTRACE_WORKERS": "1", **env})
        started.append(one)
        body = httpx.post(f"{ours_url}/api/run", json={"code": code}, timeout=30).content
        bare, bare_url = _start_bare(body)
        started.append(bare)
        inproc, inproc_url = _start_inprocess(workers)
        started.append(inproc)
        servers = {KEPT: ours_url, FRESH: ours_url, FRESH_ONE: one_url, BARE: bare_url, INPROC: inproc_url}
        processes = {KEPT: ours, FRESH: ours, FRESH_ONE: one, BARE: bare, INPROC: inproc}
        fresh = {FRESH, FRESH_ONE, INPROC}
        counts = {name: [0, 0] for name in servers}
        cpu = {name: [0.0, 0.0, 0.0] for name in servers}  # server process, its workers, this client
        for name, url in servers.items():
            asyncio.run(_hammer(url, code, 1.0, concurrency, name in fresh))  # warm up
        piece = seconds / slices
        for _ in range(slices):
            for name, url in servers.items():
                before = _cpu_seconds(processes[name].pid)
                n, errors = asyncio.run(_hammer(url, code, piece, concurrency, name in fresh))
                after = _cpu_seconds(processes[name].pid)
                counts[name][0] += n
                counts[name][1] += errors
                for i in range(3):
                    cpu[name][i] += after[i] - before[i]
    finally:
        for proc in started:
            proc.terminate()
    rates = {name: n / seconds for name, (n, _) in counts.items()}
    return {
        "workers": workers,
        "response_bytes": len(body),
        "servers": {
            name: {
                "req_per_s": rates[name],
                "errors": counts[name][1],
                "cpu_ms_per_request": [c / max(counts[name][0], 1) * 1e3 for c in cpu[name]],
            }
            for name in servers
        },
        "ratios": {
            "new code / unisolated in-process": rates[FRESH] / rates[INPROC],
            "kept answers / bare": rates[KEPT] / rates[BARE],
            "new code / bare": rates[FRESH] / rates[BARE],
            f"{workers} workers / 1 worker (new code)": rates[FRESH] / rates[FRESH_ONE],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=6.0, help="total measuring time per server")
    parser.add_argument("--slices", type=int, default=6, help="alternating slices per server")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gradtrace's workers, and the in-process app's")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for gradtrace's server (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (for benchmarks/report.py)")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    result = measure(args.seconds, args.slices, args.concurrency, args.workers, env)
    if args.json:
        print(json.dumps(result))
        return
    for name, row in result["servers"].items():
        server, workers, client = row["cpu_ms_per_request"]
        print(f"{name:<34}{row['req_per_s']:>9.0f} req/s  errors: {row['errors']}  ({result['response_bytes']} B)")
        print(f"{'':<34}CPU per request: server {server:.2f} ms, workers {workers:.2f} ms, client {client:.2f} ms")
    for name, ratio in result["ratios"].items():
        print(f"ratio {name}: {ratio:.2f}x")


if __name__ == "__main__":
    main()

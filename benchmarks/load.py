"""Load: normal users and attackers side by side against one real server.

Eight attacker clients send, back to back, endless loops, huge tensors, programs that fill the memory budget and
programs that keep the CPU busy for the whole time limit; a ninth client sends lesson 1 again and again, as a
student would, each time with a new last line (``# run n``), so that every one of its runs goes to a worker (the
server keeps the answers of reproducible runs for code sent again: ``server/answers.py``). Reported per round: the student's latencies (p50, p99, worst; the target is a worst under 1 s with
every run correct), errors, what the attackers got, the server's peak memory (the server and its workers, RSS and
PSS), and its memory after the round once idle, which must come back to the baseline (measured after a warm-up
round, once each worker has reached its working size) round after round: no leak.

Run: ``.venv/bin/python benchmarks/load.py [--rounds 3] [--seconds 20] [--attackers 8] [--warmup 40]``. Loopback only; every
loop is bounded by ``--seconds``; the server is started and stopped by the script.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.lessons import LESSONS  # noqa: E402
from tests.conftest import start_server  # noqa: E402

LESSON_1 = LESSONS[0].code
ATTACKS = [
    "while True:\n    pass",
    "import torch\nx = torch.zeros(10**6, 10**6)",
    "import torch\nx = torch.ones(10**6)\nkeep = []\nfor i in range(100):\n    keep.append(x * 2)",
    "import torch\nx = torch.randn(400, 400)\nwhile True:\n    y = x @ x",
    "x = 2 ** 10 ** 10",
    "keep = [[0] * 10**6 for _ in range(1000)]",
    "import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(300000):\n    y = y * 1.0",
    "def f():\n    return f()\nwhile True:\n    try:\n        f()\n    except RecursionError:\n        pass",
]


class Memory:
    """Samples the RSS and PSS of the server and its worker processes in a background thread."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak_rss = self.peak_pss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def server_rss(self) -> int:
        """The server process alone (without its workers)."""
        return int(self.root.memory_info().rss)

    def now(self) -> tuple[int, int]:
        rss = pss = 0
        for proc in [self.root, *self.root.children(recursive=True)]:
            try:
                info = proc.memory_full_info()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            rss += info.rss
            pss += getattr(info, "pss", info.rss)
        return rss, pss

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            rss, pss = self.now()
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)

    def __enter__(self) -> "Memory":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


async def _round(url: str, seconds: float, attackers: int) -> dict[str, object]:
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors: list[str] = []
    attacks: dict[str, int] = {}
    limits = httpx.Limits(max_connections=attackers + 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:

        async def student() -> None:
            n = 0
            while time.monotonic() < deadline:
                start = time.monotonic()
                n += 1
                try:
                    response = await client.post("/api/run", json={"code": f"{LESSON_1}# run {n}\n"})
                    body = response.json()
                    if response.status_code != 200 or body["error"] is not None or "tensor(" not in body["stdout"]:
                        errors.append(f"{response.status_code} {str(body)[:120]}")
                except httpx.HTTPError as exc:
                    errors.append(repr(exc))
                latencies.append(time.monotonic() - start)
                await asyncio.sleep(0.05)

        async def attacker(k: int) -> None:
            i = k
            while time.monotonic() < deadline:
                try:
                    response = await client.post("/api/run", json={"code": ATTACKS[i % len(ATTACKS)]})
                    error = response.json().get("error") if response.status_code == 200 else None
                    outcome = f"{response.status_code} {error['type'] if error else 'ok'}"
                except httpx.HTTPError as exc:
                    outcome = type(exc).__name__
                attacks[outcome] = attacks.get(outcome, 0) + 1
                i += 1

        await asyncio.gather(student(), *(attacker(k) for k in range(attackers)))
    latencies.sort()
    return {
        "runs": len(latencies),
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "worst": latencies[-1],
        "errors": errors,
        "attacks": attacks,
    }


def _settle(memory: Memory, url: str) -> tuple[int, int]:
    """Memory once the server is idle again (after a few normal runs)."""
    for _ in range(3):
        httpx.post(f"{url}/api/run", json={"code": LESSON_1}, timeout=30)
    time.sleep(2.0)
    return memory.now()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attackers", type=int, default=8)
    parser.add_argument("--warmup", type=float, default=40.0, help="seconds of attacks before the baseline")
    args = parser.parse_args()
    proc, url = start_server({"GRADTRACE_RATE_LIMIT": ""})  # every client is 127.0.0.1 here
    mib = 2**20
    ok = True
    try:
        with Memory(proc.pid) as memory:
            # Warm-up: each worker runs the attacks a few times and reaches its working size (the heap of a worker
            # that ran a 100,000-node graph stays ~20 MiB bigger, fragmented, but no bigger after more such runs).
            asyncio.run(_round(url, args.warmup, args.attackers))
            base_rss, base_pss = _settle(memory, url)
            print(f"baseline: RSS {base_rss / mib:.0f} MiB, PSS {base_pss / mib:.0f} MiB (server + workers)")
            for n in range(1, args.rounds + 1):
                memory.peak_rss = memory.peak_pss = 0
                result = asyncio.run(_round(url, args.seconds, args.attackers))
                rss, pss = _settle(memory, url)
                print(
                    f"round {n}: student {result['runs']} runs, p50 {result['p50'] * 1000:.0f} ms, "
                    f"p99 {result['p99'] * 1000:.0f} ms, worst {result['worst'] * 1000:.0f} ms, "
                    f"errors {len(result['errors'])} | attackers {result['attacks']} | "
                    f"peak RSS {memory.peak_rss / mib:.0f} MiB, PSS {memory.peak_pss / mib:.0f} MiB | "
                    f"after: RSS {rss / mib:.0f} MiB, PSS {pss / mib:.0f} MiB (server process {memory.server_rss() / mib:.0f} MiB)"
                )
                for error in result["errors"][:5]:
                    print("   error:", error)
                ok &= result["worst"] < 1.0 and not result["errors"]  # type: ignore[operator]
                ok &= pss < base_pss * 1.15
        print("PASS: worst < 1 s, no errors, memory back to baseline" if ok else "FAIL")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

"""Write ``truth/<name>.out`` for each corpus program from real PyTorch 2.13 (CPU), twice per program in fresh
processes; a program whose two runs differ is reported and gets no truth.

    python tests/realcourse/make_truth.py            # every program
    python tests/realcourse/make_truth.py NAME ...   # some

Each run is a fresh ``python`` process with ``OMP_NUM_THREADS=1`` and ``torch.set_num_threads(1)``: one thread is
what gradtrace's engine reproduces (PyTorch's intra-op threads split long sums and matrix products into chunks
whose order depends on the thread count; see README.md beside this file for what we measured).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.realcourse.corpus import PROGRAMS, TRUTH, Outcome, first_line, names

JOBS = int(os.environ.get("JOBS", "2"))  # programs at once (each runs twice, in two processes at once)
# Runs one program (trusted corpus code, never user input) under real torch and prints its stdout, then the error.
_RUNNER = r"""
import contextlib, io, sys, warnings
import torch
torch.set_num_threads(int(sys.argv[2]))
code = open(sys.argv[1]).read()
buffer = io.StringIO()
error = None
with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        exec(compile(code, sys.argv[1], "exec"), {"__name__": "__main__"})
    except Exception as exc:
        error = (type(exc).__name__, str(exc))
sys.stdout.write(buffer.getvalue())
if error is not None:
    sys.stdout.write("\0" + error[0] + "\0" + error[1])
"""


def run_torch(path: Path, threads: int = 1) -> Outcome:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path), str(threads)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=path.parent,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{path.name}: the runner itself failed:\n{done.stderr}")
    stdout, _, rest = done.stdout.partition("\0")
    error = None
    if rest:
        kind, _, message = rest.partition("\0")
        error = f"{kind}: {first_line(message)}"
    return Outcome(stdout, error)


def _twice(name: str) -> tuple[str, Outcome, Outcome]:
    path = PROGRAMS / f"{name}.py"
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(run_torch, [path, path])
    return name, first, second


def main(argv: list[str]) -> int:
    TRUTH.mkdir(parents=True, exist_ok=True)
    unstable = []
    with ThreadPoolExecutor(JOBS) as pool:
        done = list(pool.map(_twice, argv or names()))
    for name, first, second in done:
        if first != second:
            unstable.append(name)
            print(f"{name}: two runs differ; no truth written")
            continue
        (TRUTH / f"{name}.out").write_text(first.render())
        print(f"{name}: {len(first.stdout.splitlines())} lines" + (f", raises {first.error}" if first.error else ""))
    return 1 if unstable else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

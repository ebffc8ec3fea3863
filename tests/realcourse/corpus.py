"""The real-course corpus: public PyTorch course programs, run on gradtrace's engine and compared with PyTorch 2.13.

The programs and their truth are committed beside this file (see README.md): ``corpus/programs/<name>.py`` (a
header comment: source repository, path and commit, license, every change) and ``corpus/truth/<name>.out``
(``make_truth.py`` writes it: PyTorch's stdout, then ``!! Type: first line of the message`` when it raises).
``$GRADTRACE_REALCOURSE`` points the harness at another corpus of the same layout.

A program passes when the engine prints the same stdout byte for byte and raises the same error (type and first
line of the message), or none where PyTorch raises none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("GRADTRACE_REALCOURSE", HERE / "corpus"))
PROGRAMS = CORPUS / "programs"
TRUTH = CORPUS / "truth"
KNOWN_FAILURES = HERE / "known_failures.txt"
SCORE = HERE / "SCORE"
ERROR_MARK = "!! "
# The engine's own 4.5 s wall-clock limit is what a learner meets; under a loaded test machine (2 cores, several
# jobs) it would make the corpus flaky, so the corpus allows 60 s (a program past it counts as a limit hit; the polynomial
# fits take 3-9 s each on a machine running 8 jobs on 2 cores, the longest training loops 20 s at a load of 15) and
# score.py reports each time. The step limit is the learner's.
MAX_SECONDS = 60.0


@dataclass(frozen=True)
class Outcome:
    """What one run printed, and its error as ``"Type: first line"`` (None when it ended normally)."""

    stdout: str
    error: str | None

    def render(self) -> str:
        return self.stdout + (f"{ERROR_MARK}{self.error}\n" if self.error is not None else "")


def first_line(message: str) -> str:
    message = message.strip()
    return message.split("\n")[0] if message else ""


def names() -> list[str]:
    """Every program's name (its file stem), sorted."""
    return sorted(p.stem for p in PROGRAMS.glob("*.py"))


def source(name: str) -> str:
    return (PROGRAMS / f"{name}.py").read_text()


def truth(name: str) -> str:
    return (TRUTH / f"{name}.out").read_text()


def known_failures() -> dict[str, str]:
    """``name: reason`` per line of known_failures.txt (``#`` starts a comment)."""
    found: dict[str, str] = {}
    for line in KNOWN_FAILURES.read_text().splitlines():
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if line:
            name, _, reason = line.partition(":")
            found[name.strip()] = reason.strip()
    return found


def run_engine(code: str) -> Outcome:
    """The program on gradtrace's engine, as ``engine.run`` gives it to a learner (more time; see MAX_SECONDS)."""
    from threadpoolctl import threadpool_limits

    import engine
    from engine.sandbox.budget import Limits

    # One BLAS thread, as in the server's workers (server/isolation.py sets OPENBLAS_NUM_THREADS=1): numpy's float64
    # products then add in the order a learner's run gets, and threads on a shared machine do not change the digits
    with threadpool_limits(limits=1, user_api="blas"):
        result = engine.run(code, limits=Limits(max_seconds=MAX_SECONDS))
    err = result.error
    error = None if err is None else f"{err['type']}: {first_line(err['message'])}"
    return Outcome(result.stdout, error)

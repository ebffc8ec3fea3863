"""Run every corpus program on the engine and print, per program, whether it matches PyTorch, its time, and where it
first differs; then the score. ``python tests/realcourse/score.py [NAME ...]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.realcourse.corpus import names, run_engine, source, truth


def first_difference(got: str, expected: str) -> str:
    """The first line where two outputs differ, both sides, as ``line N: got … | torch …``."""
    got_lines, expected_lines = got.splitlines(), expected.splitlines()
    for i in range(max(len(got_lines), len(expected_lines))):
        g = got_lines[i] if i < len(got_lines) else "<end>"
        e = expected_lines[i] if i < len(expected_lines) else "<end>"
        if g != e:
            return f"line {i + 1}: got {g[:150]!r} | torch {e[:150]!r}"
    return "same lines (whitespace at the end?)"


def main(argv: list[str]) -> int:
    chosen = argv or names()
    exact = 0
    for name in chosen:
        started = time.perf_counter()
        got = run_engine(source(name)).render()
        seconds = time.perf_counter() - started
        expected = truth(name)
        ok = got == expected
        exact += ok
        print(
            f"{'ok  ' if ok else 'FAIL'} {seconds:6.2f}s {name}"
            + ("" if ok else f"\n      {first_difference(got, expected)}")
        )
    print(f"score: {exact}/{len(chosen)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

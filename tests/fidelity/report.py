"""``python -m tests.fidelity.report [filter]``: run the snippets and show each mismatch (a developer's tool)."""

from __future__ import annotations

import difflib
import sys

from tests.fidelity.harness import load_snippets, run_engine, run_torch


def main(pattern: str = "") -> int:
    bad = 0
    snippets = [s for s in load_snippets() if pattern in s.id]
    for s in snippets:
        want, got = run_torch(s.code), run_engine(s.code)
        if want == got:
            continue
        bad += 1
        print(f"=== {s.id}")
        if want.error != got.error:
            print(f"  error torch: {want.error}\n  error ours:  {got.error}")
        if want.stdout != got.stdout:
            diff = difflib.unified_diff(want.stdout.splitlines(), got.stdout.splitlines(), "torch", "ours", lineterm="")
            print("\n".join("  " + d for d in list(diff)[:40]))
    print(f"{len(snippets) - bad}/{len(snippets)} match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))

"""Each engine module stays small enough to read in one sitting (STYLE.md: split past ~400 lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MINE = sorted(
    p
    for p in [
        *ENGINE.glob("*.py"),
        *(ENGINE / "ops").glob("*.py"),
        *(ENGINE / "nn").glob("*.py"),
        *(ENGINE / "optim").glob("*.py"),
    ]
    if p.name not in ("runner.py", "run_state.py", "__init__.py")
)


@pytest.mark.parametrize("path", MINE, ids=[str(p.relative_to(ENGINE)) for p in MINE])
def test_module_is_small(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= 420, f"{path.name} has {lines} lines: split it"

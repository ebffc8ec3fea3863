"""Issue 10, item 4: the tools hold the line the code aims at, in ``make test``.

- ruff (pyproject.toml's rule set: pycodestyle, pyflakes, isort, pyupgrade, bugbear, simplify, builtins, unused
  noqa) reports nothing, and ``ruff format --check`` finds every file formatted;
- no ``noqa`` without its rule and a reason on the same line, no ``type: ignore`` without its error code;
- mypy --strict passes on the engine's core (floor 0 of docs/ARCHITECTURE.md; server/ is checked by
  tests/test_types.py), with the exceptions pyproject.toml's [tool.mypy] lists and explains.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# Floor 0 of docs/ARCHITECTURE.md (tests/test_architecture.py FLOORS): the numeric core.
CORE = [
    "engine/dtypes.py",
    "engine/run_state.py",
    "engine/size_device.py",
    "engine/graph.py",
    "engine/tensor.py",
    "engine/printing.py",
    "engine/arg_errors.py",
    "engine/grad_mode.py",
    "engine/autograd.py",
    "engine/random.py",
    "engine/numerics",
]


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / args[0]), *args[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    done = _tool("ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_file_is_formatted() -> None:
    done = _tool("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


_NOQA = re.compile(r"#\s*noqa\b(?P<codes>:\s*[A-Z]+[0-9]+(,\s*[A-Z]+[0-9]+)*)?(?P<rest>.*)")
_TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore\b(?P<codes>\[[^\]]+\])?")


def _python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / line for line in listed.stdout.split() if (ROOT / line).exists()]


def test_every_noqa_says_why_on_its_line() -> None:
    """A ``noqa`` names its rule and says why after it; a ``type: ignore`` names its error code."""
    bare = []
    for path in _python_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            noqa, ignore = _NOQA.search(line), _TYPE_IGNORE.search(line)
            reason = noqa.group("rest").strip(" #-:()") if noqa else ""
            if (noqa and (not noqa.group("codes") or len(reason) < 4)) or (ignore and not ignore.group("codes")):
                bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "noqa without a rule and a reason, or type: ignore without a code:\n" + "\n".join(bare)


def test_the_core_is_strictly_typed() -> None:
    done = _tool("mypy", "--strict", "--follow-imports=silent", *CORE)  # modules above the core: not yet
    assert done.returncode == 0, done.stdout + done.stderr

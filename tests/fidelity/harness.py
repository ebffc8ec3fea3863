"""Run one snippet through ``engine.run`` and through real PyTorch 2.13, and describe what each did.

A snippet file holds many snippets, each starting with a ``# %% name`` line. The oracle ``exec``s trusted snippet
code (never user input) with real torch, captures stdout, and reports an uncaught exception as its type, the first
line of its message and the snippet line that raised it, the same shape ``engine.run`` reports.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

SNIPPETS = Path(__file__).resolve().parent / "snippets"
SEED = 1234
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


@dataclass(frozen=True)
class Snippet:
    """One course-style program: its category (the file's name), its name and its code."""

    category: str
    name: str
    code: str

    @property
    def id(self) -> str:
        return f"{self.category}/{self.name}"


@dataclass(frozen=True)
class Outcome:
    """What a run printed and how it ended (``error`` is ``(type, first message line, line)`` or None)."""

    stdout: str
    error: tuple[str, str, int | None] | None


def load_snippets() -> list[Snippet]:
    """Every snippet of every ``snippets/<category>.py`` file, in file order."""
    found: list[Snippet] = []
    for path in sorted(SNIPPETS.glob("*.py")):
        name, lines = None, []  # type: tuple[str | None, list[str]]
        for line in path.read_text().splitlines() + ["# %% <end>"]:
            if line.startswith("# %% "):
                if name is not None:
                    found.append(Snippet(path.stem, name, "\n".join(lines).strip("\n") + "\n"))
                name, lines = line[5:].strip(), []
            else:
                lines.append(line)
    return found


def normalize(stdout: str) -> str:
    """Object addresses (``<MulBackward0 object at 0x7f…>``) differ between any two runs, even of PyTorch."""
    return _ADDRESS.sub(" at 0x?>", stdout)


def first_line(message: str) -> str:
    return message.strip().split("\n")[0] if message.strip() else ""


def run_engine(code: str) -> Outcome:
    import engine

    result = engine.run(code, seed=SEED)
    err = result.error
    error = None if err is None else (err["type"], first_line(err["message"]), err["line"])
    return Outcome(normalize(result.stdout), error)


def run_torch(code: str) -> Outcome:
    import torch

    torch.manual_seed(SEED)
    torch.set_grad_enabled(True)
    torch.set_printoptions(profile="default")
    buffer = io.StringIO()
    error = None
    with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})  # trusted test code only
        except Exception as exc:  # the snippet's own uncaught error is what we compare
            frames = [f for f in traceback.extract_tb(sys.exc_info()[2]) if f.filename == "<snippet>"]
            line = frames[-1].lineno if frames else None
            error = (type(exc).__name__, first_line(str(exc)), line)
    torch.set_grad_enabled(True)
    return Outcome(normalize(buffer.getvalue()), error)

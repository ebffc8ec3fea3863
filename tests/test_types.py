"""mypy --strict passes on the server (``server/``), as tests/test_tooling.py holds it for the engine's core.

The lessons (``server/lessons/*.py``) are left out: they are the learner's text, byte for byte, and call
``backward()`` as a learner does, not as a typed program would. Modules the server imports (the engine) are
followed but not judged here (``--follow-imports=silent``): the engine's floors have their own test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_server_is_strictly_typed() -> None:
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "mypy"),
            "--strict",
            "--follow-imports=silent",
            "--exclude",
            "server/lessons/",
            "server/",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr

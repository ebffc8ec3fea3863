"""End to end: the official "Learning PyTorch with Examples" polynomial fits print, digit for digit, what PyTorch
2.13 prints (every 100th full-precision loss of 2,000 steps and the fitted coefficients)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.sandbox.budget import Limits
from tests.fidelity.harness import SEED, normalize, run_torch

PROGRAMS = Path(__file__).resolve().parent / "programs"
# Lifted limits: the programs are long (2,000 steps on 2,000 points) and this machine is shared.
LONG = Limits(max_seconds=600, max_steps=50_000_000)


def run_engine_long(code: str) -> tuple[str, object]:
    import engine

    result = engine.run(code, seed=SEED, limits=LONG)
    return normalize(result.stdout), result.error


@pytest.mark.parametrize("name", ["polynomial_tensor", "polynomial_module"])
def test_polynomial_fit_prints_torch_digits(name: str) -> None:
    code = (PROGRAMS / f"{name}.py").read_text()
    theirs = run_torch(code)
    ours, error = run_engine_long(code)
    assert theirs.error is None and error is None, error
    assert len(theirs.stdout.splitlines()) == 21
    assert ours == theirs.stdout

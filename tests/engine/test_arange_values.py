"""torch.arange with float steps, bit for bit: PyTorch's kernel computes each ``start + step*i`` as one FMA in double
(``torch.arange(-8.0, 8.0, 0.1)`` holds 4.4409e-16 where 0 would be, so its print turns scientific, as in d2l's
activation plots)."""

from __future__ import annotations

import random

import pytest
import torch

import engine


def _ranges() -> list[tuple[float, float, float]]:
    rng = random.Random(7)
    picked = [(-8.0, 8.0, 0.1), (0.0, 1.0, 0.01), (-5.5, 1.0, 0.1), (1.5, -7.3, -0.013)]
    for _ in range(16):
        start = round(rng.uniform(-50, 50), 3)
        step = rng.choice([1, -1]) * round(10 ** rng.uniform(-3, 0.5), 4)
        picked.append((start, start + step * rng.randint(1, 400), step))
    return picked


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bounds", _ranges())
def test_float_arange_matches_torch_bit_for_bit(dtype: str, bounds: tuple[float, float, float]) -> None:
    s, e, st = bounds
    code = f"import torch\nprint(torch.arange({s!r}, {e!r}, {st!r}, dtype=torch.{dtype}).tolist())\n"
    assert engine.run(code).stdout == f"{torch.arange(s, e, st, dtype=getattr(torch, dtype)).tolist()}\n"


def test_arange_print_turns_scientific_as_in_torch() -> None:
    code = "import torch\nprint(torch.relu(torch.arange(-8.0, 8.0, 0.1))[78:83])\n"
    expected = f"{torch.relu(torch.arange(-8.0, 8.0, 0.1))[78:83]}\n"
    assert engine.run(code).stdout == expected

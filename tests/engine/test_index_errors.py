"""Advanced indexing whose index tensors do not broadcast together: PyTorch's IndexError, checked before bounds,
a mask counting as its number of true elements (the makemore lecture meets it at ``prob[torch.arange(32), Y]``)."""

from __future__ import annotations

import pytest
import torch

import engine

SETUP = "import torch\nx = torch.zeros(5, 6, 7)\n"
ERROR_CASES = [
    "x[torch.arange(3), torch.arange(4)]",
    "x[torch.tensor([9, 1, 2]), torch.arange(4)]",
    "x[[0, 1], :, [1, 2, 3]]",
    "x[torch.ones(5, dtype=torch.bool), torch.arange(4)]",
    "x[torch.zeros(2, 3, dtype=torch.long), torch.arange(4)]",
    "x[:, torch.zeros(2, 3, dtype=torch.long), torch.arange(4)]",
    "x[torch.arange(3), torch.arange(40)]",
    "x[torch.arange(3)[:, None], torch.arange(4)].shape",
    "x[torch.tensor(1), torch.arange(4)].shape",
]


def torch_outcome(code: str) -> tuple[str, str]:
    try:
        value = eval(code, {"torch": torch, "x": torch.zeros(5, 6, 7)})  # trusted test code only
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "ok", str(value)


@pytest.mark.parametrize("expr", ERROR_CASES)
def test_index_broadcast_errors_match_torch(expr: str) -> None:
    result = engine.run(SETUP + f"print({expr})")
    got = ("ok", result.stdout.strip()) if result.error is None else (result.error["type"], result.error["message"])
    assert got == torch_outcome(expr)

"""Advanced-indexing keys as PyTorch reads them: index tensors that do not broadcast together give PyTorch's
IndexError, checked before bounds, a mask counting as its number of true elements (the makemore lecture meets it at
``prob[torch.arange(32), Y]``); a ``range`` indexes as the list of its ints (``logprobs[range(n), Yb]``)."""

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
    "x[range(3), torch.tensor([0, 1, 2])]",
    "x[range(1, 5, 2)]",
    "x[:, range(0, 6, 2), [1, 2, 3]]",
    "x[range(6)]",
    "x[range(3), range(4)]",
    "x[range(0)].shape",
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


def test_range_key_writes_as_in_torch() -> None:
    code = "x = torch.zeros(3, 4)\nx[range(2), [1, 1]] = -1.0\nx[range(2, 3)] += 2\n"
    ns: dict = {"torch": torch}
    exec(code, ns)  # trusted test code only
    assert engine.run("import torch\n" + code + "print(x)").stdout == f"{ns['x']}\n"

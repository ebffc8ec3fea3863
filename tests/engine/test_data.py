"""engine/data.py against PyTorch: TensorDataset, DataLoader batches and shuffle order, random_split."""

from __future__ import annotations

import pytest

from tests.engine.helpers import run_ours, run_torch

PROGRAMS = [
    "loader = DataLoader(TensorDataset(X, y), batch_size=3, shuffle=True)\n"
    "for epoch in range(3):\n    for xb, yb in loader:\n        print(epoch, xb.view(-1).tolist(), yb.tolist())\n"
    "print(torch.rand(2))",
    "loader = DataLoader(TensorDataset(X, y), batch_size=4, drop_last=True)\nprint(len(loader))\n"
    "for xb, yb in loader:\n    print(xb.shape, yb)",
    "a, b = random_split(TensorDataset(X, y), [0.7, 0.3])\n"
    "print(len(a), len(b), [b[i][1].item() for i in range(len(b))])",
    "g = torch.Generator().manual_seed(3)\n"
    "print([yb.tolist() for _, yb in DataLoader(TensorDataset(X, y), batch_size=5, shuffle=True, generator=g)])",
    "print(TensorDataset(X, y)[2], len(TensorDataset(X)))",
]


@pytest.mark.parametrize("body", PROGRAMS)
def test_loading_matches_torch(body: str) -> None:
    code = (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset, random_split\n"
        "torch.manual_seed(11)\nX = torch.arange(10.0).view(10, 1)\ny = torch.arange(10)\n" + body + "\n"
    )
    assert run_ours(code) == run_torch(code)

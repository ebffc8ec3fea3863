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
    # batches of a TensorDataset, of a random_split Subset of one and of a learner's Dataset: values, dtypes, shapes
    "tr, va = random_split(TensorDataset(X * 1.5, y, y > 4), [7, 3])\n"
    "for b in DataLoader(tr, batch_size=3, shuffle=True):\n    print(b, [t.dtype for t in b])\n"
    "print(next(iter(DataLoader(va, batch_size=8))))\n"
    "print(next(iter(DataLoader(TensorDataset(X.view(10), y.double()), batch_size=4, shuffle=True))))",
    "class D(torch.utils.data.Dataset):\n    def __len__(self):\n        return 10\n"
    "    def __getitem__(self, i):\n        return X[i], y[i]\n"
    "print(list(DataLoader(D(), batch_size=4, shuffle=True)))",
    # torch.utils.data's submodules, as courses import from them
    "from torch.utils.data.dataset import random_split as rs, TensorDataset as TD, Subset, Dataset\n"
    "from torch.utils.data.dataloader import DataLoader as DL, default_collate\n"
    "a, b = rs(TD(X, y), [8, 2])\nprint(type(a).__name__, isinstance(a, Dataset), list(DL(b, batch_size=2)))\n"
    "print(default_collate([(1, 2.0), (3, 4.0)]))",
    # a tensor that requires grad: stacked row by row, as PyTorch (the batch's grad_fn is a StackBackward0)
    "w = torch.ones(10, 2, requires_grad=True)\nxb, = next(iter(DataLoader(TensorDataset(w), batch_size=3)))\n"
    "print(xb)",
    # indices out of range in a Subset: the row-by-row path raises PyTorch's error
    "from torch.utils.data import Subset\ntry:\n    print(list(DataLoader(Subset(TensorDataset(X), [1, 12]), batch_size=2)))\n"
    "except IndexError as e:\n    print('IndexError', e)",
]


@pytest.mark.parametrize("body", PROGRAMS)
def test_loading_matches_torch(body: str) -> None:
    code = (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset, random_split\n"
        "torch.manual_seed(11)\nX = torch.arange(10.0).view(10, 1)\ny = torch.arange(10)\n" + body + "\n"
    )
    assert run_ours(code) == run_torch(code)


def test_a_tensor_dataset_batch_costs_steps_by_batch_not_by_row() -> None:
    """A DataLoader over a TensorDataset gathers each batch with one index op per tensor: 10,000 batches of 16 rows
    (a 1,000-epoch course loop over 80 samples, twice over) stay under the step limit, where making every row a
    tensor (2 per row, 8 steps each) would pass it almost three times over."""
    import engine
    from engine.sandbox import Limits

    code = (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "loader = DataLoader(TensorDataset(torch.randn(80, 1), torch.randn(80, 1)), batch_size=16, shuffle=True)\n"
        "n = 0\nfor epoch in range(2000):\n    for xb, yb in loader:\n        n += 1\nprint(n)"
    )
    result = engine.run(code, limits=Limits(max_seconds=120))
    assert result.error is None, result.error
    assert result.stdout == "10000\n"

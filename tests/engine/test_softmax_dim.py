"""engine/numerics/softmax_dim.py against PyTorch 2.13 (one thread): softmax and log_softmax over a dimension other
than the last (the class dimension of an (N, C, H, W) map, dim 0 of a matrix), forward and backward, bit for bit;
and ``F.cross_entropy`` on maps printed at full precision.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.facade import make_modules
from engine.run_state import RunState, use_state
from engine.tensor import Tensor

CASES = [
    ((2, 3, 4, 5), 1),
    ((5, 4, 8, 8), 1),
    ((3, 7, 2), 1),
    ((2, 10, 33), 1),
    ((4, 6, 3), 0),
    ((7, 19), 0),
    ((2, 5, 17, 3), 2),
    ((1, 3, 100, 100), 1),
    ((2, 300, 250), 1),  # 128 KiB / 300 / 4 rounds to 96 positions: 3 chunks, the last with a scalar tail
    ((3, 2, 1, 31), 0),
]


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize(("shape", "dim"), CASES, ids=str)
def test_softmax_over_an_inner_dim_is_bit_exact(shape: tuple[int, ...], dim: int, name: str) -> None:
    rng = np.random.default_rng(sum(shape) + dim)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        tx = torch.tensor(x, requires_grad=True)
        want = getattr(torch, name)(tx, dim)
        want.backward(torch.tensor(g))
    finally:
        torch.set_num_threads(threads)
    F = make_modules()["torch.nn.functional"]
    with use_state(RunState()):
        ox = Tensor._make(x).requires_grad_(True)
        got = getattr(F, name)(ox, dim)
        got.backward(Tensor._make(g))
        assert np.array_equal(got._data, want.detach().numpy())
        assert np.array_equal(ox._grad._data, tx.grad.numpy())


def test_cross_entropy_on_maps_prints_like_torch() -> None:
    from tests.engine.helpers import run_ours, run_torch

    code = (
        "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "x = torch.randn(2, 3, 4, 5, requires_grad=True)\nt = torch.randint(0, 3, (2, 4, 5))\nt[0, 0, 0] = -100\n"
        "for kw in [{}, {'label_smoothing': 0.1}, {'weight': torch.tensor([1., 2., .5]), 'reduction': 'sum'}]:\n"
        "    loss = F.cross_entropy(x, t, **kw)\n    loss.backward()\n"
        "    print(loss.item(), x.grad.sum().item(), x.grad[1, 2, 3])\n    x.grad = None\n"
        "p = torch.randn(2, 3, 4, 5).softmax(1)\nprint(F.cross_entropy(x, p).item(), p.sum().item())\n"
    )
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        want = run_torch(code)
    finally:
        torch.set_num_threads(threads)
    assert run_ours(code) == want

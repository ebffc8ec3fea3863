"""Sums and means in PyTorch's exact order (bit-for-bit equal float32/float64 results)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.ops.summation import torch_mean, torch_sum

# (Above 32768 elements PyTorch splits a sum across threads, so its result depends on the machine's core count;
# the engine keeps the one-thread order.)
SHAPES = [(5,), (9,), (2, 3), (4, 8), (3, 17), (50, 100), (16, 2000), (100, 3), (3, 4, 5), (2, 40, 9), (32768,)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_sums_are_bit_exact(shape: tuple[int, ...], dtype: torch.dtype) -> None:
    torch.manual_seed(len(shape) * 100 + shape[0])
    x = torch.randn(*shape, dtype=dtype) * 10
    a = x.numpy()
    pairs = [(x.sum(), torch_sum(a, None, False)), (x.mean(), torch_mean(a, None, False))]
    for d in range(len(shape)):
        pairs.append((x.sum(d), torch_sum(a, (d,), False)))
        pairs.append((x.mean(d, keepdim=True), torch_mean(a, (d,), True)))
    if len(shape) >= 2:
        pairs.append((x.sum((0, 1)), torch_sum(a, (0, 1), False)))
        pairs.append((x.transpose(0, 1).sum(), torch_sum(a.swapaxes(0, 1), None, False)))
    for want, got in pairs:
        assert want.shape == got.shape
        assert np.array_equal(want.numpy(), got)


def test_polynomial_fit_loss_items_match_torch() -> None:
    from tests.engine.helpers import run_ours, run_torch

    code = (
        "import torch\nimport math\ntorch.manual_seed(0)\nx = torch.linspace(-math.pi, math.pi, 200)\n"
        "y = x * 0.5 - 0.1 * x ** 3\nw = torch.randn(4, requires_grad=True)\n"
        "for t in range(30):\n    y_pred = w[0] + w[1] * x + w[2] * x ** 2 + w[3] * x ** 3\n"
        "    loss = (y_pred - y).pow(2).sum()\n    loss.backward()\n    with torch.no_grad():\n"
        "        w -= 1e-4 * w.grad\n        w.grad = None\n    print(loss.item())\nprint(w)\n"
    )
    assert run_ours(code) == run_torch(code)


@pytest.mark.parametrize("n, c", [(1, 3), (16, 10), (257, 4), (1000, 40)])
def test_cross_entropy_is_bit_exact(n: int, c: int) -> None:
    from engine.ops import nnops
    from engine.run_state import RunState, use_state
    from engine.tensor import Tensor

    torch.manual_seed(n + c)
    x = torch.randn(n, c) * 3
    t = torch.randint(0, c, (n,))
    with use_state(RunState()):
        ours = [
            nnops.cross_entropy(Tensor._make(x.numpy().copy()), Tensor._make(t.numpy()), reduction=r).item()
            for r in ("mean", "sum")
        ]
    want = [torch.nn.functional.cross_entropy(x, t, reduction=r).item() for r in ("mean", "sum")]
    assert ours == want

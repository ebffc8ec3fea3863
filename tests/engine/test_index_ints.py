"""Integers beside index arrays select first, as in PyTorch (``x[0, :, [0, 1]]`` is (5, 2), not numpy's (2, 5)):
shapes, values, gradients and the SelectBackward0 under IndexBackward0 compared with PyTorch 2.13, on the CPU and
on the meta device."""

from __future__ import annotations

from tests.engine.helpers import run_ours, run_torch

PROGRAM = """
import torch
torch.manual_seed(0)
x = torch.rand(4, 5, 6, requires_grad=True)
keys = [(0, slice(None), [0, 1]), (1, [0, 2]), ([0, 1], 2), (slice(None), 1, [0, 2]), (Ellipsis, 2, [1, 3]),
        (2, Ellipsis, [0, 5]), (None, 1, [0, 2]), (1, None, [3, 1]), ([[0], [1]], 0, [1, 2]),
        (torch.tensor([True, False, True, False]), 3), (-1, slice(1, 3), torch.tensor([0, 0]))]
for i, k in enumerate(keys):
    y = x[k]
    print(y.shape, y.grad_fn.name())
    if i < 6:
        print([n.name() for n, _ in y.grad_fn.next_functions if n is not None])
    print(y)
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
print(x.grad)
m = torch.rand(4, 5, 6, device="meta")
print([tuple(m[k].shape) for k in keys if not isinstance(k[0], torch.Tensor)])
try:
    x[7, :, [0, 1]]
except IndexError as e:
    print(e)
"""


def test_ints_beside_index_arrays_select_first() -> None:
    assert run_ours(PROGRAM) == run_torch(PROGRAM)

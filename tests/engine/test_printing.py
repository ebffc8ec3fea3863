"""``str(tensor)`` must be exactly PyTorch's, across shapes, magnitudes, dtypes and suffixes."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from engine.tensor import Tensor

rng = np.random.default_rng(1)


def _arrays() -> list[np.ndarray]:
    arrs: list[np.ndarray] = [
        np.array(16.0),
        np.array(-0.5),
        np.array(0.0),
        np.array(1e-5),
        np.array(123456789.0),
        np.array(2.5),
        np.array([2.0, 4.0, 6.0]),
        np.array([1.0, 2.5]),
        np.array([0.1, 0.2, 0.3]),
        np.array([1e-5, 1.0]),
        np.array([1e10, 1.0]),
        np.array([1.0, 1001.0]),
        np.array([1.0, 999.0]),
        np.array([-1.0, 0.0, 1.0]),
        np.array([np.nan, 1.0, np.inf]),
        np.array([np.nan, -np.inf]),
        np.array([0.0, -0.0]),
        np.array([[1.0, 2.0], [3.0, 4.0]]),
        np.zeros((2, 0)),
        np.zeros((0,)),
        np.array([123.456, -0.001]),
        np.arange(2000, dtype=np.float64) / 7,
        np.arange(1500).reshape(30, 50) * 1.0,
        np.ones((4, 300)),
        np.array([1, 2, 3]),
        np.array([[10, -200], [3, 4]]),
        np.array([True, False]),
        np.array(7),
        np.arange(1200).reshape(2, 3, 200),
        np.array([1e-3, 1e3]),
        np.array([5e-5, 1.0]),
    ]
    for shape in [(5,), (3, 4), (2, 3, 4), (1, 1), (20,), (7, 13), (2, 2, 2, 2), (40, 40)]:
        for scale in (1.0, 1e-3, 1e4, 1e9):
            arrs.append(rng.standard_normal(shape) * scale)
    return arrs


CASES = [(a, dt) for a in _arrays() for dt in ((np.float32,) if a.dtype.kind == "f" else (None,))]
CASES += [
    (np.array([1.5, 2.0]), np.float64),
    (np.array([1, 2]), np.int32),
    (np.array([[1.25]]), np.float64),
    (rng.standard_normal(30), np.float64),
    (np.array(3.0), np.float64),
]


@pytest.mark.parametrize("arr, dtype", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_str_matches_torch(arr: np.ndarray, dtype: object) -> None:
    a = arr.astype(dtype) if dtype is not None else arr
    ours = Tensor._make(np.array(a))
    theirs = torch.from_numpy(np.array(a))
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize(
    "code",
    [
        "torch.tensor([1., 2.], requires_grad=True)",
        "torch.tensor([1., 2., 3.], requires_grad=True) * 2",
        "(torch.tensor([1., 2., 3.], requires_grad=True) ** 2).sum()",
        "torch.arange(30.).requires_grad_() * 1.5",
        "torch.linspace(-1000, 1000, 17).requires_grad_() + 0.5",
        "torch.tensor([[1.5, 2.25], [3.125, 4.0]], dtype=torch.float64, requires_grad=True) * 1",
        "torch.ones(3, 40, requires_grad=True).sum(0)",
        "torch.nn.Parameter(torch.ones(2, 3))",
        "torch.tensor(3.0, requires_grad=True).exp()",
    ],
)
def test_suffixes_match_torch(code: str) -> None:
    from engine.facade import make_modules

    with use_state(RunState()):
        ours = eval(code, {"torch": make_modules()["torch"]})
    theirs = eval(code, {"torch": torch})
    assert str(ours) == str(theirs)


def test_size_and_dtype_print_like_torch() -> None:
    ours = Tensor._make(np.zeros((2, 3), dtype=np.float32))
    assert str(ours.shape) == str(torch.zeros(2, 3).shape) == "torch.Size([2, 3])"
    assert repr(ours.dtype) == "torch.float32"
    assert str(Tensor._make(np.zeros(3, dtype=np.int64)).dtype) == "torch.int64"
    assert f"{Tensor._make(np.array(2.5, dtype=np.float32)):.2f}" == f"{torch.tensor(2.5):.2f}"

"""dtypes and PyTorch's type promotion (tensor/tensor, tensor/0-d tensor, tensor/Python number)."""

from __future__ import annotations

import itertools

import pytest
import torch

from engine import dtypes
from engine.facade import make_modules
from engine.run_state import RunState, use_state

NAMES = ["bool", "int32", "int64", "float32", "float64"]


def test_names_and_aliases() -> None:
    mods = make_modules()["torch"]
    assert repr(dtypes.float32) == str(torch.float32) == "torch.float32"
    assert mods.float is mods.float32 and mods.double is mods.float64 and mods.long is mods.int64
    assert mods.float32.is_floating_point and not mods.int64.is_floating_point


@pytest.mark.parametrize("a, b", list(itertools.product(NAMES, NAMES)))
@pytest.mark.parametrize("shape_b", [(2,), ()])
def test_tensor_promotion_matches_torch(a: str, b: str, shape_b: tuple[int, ...]) -> None:
    ta = torch.ones(2, dtype=getattr(torch, a))
    tb = torch.ones(shape_b, dtype=getattr(torch, b))
    with use_state(RunState()):
        ours = make_modules()["torch"]
        oa = ours.ones(2, dtype=getattr(ours, a))
        ob = ours.ones(*shape_b, dtype=getattr(ours, b))
        assert str((oa + ob).dtype) == str((ta + tb).dtype)
        assert str((oa * ob).dtype) == str((ta * tb).dtype)


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("number", [2, 2.5, True])
def test_number_promotion_matches_torch(a: str, number: object) -> None:
    ta = torch.ones(2, dtype=getattr(torch, a))
    with use_state(RunState()):
        ours = make_modules()["torch"]
        oa = ours.ones(2, dtype=getattr(ours, a))
        assert str((oa + number).dtype) == str((ta + number).dtype)
        assert str((oa * number).dtype) == str((ta * number).dtype)

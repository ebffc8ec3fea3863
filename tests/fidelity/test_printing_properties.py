"""Property-based: random tensors (magnitudes from 1e-9 to 1e9, integral values, nan/inf, float16/32/64, int64,
requires_grad and grad_fn suffixes, summarised sizes) print exactly as PyTorch prints them. Deterministic."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.facade import make_modules
from engine.run_state import RunState, use_state

SHAPES = [(), (1,), (3,), (7,), (2, 3), (4, 1), (3, 2, 2), (12,), (40, 30)]
DTYPES = ["float32", "float64", "float16", "int64"]


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from(SHAPES),
    exponent=st.integers(-9, 9),
    kind=st.sampled_from(["normal", "integral", "positive", "special", "outlier"]),
    dtype=st.sampled_from(DTYPES),
    requires_grad=st.booleans(),
)
def test_random_tensors_print_as_pytorch(
    seed: int, shape: tuple[int, ...], exponent: int, kind: str, dtype: str, requires_grad: bool
) -> None:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape) * 10.0**exponent
    if kind == "integral":
        v = np.round(v)
    elif kind == "positive":
        v = np.abs(v)
    elif kind == "special" and v.size:
        v.flat[0] = [np.nan, np.inf, -np.inf, 0.0][seed % 4]
    elif kind == "outlier" and v.size > 1:
        v.flat[-1] *= 1e6
    with np.errstate(all="ignore"):
        if dtype == "int64":
            arr = np.nan_to_num(np.clip(v, -1e15, 1e15), posinf=5, neginf=-5).astype(np.int64)
        else:
            arr = np.asarray(v).astype(dtype)
    requires_grad = requires_grad and dtype != "int64"
    theirs = torch.tensor(arr, requires_grad=requires_grad)
    with use_state(RunState()):
        T = make_modules()["torch"]
        ours = T.tensor(arr.tolist(), dtype=getattr(T, dtype), requires_grad=requires_grad)
        assert str(ours) == str(theirs)
        if requires_grad:
            assert str(ours * 2) == str(theirs * 2)

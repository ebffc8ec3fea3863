"""The RNG against PyTorch's CPU generator, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.random import Generator, legacy_mersenne
from engine.run_state import RunState, use_state
from tests.engine.helpers import run_ours, run_torch


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 - 1, 123456789])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 15, 16, 17, 31, 160, 1001, 20000])
def test_randn_is_bit_exact(seed: int, n: int) -> None:
    torch.manual_seed(seed)
    want = [torch.randn(n).numpy(), torch.randn(3).numpy(), torch.rand(5).numpy()]
    g = Generator(seed)
    got = [g._normal(n), g._normal(3), g._uniform(5, 0.0, 1.0)]
    for w, o in zip(want, got):
        assert w.dtype == o.dtype
        assert np.array_equal(w.view(np.int32), o.view(np.int32))


@pytest.mark.parametrize("seed", [0, 7])
def test_other_distributions_are_bit_exact(seed: int) -> None:
    torch.manual_seed(seed)
    want = [
        torch.randint(0, 10, (20,)).numpy(),
        torch.randint(-5, 2**30, (5,)).numpy(),
        torch.rand(7, dtype=torch.float64).numpy(),
        torch.empty(50).uniform_(-0.3, 0.3).numpy(),
        torch.randn(4, dtype=torch.float64).numpy(),
        torch.empty(40).normal_(2.0, 0.5).numpy(),
        torch.randn(33, dtype=torch.float64).numpy(),
    ]
    g = Generator(seed)
    got = [
        g._randint(20, 0, 10),
        g._randint(5, -5, 2**30),
        g._uniform(7, 0, 1, np.float64),
        g._uniform(50, -0.3, 0.3),
        g._normal(4, dtype=np.float64),
        g._normal(40, 2.0, 0.5),
        g._normal(33, dtype=np.float64),
    ]
    for w, o in zip(want, got):
        np.testing.assert_array_equal(o, w)


def test_factories_print_like_torch_after_seed() -> None:
    code = (
        "import torch\ntorch.manual_seed(3)\nprint(torch.randn(2, 3))\nprint(torch.rand(4))\n"
        "print(torch.randint(0, 5, (6,)))\nprint(torch.randn(16, 2))\nprint(torch.randn(5, requires_grad=True))\n"
        "print(torch.initial_seed())\nprint(torch.randint(10, (3,)))\nprint(torch.rand(2, 2, dtype=torch.float64))"
    )
    assert run_ours(code) == run_torch(code)


def test_unseeded_runs_get_a_replayable_seed() -> None:
    from engine import random

    with use_state(RunState()):
        seed = random.initial_seed()
        first = random.generator()._normal(20)
    with use_state(RunState()):
        random.manual_seed(seed)
        assert np.array_equal(random.generator()._normal(20), first)


def test_explicit_generator_like_torch() -> None:
    code = (
        "import torch\ng = torch.Generator()\nprint(g.initial_seed())\nprint(torch.randn(3, generator=g))\n"
        "g.manual_seed(5)\nprint(torch.rand(2, generator=g), torch.randn(20, generator=g)[:3])"
    )
    assert run_ours(code) == run_torch(code)


def test_the_twister_is_numpys_legacy_one_bit_for_bit() -> None:
    """``legacy_mersenne(s)`` (seeded without numpy's entropy draw) is ``np.random.RandomState(s)``: the same state,
    the same words from ``random_raw`` as from ``randint(0, 2**32)``, the same doubles after."""
    for s in (0, 1, 5489, 12345, 2**31 - 1, 2**32 - 1, 67280421310721 & 0xFFFFFFFF):
        ours, numpys = legacy_mersenne(s), np.random.RandomState(s)
        a, b = ours.get_state(), numpys.get_state()
        assert a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]
        words = ours._bit_generator.random_raw(1000).astype(np.uint32)
        assert np.array_equal(words, numpys.randint(0, 2**32, size=1000, dtype=np.uint32))
        assert ours.random_sample(5).tolist() == numpys.random_sample(5).tolist()
    with pytest.raises(ValueError):
        legacy_mersenne(2**32)

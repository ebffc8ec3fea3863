"""var and std as PyTorch's CPU kernels compute them, bit for bit: over all elements a float mean, then a sequential
double sum of squared deviations; over some dimensions Welford's update in double; the root taken in double
(makemore's batch-norm statistics print ``b.std().item()`` of a 1000 x 1000 tensor in full)."""

from __future__ import annotations

import pytest
import torch

import engine

EXPRS = [
    "x.std()",
    "x.var()",
    "x.std(unbiased=False)",
    "x.var(correction=0)",
    "x.std(0)",
    "x.var(1, keepdim=True)",
    "x.std((0, 1))",
    "x.std(0, keepdim=True)",
    "x.double().std(1)",
    "x[:, :1].std()",
    "torch.var(x, dim=0, unbiased=True)",
]


@pytest.mark.parametrize("shape", [(32, 200), (1000, 3), (4, 5), (300, 300)])
@pytest.mark.parametrize("expr", EXPRS)
def test_var_and_std_match_torch_bit_for_bit(shape: tuple[int, int], expr: str) -> None:
    setup = f"g = torch.Generator().manual_seed(3)\nx = torch.randn({shape}, generator=g) * 2.5 + 0.75\n"
    line = f"print({expr}.reshape(-1).tolist())\n"
    ns: dict = {"torch": torch}
    exec(setup, ns)  # trusted test code only
    expected = f"{eval(expr, ns).reshape(-1).tolist()}\n"
    assert engine.run("import torch\n" + setup + line).stdout == expected


def test_std_of_a_million_values_matches_torch() -> None:
    setup = "g = torch.Generator().manual_seed(2147483647)\nb = torch.randn((1000, 1000), generator=g)\n"
    ns: dict = {"torch": torch}
    exec(setup, ns)  # trusted test code only
    assert engine.run("import torch\n" + setup + "print(b.std().item())\n").stdout == f"{ns['b'].std().item()}\n"

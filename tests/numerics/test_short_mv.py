"""A matrix times a vector of at most 4 values (d2l's ``torch.matmul(X, w)`` with ``w = torch.tensor([2, -3.4])``)
as MKL's gemv computes it on the "avx2" profile: each product rounded, then added left to right, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import engine
from engine.numerics.cpu import mkl_path
from engine.sandbox.budget import Limits
from tests.conftest import IN_CI

# CI runs on the machine kind the order was measured on (AMD EPYC, MKL's avx2 path): there it must run
pytestmark = pytest.mark.skipif(
    mkl_path() != "avx2" and not IN_CI, reason="the order was measured on MKL's avx2 path only"
)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows", [1, 10, 333, 1000])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_short_mv_matches_torch(dtype: str, rows: int, k: int) -> None:
    # the values drawn in float32 (the engine's float64 randn is off by an ulp now and then, another matter)
    setup = (
        f"g = torch.Generator().manual_seed({rows * 10 + k})\n"
        f"X = (torch.randn({rows}, {k}, generator=g) * 3).to(torch.{dtype})\n"
        f"w = torch.randn({k}, generator=g).to(torch.{dtype}) / 7\n"
        f"Xt = torch.randn({k}, {rows}, generator=g).to(torch.{dtype}).t()\n"
    )
    exprs = ["torch.mv(X, w)", "torch.matmul(X, w)", "X @ w", "Xt @ w"]
    ns: dict = {"torch": torch}
    exec(setup, ns)  # trusted test code only
    code = "import torch\n" + setup + "".join(f"print(({e}).tolist())\n" for e in exprs)
    expected = "".join(f"{eval(e, ns).tolist()}\n" for e in exprs)
    assert engine.run(code, limits=Limits(max_output_bytes=1 << 20)).stdout == expected


def test_the_synthetic_data_of_d2l_matches_torch() -> None:
    code = (
        "import torch\ntorch.manual_seed(0)\nX = torch.normal(0, 1, (1000, 2))\n"
        "y = torch.matmul(X, torch.tensor([2, -3.4])) + 4.2\nprint(y.tolist())\n"
    )
    torch.manual_seed(0)
    X = torch.normal(0, 1, (1000, 2))
    y = torch.matmul(X, torch.tensor([2, -3.4])) + 4.2
    assert engine.run(code).stdout == f"{y.tolist()}\n"
    assert np.isfinite(y.numpy()).all()

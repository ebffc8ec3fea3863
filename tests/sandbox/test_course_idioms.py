"""What real course material (tests/realcourse) revealed, each compared with real PyTorch 2.13: the program's
stdout and, where it raises, the exception's type and message. Old notebooks call ``dataiter.next()`` (Python 2's
name) on ``iter(loader)``: PyTorch raises ``AttributeError`` naming ``_SingleProcessDataLoaderIter``. The docstring
examples of ``Tensor.view(dtype)`` (the same bytes, not a conversion), ``prod(dim)``, ``narrow``, ``index_select``,
``masked_select``, ``nn.PReLU``, a ``range`` as an index (``input[range(n), target]``, the nn tutorial's NLL), ``true_divide``, ``matrix_power``, ``remainder``, ``sort``'s default (unstable) order of equal values and ``scatter_(..., reduce=)``."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest

import engine

CASES = {
    "loader_iterator": (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ntorch.manual_seed(0)\n"
        "ds = TensorDataset(torch.arange(10.0).view(10, 1), torch.arange(10))\n"
        "loader = DataLoader(ds, batch_size=4, shuffle=True)\ndataiter = iter(loader)\nprint(torch.rand(1))\n"
        "images, labels = next(dataiter)\nprint(images.view(-1), labels, len(dataiter), len(iter(loader)))\n"
        "for xb, yb in dataiter:\n    print(yb)\nimages, labels = dataiter.next()"
    ),
    "iterator_has_no_next_method": "it = iter([1, 2])\nprint(next(it))\nit.next()",
    "generator_has_no_next_method": "def g():\n    yield 1\nx = g()\nprint(next(x))\nx.next()",
    "view_as_dtype": "import torch\ntorch.manual_seed(0)\nx = torch.randn(2, 4)\ny = x.view(torch.int32)\nprint(y)\ny[0, 0] = 1000000000\nprint(x, y.grad_fn, x.view(torch.float32).grad_fn)\nprint(x.view(torch.uint8).shape, x.view(torch.float16).shape, x.view(torch.float64).shape, x.t().view(torch.int32).shape)\nprint(torch.arange(6).view(torch.float64), torch.tensor([1, 0, 2], dtype=torch.uint8).view(torch.bool))\nfor f in (lambda: torch.randn(3, 2).t().view(torch.uint8), lambda: torch.randn(2, 3).view(torch.float64), lambda: torch.tensor(1.0).view(torch.float64)):\n    try:\n        f()\n    except RuntimeError as e:\n        print(e)\n",
    "prod_over_a_dimension": "import torch\ntorch.manual_seed(0)\na = torch.randn(4, 3, requires_grad=True)\np = torch.prod(a, 1)\nprint(p, a.prod(0), a.prod(dim=-1, keepdim=True), torch.prod(torch.arange(1, 7).view(2, 3), 1))\n(p * torch.arange(4.0)).sum().backward()\nprint(a.grad)\nb = torch.rand(2, 5, 3, dtype=torch.float64, requires_grad=True)\nb.prod(1, True).sum().backward()\nprint(b.grad, b.prod(1))\nc = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.5, 2.0, 4.0]], requires_grad=True)\nc.prod(1).sum().backward()\nd = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]], requires_grad=True)\nd.prod(0).sum().backward()\nprint(c.grad, d.grad)\n",
    "narrow": "import torch\nx=torch.arange(12.).view(3,4).requires_grad_()\nprint(torch.narrow(x,0,0,2), x.narrow(1,1,2), x.narrow(-1,-2,2), torch.narrow(x, 1, torch.tensor(1), 2))\nx.narrow(1, 1, 2).sum().backward()\nprint(x.grad)\nfor f in [lambda: x.narrow(0,2,2), lambda: x.narrow(2,0,1), lambda: x.narrow(0,-4,1), lambda: x.narrow(0,0,-1), lambda: torch.tensor(1.).narrow(0,0,1)]:\n  try: f()\n  except Exception as e: print(type(e).__name__, e)\n",
    "index_select": "import torch\nx=torch.arange(12.).view(3,4).requires_grad_()\ny=torch.index_select(x, 1, torch.tensor([0, 2, 2])); print(y)\ny.sum().backward(); print(x.grad, x.index_select(0, torch.tensor(1)), x.index_select(-1, torch.tensor([], dtype=torch.long)))\nz = x.index_select(0, torch.tensor([2, 0]))\n(z * torch.arange(8.).view(2, 4)).sum().backward(); print(x.grad)\nfor f in [lambda: x.index_select(0, torch.tensor([[0]])), lambda: x.index_select(0, torch.tensor([0.])), lambda: x.index_select(0, torch.tensor([3])), lambda: x.index_select(0, torch.tensor([-1])), lambda: x.index_select(2, torch.tensor([0]))]:\n  try: print(f())\n  except Exception as e: print(type(e).__name__, e)\n",
    "scatter_with_reduce": "import torch\nprint(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23, reduce='multiply'))\nprint(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23, reduce='add'))\nprint(torch.full((2, 4), 2.).scatter(1, torch.tensor([[2, 2], [3, 0]]), torch.arange(1., 5.).view(2, 2), reduce='add'))\nprint(torch.ones(3, dtype=torch.long).scatter_(0, torch.tensor([1, 1]), torch.tensor([3, 4]), reduce='multiply'))\ntry:\n    torch.full((2,4),2.).scatter_(1, torch.tensor([[2],[3]]), 1.0, reduce='mean')\nexcept Exception as e:\n    print(type(e).__name__, e)\n",
    "masked_select": "import torch\ntorch.manual_seed(0)\nx=torch.randn(2,3,requires_grad=True); m=torch.tensor([True,False,True])\ny=torch.masked_select(x, m); print(y); y.sum().backward(); print(x.grad)\nprint(x.masked_select(x>0).shape)\nfor f in [lambda: torch.masked_select(x, torch.tensor([1,0,1])), lambda: torch.masked_select(x, torch.tensor([True,False]))]:\n    try: f()\n    except Exception as e: print(type(e).__name__, e)\nz = torch.tensor([1.,2.], requires_grad=True)\nw = torch.masked_select(z, torch.tensor([[True,False],[True,True]]))\n(w * torch.tensor([1., 2., 3.])).sum().backward()\nprint(w, z.grad)\n",
    "prelu": "import torch, torch.nn as nn, torch.nn.functional as F\ntorch.manual_seed(0)\nm = nn.PReLU(); print(m, m.weight, list(m.state_dict()))\nm3 = nn.PReLU(3, init=0.1); print(m3)\nx = torch.tensor([[-1., 2., -3.], [4., -5., 6.]], requires_grad=True)\ny = m3(x); print(y); y.sum().backward(); print(x.grad, m3.weight.grad)\nprint(F.prelu(torch.tensor([-2., 3.]), torch.tensor([0.5])))\ntry:\n    F.prelu(torch.randn(2, 4), torch.ones(3))\nexcept Exception as e:\n    print(type(e).__name__, e)\nz = torch.randn(2, 3, 4, 4, requires_grad=True)\np = nn.PReLU(3)\nout = p(z)\nprint(out.grad_fn.name(), out.sum())\n(out * torch.randn(2, 3, 4, 4)).sum().backward()\nprint(z.grad.sum(), p.weight.grad)\nm(torch.randn(5)).sum().backward()\nprint(m.weight.grad)\n",
    "range_as_an_index": "import torch\ntorch.manual_seed(0)\nx = torch.randn(4, 3, requires_grad=True)\nt = torch.tensor([2, 0, 1, 1])\ny = -x[range(t.shape[0]), t].mean()\ny.backward()\nprint(y, x.grad, x[range(1, 3)], x[range(0)], x[:, range(2)])\nz = torch.zeros(5)\nz[range(0, 5, 2)] = 1.0\nprint(z)\nz[[1, 2], ] = 7.0\nprint(z, x[[0, slice(None)]] if False else x[[0, 1]])\n",
    "true_divide_and_divide": "import torch\nx = torch.tensor([1, 2, 3])\ny = torch.tensor([9, 8, 7])\na = torch.tensor([1.5, -2.0], requires_grad=True)\nb = torch.true_divide(a, 3)\nb.sum().backward()\nprint(torch.true_divide(x, y), x.true_divide(y), torch.divide(x, y), x.divide(2), torch.divide(x, y, rounding_mode='floor'), b, a.grad)\nz = torch.empty(3)\ntorch.true_divide(x, y, out=z)\nprint(z)\n",
    "matrix_power": "import torch\ntorch.manual_seed(0)\na = torch.randint(0, 3, (4, 4)).float().requires_grad_()\nfor n in (1, 2, 3, 4, 5, 6, 7):\n    r = a.matrix_power(n)\n    print(n, r, r.grad_fn.name(), torch.equal(torch.matrix_power(a, n), r), torch.equal(torch.linalg.matrix_power(a, n), r))\na.matrix_power(5).sum().backward()\nprint(a.grad)\nprint(torch.arange(4).view(2, 2).matrix_power(3), torch.rand(2, 2, 2).matrix_power(0))\nfor f in [lambda: torch.rand(2, 3).matrix_power(2), lambda: torch.rand(3).matrix_power(2)]:\n    try:\n        print(f())\n    except Exception as e:\n        print(type(e).__name__, e)\n",
    "remainder": "import torch\nx = torch.tensor([-3., -1., 2., 5.], requires_grad=True)\ny = torch.remainder(x, 2)\nprint(y, torch.remainder(torch.tensor([-3, 4]), 3), torch.arange(5).remainder(2), x % 1.5, torch.arange(10) % 3)\ny.sum().backward()\nprint(x.grad)\nw = torch.tensor([2., -3.], requires_grad=True)\nz = torch.remainder(torch.tensor([7., 7.]), w)\nz.sum().backward()\nprint(z, w.grad)\na = torch.arange(6.)\na.remainder_(4)\nprint(a, torch.arange(10)[torch.arange(10).remainder(2) == 0])\ntry:\n    torch.remainder(torch.tensor([1, 2]), 0)\nexcept Exception as e:\n    print(type(e).__name__, e)\n",
    "unstable_sort_of_ties": "import torch\ntorch.manual_seed(0)\nx = torch.tensor([0, 1] * 9)\nprint(x.sort(), x.sort(stable=True), torch.sort(x, descending=True), x.argsort(), torch.argsort(x, descending=True))\ny = torch.randint(0, 3, (4, 20)).float().requires_grad_()\nv, i = y.sort(dim=1)\nprint(v, i, y.sort(dim=0).indices, torch.sort(y, 0, True).indices)\n(v * torch.arange(20.)).sum().backward()\nprint(y.grad)\nz = torch.tensor([2., float('nan'), 1., float('nan'), 2., 0., 1.] * 3)\nprint(z.sort(), z.sort(descending=True), torch.tensor([True, False] * 10).sort())\nprint(torch.randn(3, 5).sort(dim=-1, descending=True))\n",
}


def _torch(code: str) -> tuple[str, tuple[str, str] | None]:
    out, error = io.StringIO(), None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's deprecation warnings (scatter's reduce=) are not output
        try:
            exec(compile(code, "<case>", "exec"), {"__name__": "__main__"})  # trusted test code only
        except Exception as exc:  # the error is part of what PyTorch shows
            error = (type(exc).__name__, str(exc))
    return out.getvalue(), error


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name: str) -> None:
    code = CASES[name]
    result = engine.run(code, seed=0)
    got_error = None if result.error is None else (result.error["type"], result.error["message"])
    assert (result.stdout, got_error) == _torch(code)


def test_unstable_sort_replays_std_sort() -> None:
    """Many random arrays with ties (ints, floats with NaN, bools), both directions: the indices PyTorch gives."""
    import numpy as np
    import torch

    from engine.numerics.std_sort import order

    rng = np.random.default_rng(7)
    for trial in range(600):
        n = int(rng.integers(1, 120))
        a = [rng.integers(0, 3, n), rng.integers(-4, 4, n).astype(np.float32), rng.random(n) < 0.5][trial % 3]
        if trial % 3 == 1:
            a[rng.random(n) < 0.1] = np.nan
        for descending in (False, True):
            expected = torch.from_numpy(a.copy()).sort(descending=descending).indices.numpy()
            assert np.array_equal(order([float(v) for v in a], descending), expected), (a, descending)

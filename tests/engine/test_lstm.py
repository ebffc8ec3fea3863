"""``nn.LSTM``, ``nn.GRU`` and ``nn.RNN`` (engine/nn/recurrent.py) against PyTorch 2.13 on the CPU: its repr, parameter names and shapes, the
initial weights (the same draws after ``manual_seed``, bit for bit), the nodes it makes (``MkldnnRnnLayerBackward0``,
``StackBackward0``, ``SqueezeBackward1`` for an unbatched input, ``TransposeBackward0`` with ``batch_first``), the
printed outputs, and the forward values and every gradient (input, h_0, c_0, each weight and bias).

Not bit for bit yet: PyTorch runs oneDNN's LSTM kernel; its σ is modelled (tests/numerics/test_onednn.py), its tanh
approximation and the order of its sums are not; the values and gradients here are compared to 1e-6 of the largest
magnitude (measured: 3e-7 at most). ``nn.RNN`` and
``nn.GRU`` are composed of the engine's ops as PyTorch's CPU code composes them (no oneDNN): their last bits differ
where torch's MKL tanh does (not modelled, docs/NUMERICS.md); also compared to 1e-6."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import engine
from tests.engine.helpers import namespaces, run_ours, run_torch

CASES = [
    (dict(input_size=3, hidden_size=3), (5, 1, 3)),
    (dict(input_size=4, hidden_size=6, num_layers=2), (7, 3, 4)),
    (dict(input_size=4, hidden_size=5, bidirectional=True, batch_first=True), (2, 6, 4)),
    (dict(input_size=3, hidden_size=2, bias=False), (4, 2, 3)),
    (dict(input_size=3, hidden_size=2), (4, 3)),  # unbatched: (sequence, input)
    (dict(input_size=2, hidden_size=3, num_layers=2, bidirectional=True), (3, 2, 2)),
]


def _run(
    ns: dict[str, Any], kw: dict[str, Any], shape: tuple[int, ...], kind: str = "LSTM"
) -> tuple[list[Any], list[str]]:
    torch = ns["torch"]
    torch.manual_seed(0)
    lstm = getattr(torch.nn, kind)(**kw)
    x = torch.randn(*shape, requires_grad=True)
    layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    batch = () if len(shape) == 2 else (shape[0] if kw.get("batch_first") else shape[1],)
    h0 = torch.randn(layers, *batch, kw["hidden_size"], requires_grad=True)
    c0 = torch.randn(layers, *batch, kw["hidden_size"], requires_grad=True)
    weights = [p.detach().clone() for p in lstm.parameters()]
    if kind != "LSTM":
        out, h = lstm(x, h0)
        (out.pow(2).sum() + h.sum() * 2).backward()
        shown = [repr(lstm), str([n for n, _ in lstm.named_parameters()]), repr(out), repr(h)]
        return weights + [out, h, x.grad, h0.grad] + [p.grad for p in lstm.parameters()], shown
    out, (h, c) = lstm(x, (h0, c0))
    (out.pow(2).sum() + h.sum() * 2 + c.mean()).backward()
    shown = [repr(lstm), str([n for n, _ in lstm.named_parameters()]), repr(out), repr(h), repr(c)]
    return weights + [out, h, c, x.grad, h0.grad, c0.grad] + [p.grad for p in lstm.parameters()], shown


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize(("kw", "shape"), CASES)
def test_recurrent_layers_match_torch(kw: dict[str, Any], shape: tuple[int, ...], kind: str) -> None:
    theirs, ours = namespaces()
    want, want_shown = _run(theirs, kw, shape, kind)
    got, got_shown = _run(ours, kw, shape, kind)
    assert got_shown == want_shown
    n_weights = len(list(getattr(theirs["torch"].nn, kind)(**kw).parameters()))
    for i, (a, b) in enumerate(zip(want, got)):
        a = a.detach().numpy()
        assert a.shape == b._data.shape and a.dtype == b._data.dtype, i
        if i < n_weights:
            assert (a == b._data).all(), f"initial weight {i}"
        else:
            assert np.abs(a - b._data).max() <= 1e-6 * np.abs(a).max(), i


def test_repr_errors_and_defaults_like_torch() -> None:
    code = (
        "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
        "print(nn.LSTM(10, 20, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True))\n"
        "m = nn.LSTM(2, 3)\nprint(m.weight_ih_l0.shape, m.weight_hh_l0.shape, m.bias_ih_l0, m.all_weights[0][1].shape)\n"
        "out, (h, c) = m(torch.ones(4, 1, 2))\nprint(out.grad_fn.name(), h.grad_fn.name(), h.grad_fn.next_functions)\n"
        "print(len(out.grad_fn.next_functions), [n is None for n, _ in out.grad_fn.next_functions])\n"
        "print(torch.autograd.Variable(torch.ones(2)), m.state_dict().keys())\n"
    )
    clean = re.compile(r" at 0x[0-9a-f]+>")
    assert clean.sub(">", run_ours(code)) == clean.sub(">", run_torch(code))
    for bad in ("m(torch.ones(4, 1, 3))", "m(torch.ones(4, 1, 2), (torch.zeros(1, 3), torch.zeros(1, 3)))"):
        code = "import torch\nm = torch.nn.LSTM(2, 3)\n" + bad + "\n"
        with pytest.raises(RuntimeError) as want:
            run_torch(code)
        with pytest.raises(RuntimeError) as got:
            run_ours(code)
        assert str(got.value) == str(want.value)


def test_rnn_options_and_errors_like_torch() -> None:
    code = (
        "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
        "r = nn.RNN(3, 2, nonlinearity='relu', num_layers=2, dropout=0.25)\nprint(r, r.nonlinearity)\n"
        "out, h = r(torch.randn(4, 2, 3))\nprint(out, h, out.grad_fn.next_functions[0][0].name())\n"
        "g = nn.GRU(2, 3)\nout, h = g(torch.randn(3, 2))\nprint(out, h)\nprint([n for n, _ in g.named_parameters()])\n"
    )
    assert run_ours(code) == run_torch(code)
    for make, bad in (
        ("torch.nn.RNN(2, 3)", "m(torch.ones(4, 1, 2), torch.zeros(1, 3))"),
        ("torch.nn.GRU(2, 3)", "m(torch.ones(4, 1, 2), torch.zeros(2, 1, 3))"),
        ("torch.nn.RNN(2, 3, nonlinearity='sigmoid')", ""),
    ):
        code = f"import torch\nm = {make}\n{bad}\n"
        with pytest.raises((RuntimeError, ValueError)) as want:
            run_torch(code)
        with pytest.raises((RuntimeError, ValueError)) as got:
            run_ours(code)
        assert (type(got.value), str(got.value)) == (type(want.value), str(want.value))


def test_the_tutorials_tagger_trains_in_the_sandbox() -> None:
    code = (
        "import torch\nimport torch.autograd as autograd\nimport torch.nn as nn\ntorch.manual_seed(1)\n"
        "lstm = nn.LSTM(3, 3)\ninputs = [autograd.Variable(torch.randn((1, 3))) for _ in range(5)]\n"
        "hidden = (torch.randn(1, 1, 3), torch.randn((1, 1, 3)))\n"
        "for i in inputs:\n    out, hidden = lstm(i.view(1, 1, -1), hidden)\nprint(out)\nprint(hidden)\n"
        "print(type(lstm), type(nn.GRU(1, 1)), type(nn.RNN(1, 1)), isinstance(lstm, nn.LSTM))\n"
        "opt = torch.optim.SGD(lstm.parameters(), lr=0.1)\n"
        "for step in range(20):\n    opt.zero_grad()\n    out, _ = lstm(torch.cat(inputs).view(5, 1, -1))\n"
        "    loss = out.pow(2).mean()\n    loss.backward()\n    opt.step()\nprint(loss)\n"
    )
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == run_torch(code)

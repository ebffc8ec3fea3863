"""engine/numerics/onednn.py against torch 2.13's LSTM (oneDNN's kernel): an LSTM of one unit whose input and forget
gates read x, whose cell gate is held at tanh(30) = 1 and whose first cell state is 0 has cell state σ(x) exactly as
oneDNN computes σ; the model must give the same bits."""

from __future__ import annotations

import numpy as np
import torch

from engine.numerics.onednn import logistic


def test_logistic_is_onednns_bit_for_bit() -> None:
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(1, 1)
    with torch.no_grad():
        lstm.weight_hh_l0.zero_()
        lstm.bias_hh_l0.zero_()
        lstm.bias_ih_l0.copy_(torch.tensor([0.0, 0.0, 30.0, 0.0]))
        lstm.weight_ih_l0.copy_(torch.tensor([[1.0], [1.0], [0.0], [1.0]]))
        x = torch.cat(
            [torch.randn(1, 8192, 1) * 4, torch.tensor([0.0, -0.0, 1e-30, 20.0, -20.0, -90.0, 90.0]).view(1, 7, 1)], 1
        )
        _, (_, c) = lstm(x)
    got = logistic(x.numpy().reshape(-1))
    want = c.numpy().reshape(-1)
    assert (got == want).all(), int((got != want).sum())
    exact = (1 / (1 + np.exp(-x.numpy().reshape(-1).astype(np.float64)))).astype(np.float32)
    assert (exact != want).sum() > 1000  # the correctly rounded σ is not what torch's LSTM uses

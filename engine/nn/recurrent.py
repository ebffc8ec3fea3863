"""``nn.LSTM``: a long short-term memory network over a sequence, as PyTorch 2.13 runs it on the CPU: one
``MkldnnRnnLayerBackward0`` node per layer and direction (outputs: the whole sequence's hidden states, the last
hidden state, the last cell state), the last states of all layers stacked (``StackBackward0``).

Example::

    >>> lstm = nn.LSTM(3, 3)                       # input size 3, hidden size 3
    >>> out, (h, c) = lstm(torch.randn(5, 1, 3))   # (sequence, batch, input)
    >>> out.shape, h.shape
    (torch.Size([5, 1, 3]), torch.Size([1, 1, 3]))

Each step, with the gates in PyTorch's order (input i, forget f, cell g, output o) stacked in the rows of the
weights::

    gates = x W_ihᵀ + h W_hhᵀ + (b_ih + b_hh)
    i, f, g, o = σ(gates_i), σ(gates_f), tanh(gates_g), σ(gates_o)
    c' = f·c + i·g          h' = o·tanh(c')

Backward runs the same steps in reverse (backpropagation through time). The float32 values are numpy's; PyTorch's
oneDNN kernel orders its sums and approximates σ and tanh its own way, so the last bits can differ.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.autograd_function import Function
from engine.graph import Node
from engine.nn import init
from engine.nn.module import Module, Parameter
from engine.ops import pieces
from engine.ops.activations import dropout
from engine.ops.factories import zeros
from engine.tensor import Tensor


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.float32(1) / (np.float32(1) + np.exp(-x))


class MkldnnRnnLayer(Function):
    """One layer, one direction of an LSTM over a (sequence, batch, input) array."""

    @staticmethod
    def forward(
        ctx: Any, x: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Any, b_hh: Any, h0: Tensor, c0: Tensor, reverse: bool
    ) -> Any:
        xs, wi, wh = x._data, w_ih._data, w_hh._data
        steps, batch = xs.shape[0], xs.shape[1]
        hidden = wh.shape[1]
        bias = np.zeros(4 * hidden, wi.dtype)
        for b in (b_ih, b_hh):
            if isinstance(b, Tensor):
                bias = bias + b._data
        inputs = (xs.reshape(steps * batch, -1) @ wi.T).reshape(steps, batch, 4 * hidden)
        h, c = h0._data, c0._data
        out = np.empty((steps, batch, hidden), wi.dtype)
        keep = []
        for t in range(steps - 1, -1, -1) if reverse else range(steps):
            gates = inputs[t] + h @ wh.T + bias
            i, f = _sigmoid(gates[:, :hidden]), _sigmoid(gates[:, hidden : 2 * hidden])
            g, o = np.tanh(gates[:, 2 * hidden : 3 * hidden]), _sigmoid(gates[:, 3 * hidden :])
            c_next = f * c + i * g
            tc = np.tanh(c_next)
            keep.append((t, h, c, i, f, g, o, tc))
            h, c = o * tc, c_next
            out[t] = h
        ctx.__dict__["_lstm"] = (xs, wi, wh, keep, isinstance(b_ih, Tensor))
        return Tensor._make(out), Tensor._make(h), Tensor._make(c)

    @staticmethod
    def backward(ctx: Any, d_out: Any, d_hy: Any, d_cy: Any) -> Any:
        xs, wi, wh, keep, has_bias = ctx.__dict__["_lstm"]
        steps, batch, hidden = xs.shape[0], xs.shape[1], wh.shape[1]
        dh = np.zeros((batch, hidden), wi.dtype) if d_hy is None else d_hy._data.copy()
        dc = np.zeros((batch, hidden), wi.dtype) if d_cy is None else d_cy._data.copy()
        d_gates = np.zeros((steps, batch, 4 * hidden), wi.dtype)
        h_prev = np.zeros((steps, batch, hidden), wi.dtype)
        for t, h, c, i, f, g, o, tc in reversed(keep):
            if d_out is not None:
                dh = dh + d_out._data[t]
            dc = dc + dh * o * (1 - tc * tc)
            d_gates[t] = np.concatenate(
                [dc * g * i * (1 - i), dc * c * f * (1 - f), dc * i * (1 - g * g), dh * tc * o * (1 - o)], axis=1
            )
            h_prev[t] = h
            dc = dc * f
            dh = d_gates[t] @ wh
        flat = d_gates.reshape(steps * batch, 4 * hidden)
        dx = (flat @ wi).reshape(xs.shape)
        dwi = flat.T @ xs.reshape(steps * batch, -1)
        dwh = flat.T @ h_prev.reshape(steps * batch, hidden)
        db = flat.sum(axis=0) if has_bias else None
        wrap = Tensor._make
        return (
            wrap(dx),
            wrap(dwi),
            wrap(dwh),
            None if db is None else wrap(db),
            None if db is None else wrap(db.copy()),
            wrap(dh),
            wrap(dc),
            None,
        )


# PyTorch's node is built in (MkldnnRnnLayerBackward0, printed without a module), not a Python Function's
_node = MkldnnRnnLayer._backward_cls
_node.__name__ = _node.__qualname__ = "MkldnnRnnLayerBackward0"
_node.__repr__ = Node.__repr__  # type: ignore[method-assign]


class LSTM(Module):
    """A multi-layer LSTM: ``LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
    dropout=0.0, bidirectional=False)``; ``forward(input, (h_0, c_0))`` returns ``output, (h_n, c_n)``."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if proj_size != 0:
            raise NotImplementedError("nn.LSTM's proj_size is not supported here")
        self.mode = "LSTM"
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        dirs = 2 if bidirectional else 1
        names = []
        for layer in range(num_layers):
            for d in range(dirs):
                size = input_size if layer == 0 else hidden_size * dirs
                suffix = f"_l{layer}" + ("_reverse" if d == 1 else "")
                shapes = [("weight_ih", (4 * hidden_size, size)), ("weight_hh", (4 * hidden_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (4 * hidden_size,)), ("bias_hh", (4 * hidden_size,))]
                for name, shp in shapes:
                    setattr(self, name + suffix, Parameter(zeros(*shp, dtype=dtype)))
                    names.append(name + suffix)
        self._flat_weights_names = names
        stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
        for p in self.parameters():  # PyTorch's reset_parameters: every weight uniform in ±1/√hidden_size
            init.uniform_(p, -stdv, stdv)

    @property
    def all_weights(self) -> list[list[Parameter]]:
        per = 4 if self.bias else 2
        flat = [getattr(self, n) for n in self._flat_weights_names]
        return [flat[i : i + per] for i in range(0, len(flat), per)]

    def forward(self, input: Tensor, hx: Any = None) -> Any:
        x = input
        batched = x.dim() == 3
        if hx is not None and (hx[0].dim() != x.dim() or hx[1].dim() != x.dim()):
            kind = "batched 3-D" if batched else "unbatched 2-D"
            raise RuntimeError(
                f"For {kind} input, hx and cx should also be {x.dim()}-D but got ({hx[0].dim()}-D, "
                f"{hx[1].dim()}-D) tensors"
            )
        if not batched:
            if x.dim() != 2:
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {x.dim()}D instead")
            x = x.unsqueeze(1)
            if hx is not None:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        elif self.batch_first:
            x = x.transpose(0, 1)
        dirs = 2 if self.bidirectional else 1
        batch = x.shape[1]
        if hx is None:
            h0 = zeros(self.num_layers * dirs, batch, self.hidden_size, dtype=x.dtype)
            hx = (h0, zeros(self.num_layers * dirs, batch, self.hidden_size, dtype=x.dtype))
        if x.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {x.shape[-1]}"
            )
        want = (self.num_layers * dirs, batch, self.hidden_size)
        for k, t in enumerate(hx):
            if tuple(t.shape) != want:
                raise RuntimeError(f"Expected hidden[{k}] size {want}, got {list(t.shape)}")
        weights = self.all_weights
        hys, cys = [], []
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                w = weights[k] + [None, None] * (not self.bias)
                out, hy, cy = MkldnnRnnLayer.apply(x, *w, hx[0][k], hx[1][k], d == 1)
                outs.append(out)
                hys.append(hy)
                cys.append(cy)
            x = outs[0] if dirs == 1 else pieces.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = dropout(x, self.dropout, True)
        h_n, c_n = pieces.stack(hys, 0), pieces.stack(cys, 0)
        if not batched:
            return x.squeeze(1), (h_n.squeeze(1), c_n.squeeze(1))
        if self.batch_first:
            x = x.transpose(0, 1)
        return x, (h_n, c_n)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


__all__ = ["LSTM"]

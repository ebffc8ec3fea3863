"""``nn.LSTM``, ``nn.GRU`` and ``nn.RNN``. ``nn.LSTM`` runs as PyTorch 2.13 runs it on the CPU: one
``MkldnnRnnLayerBackward0`` node per layer and direction (outputs: the whole sequence's hidden states, the last
hidden state, the last cell state), the last states of all layers stacked (``StackBackward0``). ``nn.GRU`` and
``nn.RNN`` are composed of ops, as PyTorch's CPU code composes them.

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

Backward runs the same steps in reverse (backpropagation through time). σ is oneDNN's, bit for bit
(engine/numerics/onednn.py); oneDNN's tanh approximation and the order of its sums are not modelled, so the last
bits can still differ (tests/engine/test_lstm.py measures how far).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.autograd_function import Function
from engine.graph import Node
from engine.nn import init
from engine.nn.module import Module, Parameter
from engine.numerics import onednn
from engine.ops import linalg, pieces
from engine.ops.activations import dropout
from engine.ops.factories import zeros
from engine.tensor import Tensor


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """oneDNN's σ (engine/numerics/onednn.py) for float32, as torch's LSTM kernel computes it."""
    return onednn.logistic(x) if x.dtype == np.float32 else 1 / (1 + np.exp(-x))


def _tanh(x: np.ndarray) -> np.ndarray:
    """tanh correctly rounded (oneDNN's own approximation is not modelled: they differ on ~7% of inputs)."""
    return np.tanh(x.astype(np.float64)).astype(x.dtype)


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
            g, o = _tanh(gates[:, 2 * hidden : 3 * hidden]), _sigmoid(gates[:, 3 * hidden :])
            c_next = f * c + i * g
            tc = _tanh(c_next)
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


class RNNBase(Module):
    """What ``nn.RNN``, ``nn.GRU`` and ``nn.LSTM`` share: the weights of each layer and direction (``weight_ih_l0``,
    ``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, then ``…_reverse``), drawn uniform in ±1/√hidden_size in that
    order, the repr, and the walk over layers and directions."""

    gates = 1

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
            raise NotImplementedError(f"nn.{type(self).__name__}'s proj_size is not supported here")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        dirs = 2 if bidirectional else 1
        rows = self.gates * hidden_size
        names = []
        for layer in range(num_layers):
            for d in range(dirs):
                size = input_size if layer == 0 else hidden_size * dirs
                suffix = f"_l{layer}" + ("_reverse" if d == 1 else "")
                shapes = [("weight_ih", (rows, size)), ("weight_hh", (rows, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (rows,)), ("bias_hh", (rows,))]
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

    def _direction(self, x: Tensor, weights: list[Any], hidden: tuple[Tensor, ...], reverse: bool) -> Any:
        raise NotImplementedError  # pragma: no cover - each kind runs its own cell

    def forward(self, input: Tensor, hx: Any = None) -> Any:
        x = input
        lstm = isinstance(self, LSTM)
        states = (hx if lstm else (hx,)) if hx is not None else None
        batched = x.dim() == 3
        if states is not None and any(t.dim() != x.dim() for t in states):
            kind = "batched 3-D" if batched else "unbatched 2-D"
            if lstm:
                got = f"({states[0].dim()}-D, {states[1].dim()}-D) tensors"
                raise RuntimeError(f"For {kind} input, hx and cx should also be {x.dim()}-D but got {got}")
            raise RuntimeError(f"For {kind} input, hx should also be {x.dim()}-D but got {states[0].dim()}-D tensor")
        if not batched:
            if x.dim() != 2:
                raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {x.dim()}D instead")
            x = x.unsqueeze(1)
            if states is not None:
                states = tuple(t.unsqueeze(1) for t in states)
        elif self.batch_first:
            x = x.transpose(0, 1)
        dirs = 2 if self.bidirectional else 1
        want = (self.num_layers * dirs, x.shape[1], self.hidden_size)
        if states is None:
            states = tuple(zeros(*want, dtype=x.dtype) for _ in range(2 if lstm else 1))
        if x.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {x.shape[-1]}"
            )
        for k, t in enumerate(states):
            if tuple(t.shape) != want:
                name = f"hidden[{k}]" if lstm else "hidden"
                raise RuntimeError(f"Expected {name} size {want}, got {list(t.shape)}")
        weights = self.all_weights
        finals: list[list[Tensor]] = [[] for _ in states]
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                out, *last = self._direction(x, weights[k], tuple(t[k] for t in states), d == 1)
                outs.append(out)
                for f, t in zip(finals, last):
                    f.append(t)
            x = outs[0] if dirs == 1 else pieces.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = dropout(x, self.dropout, True)
        ends = tuple(pieces.stack(f, 0) for f in finals)
        if not batched:
            x, ends = x.squeeze(1), tuple(t.squeeze(1) for t in ends)
        elif self.batch_first:  # PyTorch's RNN and GRU turn their output back in place (TransposeBackward1)
            x = x.transpose(0, 1) if lstm else x.transpose_(0, 1)
        return x, (ends if lstm else ends[0])

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


class LSTM(RNNBase):
    """A multi-layer LSTM: ``LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
    dropout=0.0, bidirectional=False)``; ``forward(input, (h_0, c_0))`` returns ``output, (h_n, c_n)``."""

    gates = 4

    def _direction(self, x: Tensor, weights: list[Any], hidden: tuple[Tensor, ...], reverse: bool) -> Any:
        w = weights + [None, None] * (not self.bias)
        return MkldnnRnnLayer.apply(x, *w, hidden[0], hidden[1], reverse)


class RNN(RNNBase):
    """An Elman RNN: h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh) (or relu), as PyTorch's CPU code composes it: the
    input's projection for the whole sequence first, then one ``addmm`` and one add per step."""

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(*args, **kwargs)
        self.nonlinearity = nonlinearity

    def _direction(self, x: Tensor, weights: list[Any], hidden: tuple[Tensor, ...], reverse: bool) -> Any:
        w_hh, b_hh = weights[1], (weights[3] if self.bias else None)
        steps = list(linalg.linear(x, weights[0], weights[2] if self.bias else None).unbind(0))
        h, outs = hidden[0], []
        for step in reversed(steps) if reverse else steps:
            z = linalg.linear(h, w_hh, b_hh) + step
            h = z.tanh() if self.nonlinearity == "tanh" else z.relu()
            outs.append(h)
        return pieces.stack(outs[::-1] if reverse else outs, 0), h


class GRU(RNNBase):
    """A gated recurrent unit, gates in PyTorch's order (reset r, update z, new n), as its CPU code composes it::

    r = σ(h W_hrᵀ + b_hr + x W_irᵀ + b_ir)      z = σ(h W_hzᵀ + b_hz + x W_izᵀ + b_iz)
    n = tanh(x W_inᵀ + b_in + (h W_hnᵀ + b_hn)·r)      h' = (h - n)·z + n
    """

    gates = 3

    def _direction(self, x: Tensor, weights: list[Any], hidden: tuple[Tensor, ...], reverse: bool) -> Any:
        w_hh, b_hh = weights[1], (weights[3] if self.bias else None)
        steps = list(linalg.linear(x, weights[0], weights[2] if self.bias else None).unbind(0))
        h, outs = hidden[0], []
        for step in reversed(steps) if reverse else steps:
            ir, iz, i_n = step.chunk(3, 1)
            hr, hz, h_n = linalg.linear(h, w_hh, b_hh).chunk(3, 1)
            r, z = (hr + ir).sigmoid(), (hz + iz).sigmoid()
            n = (i_n + h_n * r).tanh()
            h = (h - n) * z + n
            outs.append(h)
        return pieces.stack(outs[::-1] if reverse else outs, 0), h


__all__ = ["RNNBase", "RNN", "GRU", "LSTM"]

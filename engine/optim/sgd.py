"""``torch.optim.SGD``: p ← p - lr · grad, with momentum, dampening, Nesterov and weight decay, step for step as
PyTorch's ``_single_tensor_sgd``.

Example::

    >>> opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    >>> loss.backward(); opt.step(); opt.zero_grad()
"""

from __future__ import annotations

from typing import Any

from engine.meta import is_meta
from engine.optim.optimizer import Optimizer, _axpy, _held


class SGD(Optimizer):
    """Stochastic gradient descent: p ← p - lr · grad (with optional momentum, weight decay, Nesterov)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        maximize: bool = False,
        **_: Any,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(
            params,
            dict(
                lr=lr,
                momentum=momentum,
                dampening=dampening,
                weight_decay=weight_decay,
                nesterov=nesterov,
                maximize=maximize,
                foreach=None,
                differentiable=False,
                fused=None,
            ),
        )

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            lr, mom, damp, wd = g["lr"], g["momentum"], g["dampening"], g["weight_decay"]
            for p in g["params"]:
                if p.grad is None or is_meta(p._data):  # (p.grad: a non-tensor fails as in PyTorch; meta: no values)
                    continue
                d = p._grad._data if not g["maximize"] else -p._grad._data
                if wd != 0:
                    d = _axpy(d, wd, p._data)
                if mom != 0:
                    st = self._state.setdefault(id(p), {})
                    buf = st.get("momentum_buffer")
                    if buf is None:
                        buf = st["momentum_buffer"] = _held(d.copy())
                    else:
                        buf *= buf.dtype.type(mom)
                        buf[...] = _axpy(buf, 1 - damp, d)
                    d = _axpy(d, mom, buf) if g["nesterov"] else buf
                self._write(p, _axpy(p._data, -lr, d))
        return loss

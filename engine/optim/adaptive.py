"""The optimizers with per-parameter step sizes: ``torch.optim.Adam``, ``AdamW``, ``RMSprop`` and ``Adagrad``, each
following PyTorch's single-tensor update rule operation by operation (its FMAs and MKL's sqrt), so the same run gives
the same weights.

Example::

    >>> opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    >>> loss.backward(); opt.step(); opt.zero_grad()
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.meta import is_meta
from engine.numerics import cpu, native
from engine.optim.optimizer import Optimizer, _addcmul, _axpy, _held, _sqrt, _zeros
from engine.run_state import state


def _step() -> np.ndarray:
    """A step count as PyTorch keeps it: a float32 scalar tensor, counted up in place (a state dict shares it)."""
    return np.zeros((), dtype=np.float32)


class Adam(Optimizer):
    """Adam: per-parameter step sizes from running averages of the gradient and its square."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        maximize: bool = False,
        **_: Any,
    ) -> None:
        if not 0.0 <= lr:  # PyTorch's comparison (its TypeError for a str lr reads '<=' … 'float' and 'str')
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(
            params,
            dict(
                lr=lr,
                betas=betas,
                eps=eps,
                weight_decay=weight_decay,
                amsgrad=amsgrad,
                maximize=maximize,
                foreach=None,
                capturable=False,
                differentiable=False,
                fused=None,
                decoupled_weight_decay=False,
            ),
        )

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            lr, (b1, b2), eps, wd = g["lr"], g["betas"], g["eps"], g["weight_decay"]
            for p in g["params"]:
                if p.grad is None or is_meta(p._data):  # (p.grad: a non-tensor fails as in PyTorch; meta: no values)
                    continue
                grad = p._grad._data if not g["maximize"] else -p._grad._data
                before = p._data.copy() if state().observer is not None else None
                if wd != 0 and not g["decoupled_weight_decay"]:
                    grad = _axpy(grad, wd, p._data)
                if wd != 0 and g["decoupled_weight_decay"]:
                    p._data *= p._data.dtype.type(1 - lr * wd)  # AdamW: shrink the weight itself
                    grad = p._grad._data if not g["maximize"] else -p._grad._data
                st = self._state.setdefault(id(p), {})
                if not st:
                    st["step"] = _step()
                    st["exp_avg"] = _zeros(p._data)
                    st["exp_avg_sq"] = _zeros(p._data)
                    if g["amsgrad"]:
                        st["max_exp_avg_sq"] = _zeros(p._data)
                st["step"] += 1
                t_ = float(st["step"])  # step.item(), as PyTorch reads it
                m, v = st["exp_avg"], st["exp_avg_sq"]
                dt = m.dtype.type
                if not g["amsgrad"] and cpu.mkl_path() != "avx512":  # (MKL's sqrt is modelled on avx512 only)
                    # the whole update below in one compiled pass, the same operations (engine/numerics/native.py)
                    new = native.adam_f32(
                        grad,
                        m,
                        v,
                        p._data,
                        float(np.float32(1 - b1)),
                        b2,
                        1 - b2,
                        math.sqrt(1 - b2**t_),
                        eps,
                        -lr / (1 - b1**t_),
                    )
                    if new is not None:
                        self._write(p, new, before)
                        continue
                m[...] = _axpy(m, 1 - b1, grad - m)  # lerp: m + (1 - b1) (grad - m)
                v *= dt(b2)
                v[...] = _addcmul(v, grad, grad, 1 - b2)
                bc1 = 1 - b1**t_
                bc2 = 1 - b2**t_
                step_size = lr / bc1
                bc2_sqrt = math.sqrt(bc2)
                if g["amsgrad"]:
                    np.maximum(st["max_exp_avg_sq"], v, out=st["max_exp_avg_sq"])
                    denom = _sqrt(st["max_exp_avg_sq"]) / dt(bc2_sqrt) + dt(eps)
                else:
                    denom = _sqrt(v) / dt(bc2_sqrt) + dt(eps)
                self._write(p, p._data + (dt(-step_size) * m) / denom, before)  # addcdiv_(m, denom, value=-step)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay: the weights shrink by lr·weight_decay each step, apart from the
    gradient-based update."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        maximize: bool = False,
        **_: Any,
    ) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)
        for g in self.param_groups:
            g["decoupled_weight_decay"] = True
        self.defaults["decoupled_weight_decay"] = True


class RMSprop(Optimizer):
    """RMSprop: divide each step by the root of a running average of squared gradients."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        maximize: bool = False,
        **_: Any,
    ) -> None:
        for name, value in (
            ("learning rate", lr),
            ("epsilon value", eps),
            ("momentum value", momentum),
            ("weight_decay value", weight_decay),
            ("alpha value", alpha),
        ):
            if not 0.0 <= value:  # PyTorch's comparison, also for its TypeError
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(
            params,
            dict(
                lr=lr,
                momentum=momentum,
                alpha=alpha,
                eps=eps,
                centered=centered,
                weight_decay=weight_decay,
                capturable=False,
                foreach=None,
                maximize=maximize,
                differentiable=False,
            ),
        )

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None or is_meta(p._data):  # (p.grad: a non-tensor fails as in PyTorch; meta: no values)
                    continue
                grad = p._grad._data if not g["maximize"] else -p._grad._data
                dt = p._data.dtype.type
                if g["weight_decay"] != 0:
                    grad = _axpy(grad, g["weight_decay"], p._data)
                st = self._state.setdefault(id(p), {})
                if not st:
                    st.update(step=_step(), square_avg=_zeros(p._data))
                    if g["momentum"] > 0:
                        st["momentum_buffer"] = _zeros(p._data)
                    if g["centered"]:
                        st["grad_avg"] = _zeros(p._data)
                st["step"] += 1
                sq = st["square_avg"]
                sq *= dt(g["alpha"])
                sq[...] = _addcmul(sq, grad, grad, 1 - g["alpha"])
                if g["centered"]:
                    ga = st["grad_avg"]
                    ga[...] = _axpy(ga, 1 - g["alpha"], grad - ga)
                    avg = _sqrt(sq - ga * ga) + dt(g["eps"])
                else:
                    avg = _sqrt(sq) + dt(g["eps"])
                if g["momentum"] > 0:
                    buf = st["momentum_buffer"]
                    buf *= dt(g["momentum"])
                    buf += grad / avg
                    self._write(p, _axpy(p._data, -g["lr"], buf))
                else:
                    self._write(p, p._data + dt(-g["lr"]) * grad / avg)  # addcdiv_(grad, avg, value=-lr)
        return loss


class Adagrad(Optimizer):
    """Adagrad: divide each step by the root of the sum of all squared gradients so far."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        maximize: bool = False,
        **_: Any,
    ) -> None:
        for name, value in (
            ("learning rate", lr),
            ("lr_decay value", lr_decay),
            ("weight_decay value", weight_decay),
            ("initial_accumulator_value value", initial_accumulator_value),
            ("epsilon value", eps),
        ):
            if not 0.0 <= value:  # PyTorch's comparison, also for its TypeError
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(
            params,
            dict(
                lr=lr,
                lr_decay=lr_decay,
                eps=eps,
                weight_decay=weight_decay,
                initial_accumulator_value=initial_accumulator_value,
                foreach=None,
                maximize=maximize,
                differentiable=False,
                fused=None,
            ),
        )
        for g in self.param_groups:  # PyTorch makes Adagrad's state at once: step 0 and the accumulator
            for p in g["params"]:
                self._state[id(p)] = dict(step=_step(), sum=_held(np.full_like(p._data, initial_accumulator_value)))

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None or is_meta(p._data):  # (p.grad: a non-tensor fails as in PyTorch; meta: no values)
                    continue
                grad = p._grad._data if not g["maximize"] else -p._grad._data
                dt = p._data.dtype.type
                st = self._state.setdefault(id(p), {})
                if not st:
                    st.update(step=_step(), sum=_held(np.full_like(p._data, g["initial_accumulator_value"])))
                st["step"] += 1
                if g["weight_decay"] != 0:
                    grad = _axpy(grad, g["weight_decay"], p._data)
                clr = g["lr"] / (1 + (float(st["step"]) - 1) * g["lr_decay"])
                st["sum"][...] = _addcmul(st["sum"], grad, grad, 1)
                std = _sqrt(st["sum"]) + dt(g["eps"])
                self._write(p, p._data + dt(-clr) * grad / std)
        return loss

"""``torch.optim``: ``SGD`` (momentum, weight decay, Nesterov) and ``Adam``, following PyTorch's update rules
step for step, so the same run gives the same weights.

Example::

    >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> loss.backward(); opt.step(); opt.zero_grad()
"""

from __future__ import annotations

import math
import reprlib
from typing import Any

import numpy as np

from engine import numerics
from engine.nn.module import _reset_grad
from engine.run_state import hold, serial_hash, state
from engine.tensor import _TYPE_NAMES, Tensor


def _addcmul(s: np.ndarray, a: np.ndarray, b: np.ndarray, value: float) -> np.ndarray:
    """``s.addcmul_(a, b, value=v)``: one FMA for float32 (engine.numerics)."""
    return numerics.addcmul(s, a, b, value) if s.dtype == np.float32 else s + s.dtype.type(value) * a * b


def _sqrt(a: np.ndarray) -> np.ndarray:
    """``tensor.sqrt()`` as PyTorch's optimizers call it: MKL's float32 sqrt (engine.numerics), IEEE otherwise."""
    return numerics.sqrt(a) if a.dtype == np.float32 else np.sqrt(a)


def _axpy(y: np.ndarray, alpha: float, x: np.ndarray) -> np.ndarray:
    """y + alpha * x rounded once, as PyTorch's ``add(x, alpha=...)`` kernel (a fused multiply-add) does."""
    if y.dtype == np.float32:
        return (y.astype(np.float64) + float(np.float32(alpha)) * x.astype(np.float64)).astype(np.float32)
    return y + alpha * x


_SHORT = reprlib.Repr()  # a hyper-parameter holding a container prints in short (a program can put anything there)
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 10
_SHORT.maxlevel = 3


def _shown(value: Any) -> Any:
    return _SHORT.repr(value) if isinstance(value, (list, tuple, dict, set, frozenset)) else value


def _held(array: np.ndarray) -> np.ndarray:
    """An optimizer state array, counted against the run's budget of memory alive (Adam keeps two per weight)."""
    hold(array)
    return array


def _zeros(like: np.ndarray) -> np.ndarray:
    return _held(np.zeros_like(like))

class Optimizer:
    """Base class: holds ``param_groups`` (each a dict with ``params`` and hyper-parameters) and ``state``."""

    __hash__ = serial_hash

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        self._state: dict[int, dict[str, Any]] = {}
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                f"torch.{_TYPE_NAMES[params._data.dtype.name]}Tensor"
            )
        items = list(params)
        if not items:
            raise ValueError("optimizer got an empty parameter list")
        groups = items if isinstance(items[0], dict) else [{"params": items}]
        for g in groups:
            self.add_param_group(dict(g))

    def add_param_group(self, group: dict[str, Any]) -> None:
        if not isinstance(group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(group)}")
        params = group["params"]
        if isinstance(params, (set, frozenset)):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the ordering of tensors in "
                "sets will change between runs. Please use a list instead."
            )
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + type(p).__name__
                )
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default). Each costs a budget step: over 50,000 parameters,
        zero_grad() in a loop ran to the time limit, one step a call."""
        count = 0
        for g in self.param_groups:
            for p in g["params"]:
                _reset_grad(p, set_to_none)
            count += len(g["params"])
        charge = getattr(state().budget, "charge", None)
        if charge is not None:
            charge(count)

    def _write(self, p: Tensor, new: np.ndarray, before: np.ndarray | None = None) -> None:
        obs = state().observer
        if before is None and obs is not None:
            before = p._data.copy()
        p._data[...] = new
        p._version += 1
        if obs is not None:
            obs.param_stepped(p, before, p._data)

    def __repr__(self) -> str:
        text = f"{type(self).__name__} ("  # PyTorch's layout: each group starts on a fresh line after a newline
        for i, g in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for k in sorted(g):
                if k != "params":
                    text += f"    {k}: {_shown(g[k])}\n"
        return text + ")"


class SGD(Optimizer):
    """Stochastic gradient descent: p ← p - lr · grad (with optional momentum, weight decay, Nesterov)."""

    def __init__(self, params: Any, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, maximize: bool = False, **_: Any) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=None, differentiable=False,
                                      fused=None))

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            lr, mom, damp, wd = g["lr"], g["momentum"], g["dampening"], g["weight_decay"]
            for p in g["params"]:
                if p.grad is None:  # the public name: a non-tensor in param_groups fails as in PyTorch
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


class Adam(Optimizer):
    """Adam: per-parameter step sizes from running averages of the gradient and its square."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, maximize: bool = False, **_: Any) -> None:
        if not 0.0 <= lr:  # PyTorch's comparison (its TypeError for a str lr reads '<=' … 'float' and 'str')
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=None, capturable=False, differentiable=False,
                                      fused=None, decoupled_weight_decay=False))

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            lr, (b1, b2), eps, wd = g["lr"], g["betas"], g["eps"], g["weight_decay"]
            for p in g["params"]:
                if p.grad is None:  # the public name: a non-tensor in param_groups fails as in PyTorch
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
                    st["step"] = 0
                    st["exp_avg"] = _zeros(p._data)
                    st["exp_avg_sq"] = _zeros(p._data)
                    if g["amsgrad"]:
                        st["max_exp_avg_sq"] = _zeros(p._data)
                st["step"] += 1
                t_ = st["step"]
                m, v = st["exp_avg"], st["exp_avg_sq"]
                dt = m.dtype.type
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

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, maximize: bool = False, **_: Any) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)
        for g in self.param_groups:
            g["decoupled_weight_decay"] = True
        self.defaults["decoupled_weight_decay"] = True


class RMSprop(Optimizer):
    """RMSprop: divide each step by the root of a running average of squared gradients."""

    def __init__(self, params: Any, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, maximize: bool = False, **_: Any) -> None:
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= value:  # PyTorch's comparison, also for its TypeError
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=False, foreach=None, maximize=maximize,
                                      differentiable=False))

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:  # the public name: a non-tensor in param_groups fails as in PyTorch
                    continue
                grad = p._grad._data if not g["maximize"] else -p._grad._data
                dt = p._data.dtype.type
                if g["weight_decay"] != 0:
                    grad = _axpy(grad, g["weight_decay"], p._data)
                st = self._state.setdefault(id(p), {})
                if not st:
                    st.update(step=0, square_avg=_zeros(p._data))
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

    def __init__(self, params: Any, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, maximize: bool = False,
                 **_: Any) -> None:
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps)):
            if not 0.0 <= value:  # PyTorch's comparison, also for its TypeError
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=None,
                                      maximize=maximize, differentiable=False, fused=None))

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:  # the public name: a non-tensor in param_groups fails as in PyTorch
                    continue
                grad = p._grad._data if not g["maximize"] else -p._grad._data
                dt = p._data.dtype.type
                st = self._state.setdefault(id(p), {})
                if not st:
                    st.update(step=0, sum=np.full_like(p._data, g["initial_accumulator_value"]))
                st["step"] += 1
                if g["weight_decay"] != 0:
                    grad = _axpy(grad, g["weight_decay"], p._data)
                clr = g["lr"] / (1 + (st["step"] - 1) * g["lr_decay"])
                st["sum"][...] = _addcmul(st["sum"], grad, grad, 1)
                std = _sqrt(st["sum"]) + dt(g["eps"])
                self._write(p, p._data + dt(-clr) * grad / std)
        return loss


__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]

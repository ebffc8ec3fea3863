"""``torch.optim.Optimizer``: param groups, state, ``zero_grad``, ``state_dict``, and the float kernels the update
rules share (PyTorch's fused multiply-adds, MKL's sqrt), so each optimizer repeats PyTorch's steps bit for bit.

Example::

    >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> opt.param_groups[0]["lr"]
    0.1
"""

from __future__ import annotations

import reprlib
from typing import Any

import numpy as np

from engine import numerics
from engine.nn.module import _reset_grad
from engine.numerics import mkl_vml, native
from engine.optim.state_dict import load, pack, state_view
from engine.run_state import hold, serial_hash, state
from engine.tensor import _TYPE_NAMES, Tensor


def _addcmul(s: np.ndarray, a: np.ndarray, b: np.ndarray, value: float) -> np.ndarray:
    """``s.addcmul_(a, b, value=v)``: one FMA for float32 (engine.numerics)."""
    return numerics.addcmul(s, a, b, value) if s.dtype == np.float32 else s + s.dtype.type(value) * a * b


def _sqrt(a: np.ndarray) -> np.ndarray:
    """``tensor.sqrt()`` as PyTorch's optimizers call it: MKL's own when installed (engine/numerics/mkl_vml.py), else
    its float32 model (engine.numerics), IEEE otherwise."""
    out = mkl_vml.call("sqrt", a)
    if out is not None:
        return out
    return numerics.sqrt(a) if a.dtype == np.float32 else np.sqrt(a)


def _axpy(y: np.ndarray, alpha: float, x: np.ndarray) -> np.ndarray:
    """y + alpha * x rounded once, as PyTorch's ``add(x, alpha=...)`` kernel (a fused multiply-add) does."""
    if y.dtype == np.float32:
        a = float(np.float32(alpha))
        compiled = native.axpy_f64(y, a, x)  # the same float64 operations, compiled (engine/numerics/fma_chain.c)
        if compiled is not None:
            return compiled
        return (y.astype(np.float64) + a * x.astype(np.float64)).astype(np.float32)
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
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + type(p).__name__)
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

    def state_dict(self) -> dict[str, Any]:
        """``{'state': ..., 'param_groups': [...]}`` as PyTorch packs them (engine/optim/state_dict.py)."""
        return pack(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the state and hyper-parameters of another optimizer's ``state_dict()``."""
        load(self, state_dict)

    @property
    def state(self) -> Any:
        """Each parameter's state (momentum buffers, running averages) as tensors."""
        return state_view(self)

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

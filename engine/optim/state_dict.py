"""``Optimizer.state_dict()`` and ``load_state_dict()``: the optimizer's state and hyper-parameters as PyTorch packs
them, parameters replaced by their position (0, 1, … across the groups), each group's keys in its own order and
``params`` last.

Example::

    >>> opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    >>> opt.state_dict()
    {'state': {}, 'param_groups': [{'lr': 0.1, 'momentum': 0.9, 'dampening': 0, 'weight_decay': 0, 'nesterov': False,
    'maximize': False, 'foreach': None, 'differentiable': False, 'fused': None, 'params': [0, 1]}]}

The optimizers keep their state as numpy arrays (a step count as a 0-d float32 array, as PyTorch keeps it); the
state dict shows each array as a tensor that shares its memory, as PyTorch's state dict holds the optimizer's own
tensors (a step changes them). Loading takes the tensors' memory in turn (PyTorch's ``.to()``
copies only when the dtype differs).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from engine.ops.operands import made
from engine.tensor import Tensor


def _view(opt: Any, key: tuple[int, str], value: Any) -> Any:
    """The tensor the state dict shows for one state value: the same tensor each time for the same array."""
    if isinstance(value, np.ndarray):
        views = opt.__dict__.setdefault("_state_views", {})
        seen = views.get(key)
        if seen is None or seen._data is not value:
            seen = views[key] = made(value)
        return seen
    return value


def _param_state(opt: Any, p: Tensor) -> dict[str, Any]:
    return {k: _view(opt, (id(p), k), v) for k, v in opt._state.get(id(p), {}).items()}


def pack(opt: Any) -> dict[str, Any]:
    """``{'state': {index: {name: tensor}}, 'param_groups': [{hyper-parameters…, 'params': [indices]}]}``."""
    index: dict[int, int] = {}
    params: dict[int, Tensor] = {}
    groups = []
    start = 0
    for g in opt.param_groups:
        packed = {k: v for k, v in g.items() if k != "params"}
        for i, p in enumerate(g["params"], start):
            if id(p) not in index:
                index[id(p)], params[id(p)] = i, p
        packed["params"] = [index[id(p)] for p in g["params"]]
        start += len(packed["params"])
        groups.append(packed)
    state = {index[k]: _param_state(opt, params[k]) for k in opt._state if k in index}
    state.update(opt.__dict__.get("_loose_state", {}))
    return {"state": state, "param_groups": groups}


def state_view(opt: Any) -> defaultdict[Any, dict[str, Any]]:
    """``optimizer.state``: each parameter with a state, and its state as tensors (a view: read it, assign through
    the state dict)."""
    params = {id(p): p for g in opt.param_groups for p in g["params"]}
    view: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
    for k in opt._state:
        if k in params:
            view[params[k]] = _param_state(opt, params[k])
    return view


def _loaded(param: Tensor, key: Any, value: Any) -> Any:
    """One state value as the optimizer keeps it: an array of the parameter's dtype (the same memory when the dtype
    already matches), the step as a number."""
    if isinstance(value, Tensor):
        if key == "step":  # the step count keeps its dtype
            return value._data
        if param._data.dtype.kind == "f" and value._data.dtype != param._data.dtype:
            return value._data.astype(param._data.dtype)
        return value._data
    if isinstance(value, dict):
        return {k: _loaded(param, k, v) for k, v in value.items()}
    return value


def load(opt: Any, state_dict: Any) -> None:
    """Take the state and hyper-parameters of ``state_dict`` (from ``state_dict()`` of an optimizer over parameters
    of the same shapes, in the same order)."""
    state_dict = dict(state_dict)  # PyTorch copies it shallowly, as Module.load_state_dict does
    groups = opt.param_groups
    saved = [{k: list(v) if isinstance(v, list) else v for k, v in g.items()} for g in state_dict["param_groups"]]
    if len(groups) != len(saved):
        raise ValueError("loaded state dict has a different number of parameter groups")
    if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved)):
        raise ValueError(
            "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
        )
    id_map = {k: p for g, s in zip(groups, saved) for k, p in zip(s["params"], g["params"])}
    state: dict[int, Any] = {}
    loose: dict[Any, Any] = {}
    for k, v in state_dict["state"].items():
        if k in id_map:
            param = id_map[k]
            state[id(param)] = _loaded(param, None, v)
        else:
            loose[k] = v
    for g, s in zip(groups, saved):
        s["params"] = g["params"]
    opt.__dict__.update(_state=state, _loose_state=loose, _state_views={})
    opt.param_groups = saved

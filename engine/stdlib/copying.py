"""The sandbox's ``copy``: ``copy.copy`` and ``copy.deepcopy`` of what programs copy (tensors, modules, optimizer-free
training state, lists, dicts, the learner's own objects), walked by the sandbox itself, never by Python's generic
``__reduce_ex__`` machinery, so that nothing of the host (the interpreter behind a function, a facade module) is
ever copied or rebuilt: functions, classes and modules are shared by reference, as Python shares them.

A tensor copy is a new leaf announced to the trace and counted by the budget; a non-leaf refuses, in PyTorch's
words.

Example::

    >>> c = make_copy(Budget())
    >>> a = [[1], 2]; b = c.deepcopy(a); b[0].append(3); a
    [[1], 2]
"""

from __future__ import annotations

import copy as _copy
from typing import Any

from engine.meta import is_meta
from engine.ops.operands import check_alloc
from engine.run_state import state
from engine.sandbox.budget import Budget
from engine.sandbox.policy import SafeNamespace, SandboxObject
from engine.tensor import Tensor

_ATOMIC = (int, float, bool, complex, str, bytes, type(None), range, type, type(Ellipsis))
NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
    "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, "
    "see https://github.com/pytorch/pytorch/pull/103001"
)


def _tensor_copy(t: Tensor, memo: dict[int, Any], budget: Budget) -> Tensor:
    if t._grad_fn is not None:
        raise RuntimeError(NON_LEAF)
    if not is_meta(t._data):  # (a meta tensor has no elements to copy)
        check_alloc(t._data.size)
    y = type(t)._make(t._data.copy(), None, t._requires_grad)
    memo[id(t)] = y
    obs = state().observer
    if obs is not None:
        obs.tensor_created(y)
    if t._grad is not None:
        y._grad = _tensor_copy(t._grad, memo, budget)
        y._grad._owner = y
    return y


def _engine_object(x: Any) -> bool:
    module = type(x).__module__ or ""
    return isinstance(x, SandboxObject) or module.startswith(("engine.nn", "engine.optim", "engine.lr_scheduler"))


def deep(x: Any, memo: dict[int, Any], budget: Budget) -> Any:
    """``copy.deepcopy`` over what the sandbox knows how to copy; everything else by reference."""
    if isinstance(x, _ATOMIC):
        return x
    found = memo.get(id(x))
    if found is not None:
        return found
    budget.steps += 1
    if budget.steps >= budget.next_check:
        budget.tick()
    if isinstance(x, Tensor):
        return _tensor_copy(x, memo, budget)
    t = type(x)
    if t is list:
        out: Any = []
        memo[id(x)] = out
        out.extend(deep(v, memo, budget) for v in x)
        return out
    if t is tuple:
        out = tuple(deep(v, memo, budget) for v in x)
        return memo.setdefault(id(x), out)
    if isinstance(x, dict) and (
        t is dict or _engine_object(x) or (t.__module__ or "").startswith(("collections", "engine"))
    ):
        out = t.__new__(t) if t is not dict else {}
        if hasattr(x, "default_factory"):
            out.default_factory = x.default_factory
        memo[id(x)] = out
        for k, v in list(x.items()):
            out[deep(k, memo, budget)] = deep(v, memo, budget)
        return out
    if t in (set, frozenset):
        return memo.setdefault(id(x), t(deep(v, memo, budget) for v in x))
    if _engine_object(x) and hasattr(x, "__dict__"):
        out = t.__new__(t)
        memo[id(x)] = out
        for k, v in x.__dict__.items():
            out.__dict__[k] = deep(v, memo, budget)
        return out
    return x  # functions, classes, modules, generators, the facade: shared, as Python shares functions


def shallow(x: Any, budget: Budget) -> Any:
    """``copy.copy``: a new container (or object) holding the same items."""
    if isinstance(x, Tensor):
        return _tensor_copy(x, {}, budget) if x._grad_fn is None else x
    t = type(x)
    if t in (list, dict, set):
        budget.check_length(x, len(x))
        return t(x)
    if isinstance(x, dict) and (t.__module__ or "").startswith(("collections", "engine")):
        return _copy.copy(x)
    if _engine_object(x) and hasattr(x, "__dict__"):
        out = t.__new__(t)
        out.__dict__.update(x.__dict__)
        return out
    return x


def make_copy(budget: Budget) -> SafeNamespace:
    """A fresh ``copy`` for one run."""

    def deepcopy(x: Any, memo: Any = None) -> Any:
        return deep(x, {}, budget)

    def copy(x: Any) -> Any:
        return shallow(x, budget)

    return SafeNamespace("copy", {"copy": copy, "deepcopy": deepcopy})

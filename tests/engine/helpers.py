"""Run the same snippet on real PyTorch and on gradtrace's engine, capturing what it prints."""

from __future__ import annotations

import builtins
import contextlib
import io
from typing import Any

from engine.facade import make_modules
from engine.run_state import RunState, use_state


def run_torch(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
    return out.getvalue()


def run_ours(code: str, observer: Any = None) -> str:
    mods = make_modules()
    real_import = builtins.__import__

    def fake_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if name == "torch" or name.startswith("torch."):
            if fromlist:
                return mods[name]
            return mods["torch"]
        return real_import(name, globals, locals, fromlist, level)

    env_builtins = dict(vars(builtins))
    env_builtins["__import__"] = fake_import
    out = io.StringIO()
    with use_state(RunState(observer=observer)), contextlib.redirect_stdout(out):
        env = {"__builtins__": env_builtins, "__name__": "__snippet__"}
        exec(compile(code, "<snippet>", "exec"), env)
    return out.getvalue()


def make_inputs(spec: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Build the same named inputs for torch and for the engine from ``{name: (ndarray, requires_grad)}``."""
    import numpy as np
    import torch

    from engine.tensor import Tensor

    theirs, ours = {}, {}
    for name, (arr, rg) in spec.items():
        theirs[name] = torch.tensor(np.array(arr), requires_grad=rg)
        ours[name] = Tensor._make(np.array(arr)).requires_grad_(rg)
    return theirs, ours


def namespaces() -> tuple[dict[str, Any], dict[str, Any]]:
    """``torch`` and ``F`` for eval: real ones and the engine's."""
    import torch
    import torch.nn.functional as F

    mods = make_modules()
    return {"torch": torch, "F": F}, {"torch": mods["torch"], "F": mods["torch.nn.functional"]}


def node_names(t: Any) -> tuple[str | None, list[str | None]]:
    fn = t.grad_fn
    if fn is None:
        return None, []
    return fn.name(), [None if n is None else n.name() for n, _ in fn.next_functions]

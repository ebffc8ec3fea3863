"""The facade: fresh namespaces per call, and the safety rule (public attributes of engine objects give only
engine objects or plain values, never numpy arrays or other internals)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from engine.facade import Namespace, make_modules
from engine.run_state import RunState, use_state


def test_fresh_tree_per_call() -> None:
    a, b = make_modules(), make_modules()
    assert set(a) == {
        "torch",
        "torch.nn",
        "torch.nn.functional",
        "torch.nn.init",
        "torch.nn.utils",
        "torch.nn.parameter",
        "torch.optim",
        "torch.optim.lr_scheduler",
        "torch.autograd",
        "torch.autograd.functional",
        "torch.autograd.function",
        "torch.cuda",
        "torch.accelerator",
        "torch.backends",
        "torch.backends.mps",
        "torch.backends.cudnn",
        "torch.random",
        "torch.utils",
        "torch.utils.data",
        "torch.utils.data.dataset",
        "torch.utils.data.dataloader",
        "torch.utils.backcompat",
        "torch.linalg",
        "torch.functional",
        "torch.distributions",
        "torch.distributions.categorical",
        "torch.distributions.multinomial",
        "torch.distributions.normal",
    }
    a["torch"].tensor = None
    assert b["torch"].tensor is not None
    assert a["torch"].nn is a["torch.nn"] and a["torch.nn"].functional is a["torch.nn.functional"]
    assert repr(a["torch"]) == "<module 'torch'>"
    for name in (
        "tensor",
        "zeros",
        "ones",
        "full",
        "arange",
        "linspace",
        "eye",
        "rand",
        "randn",
        "randint",
        "manual_seed",
        "no_grad",
        "enable_grad",
        "set_grad_enabled",
        "float32",
        "float64",
        "int64",
        "bool",
        "float",
        "double",
        "long",
        "Tensor",
        "Size",
        "exp",
        "log",
        "sqrt",
        "tanh",
        "sigmoid",
        "relu",
        "sum",
        "mean",
        "matmul",
        "mm",
        "cat",
        "stack",
        "autograd",
        "nn",
        "optim",
    ):
        assert hasattr(a["torch"], name), name
    assert hasattr(a["torch"].autograd, "grad")


def _plain_ok(v: Any, depth: int = 0) -> bool:
    if v is None or isinstance(v, (bool, int, float, str)):
        return not isinstance(v, np.generic)
    if isinstance(v, (tuple, list)):
        return depth > 3 or all(_plain_ok(x, depth + 1) for x in v)
    if isinstance(v, dict):
        return all(_plain_ok(k, depth + 1) and _plain_ok(x, depth + 1) for k, x in v.items())
    if isinstance(v, Namespace):
        return True
    mod = getattr(type(v), "__module__", "") or ""
    if mod.startswith("engine.") and not isinstance(v, np.ndarray):
        return True
    return inspect.isroutine(v) or inspect.isclass(v) and (v.__module__ or "").startswith("engine")


def _objects() -> list[Any]:
    mods = make_modules()
    torch, nn = mods["torch"], mods["torch.nn"]
    torch.manual_seed(0)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    model = nn.Linear(3, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    out = model(x.unsqueeze(0)).sum()
    out.backward()
    opt.step()
    return [
        x,
        y,
        y.grad_fn,
        y.grad_fn.next_functions[0][0],
        x.grad,
        model,
        model.weight,
        opt,
        x.shape,
        x.dtype,
        x.device,
        torch.manual_seed(1),
        torch.tensor([[1.0, 2.0]]).max(dim=1),
        nn.MSELoss(),
        torch,
        nn.Sequential(nn.Linear(1, 1), nn.ReLU()),
    ]


def test_public_attributes_are_engine_objects_or_plain_values() -> None:
    with use_state(RunState()):
        for obj in _objects():
            for name in dir(obj):
                if name.startswith("_"):
                    continue
                try:
                    value = getattr(obj, name)
                except (RuntimeError, IndexError, AttributeError):
                    continue  # e.g. .mT of a 1-D tensor raises, as in PyTorch
                assert _plain_ok(value), (type(obj).__name__, name, type(value))


@pytest.mark.parametrize(
    "method",
    [
        "size",
        "dim",
        "numel",
        "tolist",
        "item",
        "detach",
        "clone",
        "sum",
        "t",
        "is_leaf",
        "requires_grad",
        "grad_fn",
        "data",
        "shape",
        "dtype",
        "T",
    ],
)
def test_tensor_results_are_safe(method: str) -> None:
    with use_state(RunState()):
        torch = make_modules()["torch"]
        x = torch.tensor([[1.5]], requires_grad=True)
        v = getattr(x, method)
        v = v() if callable(v) else v
        assert _plain_ok(v)


def test_no_numpy_escape_hatches() -> None:
    with use_state(RunState()):
        torch = make_modules()["torch"]
        x = torch.tensor([1.0, 2.0])
        for name in ("__array__", "storage", "untyped_storage"):
            assert not hasattr(x, name)
        a = x.numpy()  # our stand-in (engine/ndarray): the real array only behind an underscore name
        public = {name for name in dir(a) if not name.startswith("_")}
        assert not public & {"base", "ctypes", "data", "tofile", "tobytes", "view", "flags", "strides", "dump"}
        y = (torch.tensor([1.0], requires_grad=True) * 2).grad_fn
        for name in ("forward", "backward"):
            assert not hasattr(y, name)


def test_backcompat_warnings_are_flags_of_the_run() -> None:
    """``torch.utils.backcompat`` (PyTorch's broadcasting note sets its old warning): two flags a program may set,
    each run with its own; a name the module lacks raises PyTorch's AttributeError."""
    import engine
    from tests.oracle import torch_stdout

    code = (
        "import torch\nimport torch.utils.backcompat\nprint(torch.utils.backcompat.broadcast_warning.enabled)\n"
        "torch.utils.backcompat.broadcast_warning.enabled = True\n"
        "print(torch.utils.backcompat.broadcast_warning.enabled, torch.utils.backcompat.keepdim_warning.enabled)\n"
        "try:\n    torch.utils.backcompat.broadcast.warning.enabled = True\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    torch.utils.backcompat.keepdim_warning.enabled = 1\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert engine.run(code).stdout == torch_stdout(code)
    assert engine.run("import torch\nprint(torch.utils.backcompat.broadcast_warning.enabled)").stdout == "False\n"

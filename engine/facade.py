"""The ``torch`` that user code sees: fresh namespaces per run, holding only engine functions and classes.

``make_modules()`` returns a new tree each call, so one run's ``torch.tensor = ...`` never leaks into the next.

Example::

    >>> mods = make_modules()
    >>> mods["torch"].tensor([1., 2.]) * 2
    tensor([2., 4.])
    >>> mods["torch"].nn is mods["torch.nn"]
    True
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from engine import (
    autograd,
    autograd_function,
    autograd_functional,
    data,
    distributions,
    dtypes,
    grad_mode,
    lr_scheduler,
    nn,
    ops,
    optim,
    printing,
    random,
    rng_state,
)
from engine.function_forms import INPLACE_FUNCTIONS, OUT_FORMS, inplace_function
from engine.ops import argcheck, decompositions, factories, linalg_norms
from engine.ops.api import ENTRIES
from engine.ops.methods import keepdims_alias
from engine.ops.outparam import accepts_out
from engine.ops.tensor_data import legacy
from engine.run_state import state
from engine.size_device import Size, check_device, device
from engine.tensor import _TYPE_NAMES, Tensor


class Namespace:
    """A module-like object: its public attributes are the module's functions and classes."""

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self.__dict__.update(members)  # a copy per run: one run's assignments never reach the next
        self.__dict__["_name"] = name

    def __repr__(self) -> str:
        return f"<module '{self._name}'>"

    def __getattr__(self, name: str) -> Any:  # only called for a missing name: say it as Python says it of a module
        raise AttributeError(f"module '{self.__dict__.get('_name', '?')}' has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        return sorted(k for k in self.__dict__ if not k.startswith("_"))


class Flags(Namespace):
    """A settings module whose bool flags user code may set (``torch.backends.cudnn.deterministic = True``, as a
    course's seed cell does), a bool only, as PyTorch; each run has its own copy, so nothing reaches the next."""

    def __init__(self, name: str, members: dict[str, Any], setter: str) -> None:
        super().__init__(name, members)
        self.__dict__["_setter"] = setter  # PyTorch's C setter is named set_<flag>_<setter> ("=name": set_<name>)
        self.__dict__["_flags"] = frozenset(k for k, v in members.items() if isinstance(v, bool))

    def set_flag(self, name: str, value: Any) -> None:
        """``module.name = value`` for one of the flags (the sandbox's policy asks ``_flags`` first)."""
        if not isinstance(value, bool):
            setter = self._setter[1:] if self._setter[0] == "=" else f"{name}_{self._setter}"
            raise RuntimeError(f"set_{setter} expects a bool, but got {type(value).__name__}")
        self.__dict__[name] = value


def _dropout(input: Any, p: float, train: bool) -> Tensor:
    """``torch.dropout`` is ATen's: its range check is a RuntimeError (``F.dropout``'s is a ValueError)."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    return ops.activations.dropout(input, p, train)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _numel(t: Tensor) -> int:
    return t.numel()


def _false() -> bool:
    return False


def _zero() -> int:
    return 0


def _none(*args: Any, **kwargs: Any) -> None:
    return None


def _set_default_device(spec: Any) -> None:
    """``torch.set_default_device('cpu')`` or ``('meta')``: where tensors made without a ``device=`` go (a CUDA
    device fails as PyTorch's CPU build does, at once rather than at the next tensor made)."""
    meta = spec is not None and check_device(spec, meta=True)
    state().default_device[:] = [device("meta")] if meta else []


def _get_default_device() -> device:
    stack = state().default_device
    return stack[-1] if stack else device("cpu")


def _platform_namespaces() -> dict[str, Namespace]:
    """The accelerator queries a course asks before choosing the CPU: ``torch.cuda``, ``torch.accelerator``,
    ``torch.backends.mps``/``cudnn``, and ``torch.random`` (the RNG's functions under their other name)."""
    cuda = Namespace(
        "torch.cuda",
        {"is_available": _false, "device_count": _zero, "manual_seed": _none, "manual_seed_all": _none},
    )
    accelerator = Namespace(
        "torch.accelerator", {"is_available": _false, "current_accelerator": _none, "device_count": _zero}
    )
    mps = Namespace("torch.backends.mps", {"is_available": _false, "is_built": _false})
    cudnn = Flags(
        "torch.backends.cudnn",
        {"is_available": _false, "deterministic": False, "benchmark": False, "enabled": True},
        "cudnn",
    )
    backends = Namespace("torch.backends", {"mps": mps, "cudnn": cudnn})
    rng = Namespace(
        "torch.random",
        {
            "manual_seed": random.manual_seed,
            "seed": random.seed,
            "initial_seed": random.initial_seed,
            "get_rng_state": rng_state.get_rng_state,
            "set_rng_state": rng_state.set_rng_state,
        },
    )
    return {
        "torch.cuda": cuda,
        "torch.accelerator": accelerator,
        "torch.backends": backends,
        "torch.backends.mps": mps,
        "torch.backends.cudnn": cudnn,
        "torch.random": rng,
    }


def _legacy_constructor(dt: dtypes.dtype) -> Any:
    """``torch.FloatTensor([1, 2])`` / ``torch.LongTensor(2, 3)``: the old typed constructors."""

    def make(*args: Any) -> Tensor:
        return factories._new(legacy(args, dt._np))

    make.__name__ = make.__qualname__ = f"{_TYPE_NAMES[np.dtype(dt._np).name]}Tensor"  # Python's errors name it
    make._gt_tensor_type = dt  # type: ignore[attr-defined]  # x.type(torch.FloatTensor) reads it (engine/ops/methods.py)
    return make


@functools.cache
def _torch_members() -> dict[str, Any]:
    """Every declared op with a function form (``engine.ops.api``), then what is not an op."""
    m: dict[str, Any] = {}
    for name, entry in ENTRIES.items():
        if entry.api.function:
            m[name] = keepdims_alias(entry.fn) if entry.api.keepdims else entry.fn
    m.update(
        {
            # random state
            "manual_seed": random.manual_seed,
            "get_rng_state": rng_state.get_rng_state,
            "set_rng_state": rng_state.set_rng_state,
            "seed": random.seed,
            "initial_seed": random.initial_seed,
            "Generator": random.Generator._user,
            # grad mode
            "no_grad": grad_mode.no_grad,
            "enable_grad": grad_mode.enable_grad,
            "inference_mode": grad_mode.no_grad,
            "set_grad_enabled": grad_mode.set_grad_enabled,
            "is_grad_enabled": grad_mode.is_grad_enabled,
            "__version__": "2.13.0+cpu",  # the PyTorch whose behaviour the engine reproduces
            # types
            "Tensor": Tensor,
            "Size": Size,
            "dtype": dtypes.dtype,
            "device": device,
            "is_tensor": _is_tensor,
            "numel": _numel,
            "dropout": _dropout,
            "FloatTensor": _legacy_constructor(dtypes.float32),
            "DoubleTensor": _legacy_constructor(dtypes.float64),
            "LongTensor": _legacy_constructor(dtypes.int64),
            "IntTensor": _legacy_constructor(dtypes.int32),
            "BoolTensor": _legacy_constructor(dtypes.bool_),
            "set_printoptions": printing.set_printoptions,
            "set_default_dtype": dtypes.set_default_dtype,
            "set_default_device": _set_default_device,
            "get_default_device": _get_default_device,
            "use_deterministic_algorithms": _none,
            "get_default_dtype": dtypes.get_default_dtype,
            "pi": math.pi,
            "e": math.e,
            "inf": math.inf,
            "nan": math.nan,
        }
    )
    for name, dt in dtypes.ALIASES.items():
        m[name] = dt
    for name in argcheck.SIGNATURES:
        if name in m and not isinstance(m[name], dtypes.dtype):  # torch.float is the dtype, x.float() the method
            m[name] = argcheck.signed(name, m[name])
    for name in INPLACE_FUNCTIONS:
        if hasattr(Tensor, name):
            m[name] = inplace_function(name)
    for name in OUT_FORMS & m.keys():  # out= is taken off before the argument check sees the call
        m[name] = accepts_out(name, m[name])
    return m


@functools.cache
def _nn_members() -> dict[str, Any]:
    return {name: getattr(nn, name) for name in nn.__all__ if name not in ("functional", "init")}


@functools.cache
def _functional_members() -> dict[str, Any]:
    return {name: getattr(nn.functional, name) for name in nn.functional.__all__}


@functools.cache
def _torch_functional_members() -> dict[str, Any]:
    return {k: v for k, v in _torch_members().items() if k in decompositions.TORCH_FUNCTIONAL}


@functools.cache
def _functional_ag_members() -> dict[str, Any]:
    return {k: v for k, v in _members_of(autograd_functional).items() if k != "gradcheck"}


@functools.cache
def _init_members() -> dict[str, Any]:
    return {name: getattr(nn.init, name) for name in nn.init.__all__}


@functools.cache
def _members_of(module: Any) -> dict[str, Any]:
    return {name: getattr(module, name) for name in module.__all__}


# the submodule of torch.distributions each class lives in (``from torch.distributions.normal import Normal``)
_DISTRIBUTION_FILES = {"Categorical": "categorical", "Multinomial": "multinomial", "Normal": "normal"}


def make_modules() -> dict[str, Namespace]:
    """A fresh ``torch`` module tree for one run: keys ``torch``, ``torch.nn``, ``torch.nn.functional``,
    ``torch.nn.init``, ``torch.nn.utils``, ``torch.nn.parameter``, ``torch.optim``, ``torch.optim.lr_scheduler``,
    ``torch.autograd``, ``torch.autograd.functional``, ``torch.autograd.function``, ``torch.utils``,
    ``torch.utils.data``, ``torch.linalg``, ``torch.functional``, ``torch.distributions`` (and its modules of
    ``_DISTRIBUTION_FILES``) and the platform's (``torch.cuda``, ``torch.accelerator``, ``torch.backends``,
    ``torch.backends.mps``, ``torch.backends.cudnn``, ``torch.random``)."""
    functional = Namespace("torch.nn.functional", _functional_members())
    init = Namespace("torch.nn.init", _init_members())
    utils = Namespace("torch.nn.utils", _members_of(nn.utils))
    parameter = Namespace(
        "torch.nn.parameter", {"Parameter": nn.Parameter, "UninitializedParameter": nn.UninitializedParameter}
    )
    nn_ns = Namespace(
        "torch.nn",
        {**_nn_members(), "functional": functional, "init": init, "utils": utils, "parameter": parameter},
    )
    platform = _platform_namespaces()
    schedulers = Namespace("torch.optim.lr_scheduler", _members_of(lr_scheduler))
    optim_ns = Namespace(
        "torch.optim",
        {
            "SGD": optim.SGD,
            "Adam": optim.Adam,
            "AdamW": optim.AdamW,
            "Optimizer": optim.Optimizer,
            "lr_scheduler": schedulers,
            "RMSprop": optim.RMSprop,
            "Adagrad": optim.Adagrad,
        },
    )
    data_members = _members_of(data)
    dataset_ns = Namespace(  # torch.utils.data's own submodules, as courses import from them
        "torch.utils.data.dataset", {k: data_members[k] for k in ("Dataset", "TensorDataset", "Subset", "random_split")}
    )
    dataloader_ns = Namespace(
        "torch.utils.data.dataloader", {k: data_members[k] for k in ("DataLoader", "Dataset", "default_collate")}
    )
    data_ns = Namespace("torch.utils.data", {**data_members, "dataset": dataset_ns, "dataloader": dataloader_ns})
    backcompat_ns = Namespace(  # PyTorch's old broadcast/keepdim warnings: flags a learner may set, nothing more
        "torch.utils.backcompat",
        {
            f"{kind}_warning": Flags(
                f"torch.utils.backcompat.{kind}_warning", {"enabled": False}, f"=backcompat_{kind}_warn"
            )
            for kind in ("broadcast", "keepdim")
        },
    )
    utils_ns = Namespace("torch.utils", {"data": data_ns, "backcompat": backcompat_ns})
    functional_ag = Namespace(
        "torch.autograd.functional",  # gradcheck lives in torch.autograd only, as in PyTorch
        _functional_ag_members(),
    )
    function_ns = Namespace(
        "torch.autograd.function",
        {"Function": autograd_function.Function, "once_differentiable": autograd_function.once_differentiable},
    )
    autograd_ns = Namespace(
        "torch.autograd",
        {
            "grad": autograd.grad,
            "backward": autograd.backward,
            "functional": functional_ag,
            "function": function_ns,
            "gradcheck": autograd_functional.gradcheck,
            "Function": autograd_function.Function,
            "Variable": autograd_function.Variable,
        },
    )
    linalg_ns = Namespace("torch.linalg", {**decompositions.LINALG, **linalg_norms.LINALG_NORMS})
    dist = {name: getattr(distributions, name) for name in distributions.__all__}
    dist_ns = Namespace(
        "torch.distributions",
        {**dist, **{m: Namespace(f"torch.distributions.{m}", {c: dist[c]}) for c, m in _DISTRIBUTION_FILES.items()}},
    )
    functional_torch = Namespace(  # what the engine has of torch.functional.__all__ (a real module of PyTorch)
        "torch.functional", _torch_functional_members()
    )
    torch_ns = Namespace(
        "torch",
        {
            **_torch_members(),
            "linalg": linalg_ns,
            "distributions": dist_ns,
            "functional": functional_torch,
            "nn": nn_ns,
            "optim": optim_ns,
            "autograd": autograd_ns,
            "utils": utils_ns,
            **{key[6:]: ns for key, ns in platform.items() if key.count(".") == 1},
        },
    )
    return {
        "torch": torch_ns,
        "torch.nn": nn_ns,
        "torch.nn.functional": functional,
        "torch.nn.init": init,
        "torch.nn.utils": utils,
        "torch.nn.parameter": parameter,
        "torch.optim": optim_ns,
        "torch.optim.lr_scheduler": schedulers,
        "torch.autograd": autograd_ns,
        "torch.autograd.functional": functional_ag,
        "torch.autograd.function": function_ns,
        "torch.utils": utils_ns,
        "torch.utils.data": data_ns,
        "torch.utils.data.dataset": dataset_ns,
        "torch.utils.data.dataloader": dataloader_ns,
        "torch.utils.backcompat": backcompat_ns,
        "torch.linalg": linalg_ns,
        "torch.distributions": dist_ns,
        **{f"torch.distributions.{m}": getattr(dist_ns, m) for m in _DISTRIBUTION_FILES.values()},
        "torch.functional": functional_torch,
        **platform,
    }


__all__ = ["Namespace", "make_modules"]

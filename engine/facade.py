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
    autograd, autograd_functional, data, dtypes, lr_scheduler, nn, ops, optim, printing, random, rng_state,
)
from engine.ops import argcheck, arith, elementwise, factories, linalg, ordering, pieces, shape
from engine.ops.base import binary_operands, made
from engine.tensor import Size, Tensor, device


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


def _allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    a, b = binary_operands(a, b)
    return bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _isclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    a, b = binary_operands(a, b)
    return made(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _equal(a: Tensor, b: Tensor) -> bool:
    return a._data.shape == b._data.shape and bool((a._data == b._data).all())


def _dropout(input: Any, p: float, train: bool) -> Tensor:  # noqa: A002 - PyTorch's names
    """``torch.dropout`` is ATen's: its range check is a RuntimeError (``F.dropout``'s is a ValueError)."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    return ops.dropout(input, p, train)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _numel(t: Tensor) -> int:
    return t.numel()


def _false() -> bool:
    return False


def _zero() -> int:
    return 0


def _legacy_constructor(dt: dtypes.dtype) -> Any:
    """``torch.FloatTensor([1, 2])`` / ``torch.LongTensor(2, 3)``: the old typed constructors."""

    def make(*args: Any) -> Tensor:
        from engine.ops.tensor_data import legacy

        return factories._new(legacy(args, dt._np))

    return make


@functools.cache
def _torch_members() -> dict[str, Any]:
    m: dict[str, Any] = {
        # creation
        "tensor": factories.tensor, "as_tensor": factories.as_tensor, "zeros": factories.zeros,
        "ones": factories.ones, "full": factories.full, "empty": factories.empty, "arange": factories.arange,
        "linspace": factories.linspace, "eye": factories.eye, "zeros_like": factories.zeros_like,
        "ones_like": factories.ones_like, "full_like": factories.full_like, "empty_like": factories.empty_like,
        "rand": factories.rand, "randn": factories.randn, "randint": factories.randint,
        "rand_like": factories.rand_like, "randn_like": factories.randn_like, "randperm": factories.randperm,
        "normal": factories.normal, "bernoulli": factories.bernoulli,
        "multinomial": factories.multinomial,
        # random state
        "manual_seed": random.manual_seed, "get_rng_state": rng_state.get_rng_state,
        "set_rng_state": rng_state.set_rng_state, "seed": random.seed, "initial_seed": random.initial_seed,
        "Generator": random.Generator._user,
        # grad mode
        "no_grad": autograd.no_grad, "enable_grad": autograd.enable_grad, "inference_mode": autograd.no_grad,
        "set_grad_enabled": autograd.set_grad_enabled, "is_grad_enabled": autograd.is_grad_enabled,
        # types
        "Tensor": Tensor, "Size": Size, "dtype": dtypes.dtype, "device": device, "is_tensor": _is_tensor,
        "numel": _numel,
        # math
        "exp": ops.exp, "log": ops.log, "sqrt": ops.sqrt, "tanh": ops.tanh, "sigmoid": ops.sigmoid,
        "relu": ops.relu, "abs": ops.abs, "sin": ops.sin, "cos": ops.cos, "clamp": ops.clamp, "clip": ops.clamp,
        "sum": ops.sum, "mean": ops.mean, "max": ops.max, "min": ops.min, "prod": ops.prod,
        "argmax": ops.argmax, "argmin": ops.argmin, "matmul": ops.matmul, "mm": ops.mm, "dot": ops.dot,
        "add": ops.add, "sub": ops.sub, "mul": ops.mul, "div": ops.div, "pow": ops.pow, "neg": ops.neg,
        "square": lambda x: ops.pow(x, 2), "reciprocal": ops.reciprocal,
        "maximum": arith.maximum, "minimum": arith.minimum, "where": arith.where,
        "cat": ops.cat, "concat": ops.cat, "stack": ops.stack, "reshape": ops.reshape, "flatten": ops.flatten,
        "transpose": ops.transpose, "t": ops.t, "permute": ops.permute, "squeeze": ops.squeeze,
        "unsqueeze": ops.unsqueeze, "softmax": ops.softmax, "log_softmax": ops.log_softmax,
        "clone": shape.clone, "allclose": _allclose, "isclose": _isclose, "equal": _equal,
        "std": ops.std, "var": ops.var, "norm": ops.norm, "logsumexp": ops.logsumexp, "all": ops.all,
        "any": ops.any, "sign": ops.sign, "round": ops.round, "floor": ops.floor, "ceil": ops.ceil,
        "masked_fill": ops.masked_fill, "dropout": _dropout,
        "amax": pieces.amax, "amin": pieces.amin, "split": pieces.split, "chunk": pieces.chunk,
        "unbind": pieces.unbind, "gather": pieces.gather, "log1p": elementwise.log1p, "rsqrt": elementwise.rsqrt,
        "tan": elementwise.tan, "log2": elementwise.log2, "exp2": elementwise.exp2, "bmm": linalg.bmm,
        "mv": linalg.mv,
        **{name: getattr(ordering, name) for name in ordering.__all__},
        "clamp_min": lambda x, m: ops.clamp(x, min=m), "clamp_max": lambda x, m: ops.clamp(x, max=m),
        **{name: getattr(Tensor, name) for name in ("eq", "ne", "lt", "le", "gt", "ge")},
        "logical_and": Tensor.logical_and, "logical_or": Tensor.logical_or, "logical_not": Tensor.logical_not,
        "FloatTensor": _legacy_constructor(dtypes.float32), "DoubleTensor": _legacy_constructor(dtypes.float64),
        "LongTensor": _legacy_constructor(dtypes.int64), "IntTensor": _legacy_constructor(dtypes.int32),
        "BoolTensor": _legacy_constructor(dtypes.bool_),
        "set_printoptions": printing.set_printoptions, "set_default_dtype": dtypes.set_default_dtype,
        "get_default_dtype": dtypes.get_default_dtype,
        "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan,
    }
    for name, dt in dtypes.ALIASES.items():
        m[name] = dt
    from engine.ops.methods import KEEPDIMS, keepdims_alias

    for name in KEEPDIMS:
        if name in m:
            m[name] = keepdims_alias(m[name])
    for name in _TENSOR_INPUT:
        m[name] = _tensor_input(name, m[name])
    for name in argcheck.SIGNATURES:
        if name in m and not isinstance(m[name], dtypes.dtype):  # torch.float is the dtype, x.float() the method
            m[name] = argcheck.signed(name, m[name])
    return m


# torch functions whose first argument must be a tensor, refused in PyTorch's words (``torch.exp(3)``)
_TENSOR_INPUT = (
    "exp log sqrt tanh sigmoid relu abs sin cos tan log1p rsqrt log2 exp2 neg reciprocal sign round floor ceil "
    "sum mean max min prod argmax argmin amax amin logsumexp cumsum softmax log_softmax clone t reshape flatten "
    "transpose permute squeeze unsqueeze matmul dot sort argsort topk flip triu tril diag nonzero count_nonzero numel"
).split()


def _tensor_input(name: str, fn: Any) -> Any:
    """``fn`` refusing a non-tensor first argument as PyTorch's argument parser does (for a call with only it)."""

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs and not isinstance(args[0], Tensor):
            raise argcheck.must_be(name, "input", 1, "Tensor", args[0])
        return fn(*args, **kwargs)

    return checked


@functools.cache
def _nn_members() -> dict[str, Any]:
    return {name: getattr(nn, name) for name in nn.__all__ if name not in ("functional", "init")}


@functools.cache
def _functional_members() -> dict[str, Any]:
    return {name: getattr(nn.functional, name) for name in nn.functional.__all__}


@functools.cache
def _init_members() -> dict[str, Any]:
    return {name: getattr(nn.init, name) for name in nn.init.__all__}


@functools.cache
def _members_of(module: Any) -> dict[str, Any]:
    return {name: getattr(module, name) for name in module.__all__}


def make_modules() -> dict[str, Namespace]:
    """A fresh ``torch`` module tree for one run: keys ``torch``, ``torch.nn``, ``torch.nn.functional``,
    ``torch.nn.init``, ``torch.nn.utils``, ``torch.optim``, ``torch.optim.lr_scheduler``, ``torch.autograd``,
    ``torch.autograd.functional``, ``torch.cuda``, ``torch.utils``, ``torch.utils.data``."""
    functional = Namespace("torch.nn.functional", _functional_members())
    init = Namespace("torch.nn.init", _init_members())
    utils = Namespace("torch.nn.utils", _members_of(nn.utils))
    nn_ns = Namespace("torch.nn", {**_nn_members(), "functional": functional, "init": init, "utils": utils})
    cuda = Namespace("torch.cuda", {"is_available": _false, "device_count": _zero})
    schedulers = Namespace("torch.optim.lr_scheduler", _members_of(lr_scheduler))
    optim_ns = Namespace("torch.optim", {"SGD": optim.SGD, "Adam": optim.Adam, "AdamW": optim.AdamW,
                                          "Optimizer": optim.Optimizer, "lr_scheduler": schedulers,
                                          "RMSprop": optim.RMSprop, "Adagrad": optim.Adagrad})
    data_ns = Namespace("torch.utils.data", _members_of(data))
    utils_ns = Namespace("torch.utils", {"data": data_ns})
    functional_ag = Namespace("torch.autograd.functional",  # gradcheck lives in torch.autograd only, as in PyTorch
                              {k: v for k, v in _members_of(autograd_functional).items() if k != "gradcheck"})
    autograd_ns = Namespace("torch.autograd", {"grad": autograd.grad, "backward": autograd.backward,
                                               "functional": functional_ag,
                                               "gradcheck": autograd_functional.gradcheck})
    torch_ns = Namespace("torch", {**_torch_members(), "nn": nn_ns, "optim": optim_ns, "autograd": autograd_ns,
                                   "cuda": cuda, "utils": utils_ns})
    return {
        "torch": torch_ns,
        "torch.nn": nn_ns,
        "torch.nn.functional": functional,
        "torch.nn.init": init,
        "torch.nn.utils": utils,
        "torch.optim": optim_ns,
        "torch.optim.lr_scheduler": schedulers,
        "torch.autograd": autograd_ns,
        "torch.autograd.functional": functional_ag,
        "torch.utils": utils_ns,
        "torch.utils.data": data_ns,
        "torch.cuda": cuda,
    }


__all__ = ["Namespace", "make_modules"]

"""Layers: ``Linear``, the activations (``ReLU``, ``Tanh``, ``Sigmoid``, …), ``Flatten`` and ``Identity``.

Example::

    >>> torch.manual_seed(0)
    >>> nn.Linear(10, 2)
    Linear(in_features=10, out_features=2, bias=True)
"""

from __future__ import annotations

import math
from typing import Any

from engine import dtypes
from engine.nn import functional, init
from engine.nn.module import Module, Parameter, _addindent
from engine.ops import activations, argcheck, elementwise, factories, linalg
from engine.ops.factories import _size
from engine.size_device import check_device
from engine.tensor import Tensor


def _check_input(x: Any, op: str) -> None:
    """A layer called on a non-tensor fails in the words of the PyTorch op it runs (``nn.ReLU()(3)``)."""
    if not isinstance(x, Tensor):
        raise argcheck.must_be(op, "input", 1, "Tensor", x)


def linear_parameters(
    in_features: int, out_features: int, bias: bool, dtype: Any, meta: bool = False
) -> tuple[Tensor, Tensor | None]:
    """A Linear layer's weight and bias, drawn as PyTorch draws them (kaiming-uniform, then uniform in
    ±1/√in_features): ``nn.Linear`` and ``nn.LazyLinear``'s first call make the same draws."""
    np_dt = dtypes.default_np() if dtype is None else dtype._np
    _size(((out_features, in_features),), "empty")  # torch.empty((out, in)): its refusals, in its words
    w = init.blank((out_features, in_features), np_dt, meta)
    init.kaiming_uniform_(w, a=math.sqrt(5))
    b = None
    if bias:
        b = init.blank((out_features,), np_dt, meta)
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        init.uniform_(b, -bound, bound)
    return w, b


class Linear(Module):
    """y = x @ weightᵀ + bias, with weight of shape (out_features, in_features), initialised as PyTorch does
    (uniform in ±1/√in_features)."""

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, dtype: Any = None, device: Any = None
    ) -> None:
        super().__init__()
        meta = check_device(device, meta=True)
        self.in_features = in_features
        self.out_features = out_features
        w, b = linear_parameters(in_features, out_features, bias, dtype, meta)
        self.weight = Parameter(w)
        if b is not None:
            self.bias = Parameter(b)
        else:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "linear")
        return linalg.linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class ReLU(Module):
    """max(x, 0), elementwise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "relu")
        return elementwise.relu(x)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ELU(Module):
    """x above 0, α(eˣ - 1) below."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, x: Tensor) -> Tensor:
        return functional.elu(x, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SiLU(Module):
    """x · σ(x) (also called swish)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "silu")
        return elementwise.silu(x)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """ln(1 + e^(βx)) / β, a smooth ReLU."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: Tensor) -> Tensor:
        return functional.softplus(x, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """a clipped to [min_val, max_val]."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        if not max_val > min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, x: Tensor) -> Tensor:
        return functional.hardtanh(x, self.min_val, self.max_val)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(a, 0), 6)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    """ln σ(a)."""

    def forward(self, x: Tensor) -> Tensor:
        return functional.logsigmoid(x)


class LeakyReLU(Module):
    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return functional.leaky_relu(x, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class PReLU(Module):
    """x if x > 0 else a·x, with ``a`` learned: one value, or one per channel (``num_parameters``), from ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        check_device(device)
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(factories.full((num_parameters,), float(init), dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        return functional.prelu(x, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return functional.gelu(x, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Dropout(Module):
    """Zero random elements with probability p while training (PyTorch's mask for the same seed)."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:  # PyTorch's check, in its order (a str p: "'<' not supported … 'str' and 'int'")
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "dropout")
        return activations.dropout(x, self.p, self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zero whole channels of (N, C, L) inputs with probability p while training."""

    def forward(self, x: Tensor) -> Tensor:
        return functional.dropout1d(x, self.p, self.training)


class Dropout2d(Dropout):
    """Zero whole channels of (N, C, H, W) inputs with probability p while training."""

    def forward(self, x: Tensor) -> Tensor:
        return functional.dropout2d(x, self.p, self.training)


class Tanh(Module):
    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "tanh")
        return elementwise.tanh(x)


class Sigmoid(Module):
    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, "sigmoid")
        return elementwise.sigmoid(x)


class Softmax(Module):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return functional.softmax(x, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, x: Tensor) -> Tensor:
        return functional.log_softmax(x, self.dim)


class Identity(Module):
    def forward(self, x: Tensor) -> Tensor:
        return x


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):  # PyTorch calls input.flatten(…)
            raise AttributeError(f"'{type(x).__name__}' object has no attribute 'flatten'")
        return x.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Sequential(Module):
    """Runs its modules one after another: ``Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))``."""

    def __init__(self, *mods: Module) -> None:
        super().__init__()
        if len(mods) == 1 and isinstance(mods[0], dict):
            for k, m in mods[0].items():
                self.add_module(k, m)
        else:
            for i, m in enumerate(mods):
                self.add_module(str(i), m)

    def forward(self, x: Any) -> Any:
        for m in self.__dict__["_modules"].values():
            x = m(x)
        return x

    def __getitem__(self, idx: int) -> Any:
        mods = list(self.__dict__["_modules"].values())
        if isinstance(idx, slice):
            return Sequential(*mods[idx])
        if not -len(mods) <= idx < len(mods):
            raise IndexError(f"index {idx} is out of range")
        return mods[idx]

    def __len__(self) -> int:
        return len(self.__dict__["_modules"])

    def __iter__(self) -> Any:
        return iter(list(self.__dict__["_modules"].values()))

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


class ModuleList(Module):
    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        for m in modules or []:
            self.append(m)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self.__dict__["_modules"])), module)
        return self

    def __getitem__(self, idx: int) -> Any:
        return list(self.__dict__["_modules"].values())[idx]

    def __len__(self) -> int:
        return len(self.__dict__["_modules"])

    def __iter__(self) -> Any:
        return iter(list(self.__dict__["_modules"].values()))

    def __repr__(self) -> str:
        """PyTorch's compressed form: runs of identical entries print once, as ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return "ModuleList()"
        runs: list[list[Any]] = []
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = [_addindent(f"({a}): {r}" if a == b else f"({a}-{b}): {b - a + 1} x {r}", 2) for a, b, r in runs]
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"

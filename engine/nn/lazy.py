"""``nn.LazyLinear``: a Linear layer whose ``in_features`` is read from its first input.

Until then its weight and bias are ``UninitializedParameter``s (printed ``<UninitializedParameter>``) and it prints
as ``LazyLinear(in_features=0, out_features=…)``; its first call draws them exactly as ``nn.Linear`` would (the same
RNG draws), turns the same parameter objects into ordinary Parameters (an optimizer made before keeps them) and the
layer into a ``Linear``.

Example::

    >>> net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
    >>> net(torch.rand(2, 3)).shape
    torch.Size([2, 1])
    >>> net[0]
    Linear(in_features=3, out_features=4, bias=True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.nn.layers import Linear, linear_parameters
from engine.nn.module import Module, Parameter
from engine.size_device import check_device
from engine.tensor import Tensor

_UNINITIALIZED = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in `load_state_dict` "
    "when trying to load an uninitialized parameter into an initialized one. Call `forward` to initialize the "
    "parameters before accessing their attributes."
)


class UninitializedParameter(Parameter):
    """A parameter with no shape yet (a lazy layer's, before its first call)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__

    @property
    def shape(self) -> Any:
        raise RuntimeError(_UNINITIALIZED)

    def size(self, dim: int | None = None) -> Any:
        raise RuntimeError(_UNINITIALIZED)

    def detach(self) -> Tensor:
        return self  # (state_dict() shows it as it is)

    def _materialize(self, data: Tensor) -> None:
        """Take ``data``'s values and become an ordinary Parameter (the same object)."""
        self._data = data._data
        object.__setattr__(self, "__class__", Parameter)


class LazyLinear(Linear):
    """``nn.LazyLinear(out_features)``: ``in_features`` comes from the first input's last dimension."""

    def __init__(self, out_features: int, bias: bool = True, dtype: Any = None, device: Any = None) -> None:
        Module.__init__(self)
        check_device(device)
        self.in_features = 0
        self.out_features = out_features
        self.__dict__["_lazy_dtype"] = dtype
        self.weight = UninitializedParameter(Tensor._make(np.zeros(0, np.float32)))
        if bias:
            self.bias = UninitializedParameter(Tensor._make(np.zeros(0, np.float32)))
        else:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        if isinstance(self.weight, UninitializedParameter) and isinstance(x, Tensor):
            self.in_features = int(x._data.shape[-1]) if x._data.ndim else 1
            bias = self.bias is not None
            w, b = linear_parameters(self.in_features, self.out_features, bias, self.__dict__["_lazy_dtype"])
            weight: Any = self.weight
            weight._materialize(w)
            if b is not None:
                bias_param: Any = self.bias
                bias_param._materialize(b)
            object.__setattr__(self, "__class__", Linear)  # as PyTorch's cls_to_become
        return Linear.forward(self, x)


__all__ = ["LazyLinear", "UninitializedParameter"]

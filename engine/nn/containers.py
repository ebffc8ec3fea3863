"""Containers keyed by name or number: ``nn.ModuleDict``, ``nn.ParameterList`` and ``nn.ParameterDict``, printed
and walked as PyTorch's (a ParameterDict built from a plain dict sorts its keys, as PyTorch does).

Example::

    >>> nn.ParameterList([nn.Parameter(torch.ones(2))])
    ParameterList(  (0): Parameter containing: [torch.float32 of size 2])
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine.nn.module import Module, Parameter
from engine.tensor import Tensor


def _pairs(items: Any, sort_plain_dicts: bool) -> list[tuple[str, Any]]:
    if isinstance(items, (OrderedDict, Module)) or not isinstance(items, dict):
        pairs = list(items.items()) if hasattr(items, "items") else list(items)
    else:
        pairs = sorted(items.items()) if sort_plain_dicts else list(items.items())
    for i, pair in enumerate(pairs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"update sequence element #{i} should be of length 2; got {len(pair)}")
    return [(k, v) for k, v in pairs]


class ModuleDict(Module):
    """Sub-modules by name: ``md["fc"]``, ``keys()``, ``items()``, ``update()``, ``pop()``; registered as children."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Any:
        return self.__dict__["_modules"][key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self.__dict__["_modules"][key]

    def __len__(self) -> int:
        return len(self.__dict__["_modules"])

    def __iter__(self) -> Any:
        return iter(list(self.__dict__["_modules"]))

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__["_modules"]

    def keys(self) -> Any:
        return self.__dict__["_modules"].keys()

    def values(self) -> Any:
        return self.__dict__["_modules"].values()

    def items(self) -> Any:
        return self.__dict__["_modules"].items()

    def clear(self) -> None:
        self.__dict__["_modules"].clear()

    def pop(self, key: str) -> Any:
        return self.__dict__["_modules"].pop(key)

    def update(self, modules: Any) -> None:
        for key, module in _pairs(modules, sort_plain_dicts=False):
            self[key] = module


def _param(value: Any) -> Any:
    """A plain tensor put in a parameter container becomes a Parameter, as in PyTorch."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


def _describe(p: Any, dtype_name: str) -> str:
    if isinstance(p, Tensor):
        size = "x".join(str(s) for s in p._data.shape)
        return f"{'Parameter' if isinstance(p, Parameter) else 'Tensor'} containing: [{dtype_name} of size {size}]"
    return f"Object of type: {type(p).__name__}"


class ParameterList(Module):
    """Parameters by position, registered as ``"0"``, ``"1"``, …: ``pl[0]``, ``append``, ``extend``, ``len``."""

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        for v in values or []:
            self.append(v)

    def __getitem__(self, idx: Any) -> Any:
        params = list(self.__dict__["_parameters"].values())
        if isinstance(idx, slice):
            return ParameterList(params[idx])
        if not -len(params) <= idx < len(params):
            raise IndexError(f"index {idx} is out of range")
        return params[idx]

    def __setitem__(self, idx: int, param: Any) -> None:
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        self.register_parameter(str(idx % n), _param(param))

    def __len__(self) -> int:
        return len(self.__dict__["_parameters"])

    def __iter__(self) -> Any:
        return iter(list(self.__dict__["_parameters"].values()))

    def append(self, value: Any) -> ParameterList:
        self.register_parameter(str(len(self)), _param(value))
        return self

    def extend(self, values: Any) -> ParameterList:
        for v in values:
            self.append(v)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_describe(p, str(p.dtype))}" for i, p in enumerate(self))


class ParameterDict(Module):
    """Parameters by name: ``pd["w"]``, ``keys()``, ``items()``, ``update()``."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return self.__dict__["_parameters"][key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.register_parameter(key, _param(value))

    def __delitem__(self, key: str) -> None:
        del self.__dict__["_parameters"][key]

    def __len__(self) -> int:
        return len(self.__dict__["_parameters"])

    def __iter__(self) -> Any:
        return iter(list(self.__dict__["_parameters"]))

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__["_parameters"]

    def keys(self) -> Any:
        return self.__dict__["_parameters"].keys()

    def values(self) -> Any:
        return self.__dict__["_parameters"].values()

    def items(self) -> Any:
        return self.__dict__["_parameters"].items()

    def pop(self, key: str) -> Any:
        return self.__dict__["_parameters"].pop(key)

    def update(self, parameters: Any) -> None:
        for key, value in _pairs(parameters, sort_plain_dicts=True):
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_describe(p, p.type() if isinstance(p, Tensor) else '')}" for k, p in self.items())


__all__ = ["ModuleDict", "ParameterDict", "ParameterList"]

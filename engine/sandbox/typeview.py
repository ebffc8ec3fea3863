"""``type(x)`` as user code sees it: the classes it can already name, or stand-ins that print and compare like them.

``type(x)`` gives back what the learner could have written: their own classes, ``int``/``float``/``bool``, the run's
``list``/``dict``/``str``... (``BuiltinType``: the sandbox's checked wrappers, printed ``<class 'list'>``), and the
facade's classes (``torch.Tensor``, ``nn.Linear``), so that ``type(m) == nn.Linear`` and ``type(x) is float`` hold.
Any other class (a graph node's, a module's, ``NoneType``) comes as a ``HiddenType``: it prints as Python prints
the class (``<class 'MulBackward0'>``), has a ``__name__``, compares and works in ``isinstance``, and cannot be
called, subclassed or looked into. Engine classes print with PyTorch's names (``<class 'torch.Tensor'>``).

Example::

    >>> type_of(torch.ones(1))       # the facade's class itself
    <class 'torch.Tensor'>
    >>> type_of(None)
    <class 'NoneType'>
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.run_state import serial_hash
from engine.sandbox.errors import NotSupported

# PyTorch 2.13's module and name of each facade class (read from real torch), by the engine class's own.
TORCH_NAMES = {
    "engine.data.DataLoader": "torch.utils.data.dataloader.DataLoader",
    "engine.distributions.Categorical": "torch.distributions.categorical.Categorical",
    "engine.distributions.Distribution": "torch.distributions.distribution.Distribution",
    "engine.distributions.Multinomial": "torch.distributions.multinomial.Multinomial",
    "engine.distributions.Normal": "torch.distributions.normal.Normal",
    "engine.data.Dataset": "torch.utils.data.dataset.Dataset",
    "engine.data.Subset": "torch.utils.data.dataset.Subset",
    "engine.data.TensorDataset": "torch.utils.data.dataset.TensorDataset",
    "engine.dtypes.dtype": "torch.dtype",
    "engine.grad_mode.enable_grad": "torch.autograd.grad_mode.enable_grad",
    "engine.grad_mode.no_grad": "torch.autograd.grad_mode.no_grad",
    "engine.grad_mode.set_grad_enabled": "torch.autograd.grad_mode.set_grad_enabled",
    "engine.lr_scheduler.CosineAnnealingLR": "torch.optim.lr_scheduler.CosineAnnealingLR",
    "engine.lr_scheduler.ExponentialLR": "torch.optim.lr_scheduler.ExponentialLR",
    "engine.lr_scheduler.LRScheduler": "torch.optim.lr_scheduler.LRScheduler",
    "engine.lr_scheduler.LambdaLR": "torch.optim.lr_scheduler.LambdaLR",
    "engine.lr_scheduler.MultiStepLR": "torch.optim.lr_scheduler.MultiStepLR",
    "engine.lr_scheduler.StepLR": "torch.optim.lr_scheduler.StepLR",
    "engine.nn.conv.AdaptiveAvgPool2d": "torch.nn.modules.pooling.AdaptiveAvgPool2d",
    "engine.nn.conv.AvgPool1d": "torch.nn.modules.pooling.AvgPool1d",
    "engine.nn.conv.AvgPool2d": "torch.nn.modules.pooling.AvgPool2d",
    "engine.nn.conv.Conv1d": "torch.nn.modules.conv.Conv1d",
    "engine.nn.conv.Conv2d": "torch.nn.modules.conv.Conv2d",
    "engine.nn.conv.MaxPool1d": "torch.nn.modules.pooling.MaxPool1d",
    "engine.nn.conv.MaxPool2d": "torch.nn.modules.pooling.MaxPool2d",
    "engine.nn.layers.Dropout": "torch.nn.modules.dropout.Dropout",
    "engine.nn.layers.Dropout1d": "torch.nn.modules.dropout.Dropout1d",
    "engine.nn.layers.Dropout2d": "torch.nn.modules.dropout.Dropout2d",
    "engine.nn.layers.ELU": "torch.nn.modules.activation.ELU",
    "engine.nn.layers.Flatten": "torch.nn.modules.flatten.Flatten",
    "engine.nn.layers.GELU": "torch.nn.modules.activation.GELU",
    "engine.nn.layers.Identity": "torch.nn.modules.linear.Identity",
    "engine.nn.layers.LeakyReLU": "torch.nn.modules.activation.LeakyReLU",
    "engine.nn.layers.Linear": "torch.nn.modules.linear.Linear",
    "engine.nn.layers.LogSoftmax": "torch.nn.modules.activation.LogSoftmax",
    "engine.nn.layers.ModuleList": "torch.nn.modules.container.ModuleList",
    "engine.nn.layers.ReLU": "torch.nn.modules.activation.ReLU",
    "engine.nn.layers.Sequential": "torch.nn.modules.container.Sequential",
    "engine.nn.layers.SiLU": "torch.nn.modules.activation.SiLU",
    "engine.nn.layers.Sigmoid": "torch.nn.modules.activation.Sigmoid",
    "engine.nn.layers.Softmax": "torch.nn.modules.activation.Softmax",
    "engine.nn.layers.Softplus": "torch.nn.modules.activation.Softplus",
    "engine.nn.layers.Tanh": "torch.nn.modules.activation.Tanh",
    "engine.nn.losses.BCELoss": "torch.nn.modules.loss.BCELoss",
    "engine.nn.losses.BCEWithLogitsLoss": "torch.nn.modules.loss.BCEWithLogitsLoss",
    "engine.nn.losses.CrossEntropyLoss": "torch.nn.modules.loss.CrossEntropyLoss",
    "engine.nn.losses.HuberLoss": "torch.nn.modules.loss.HuberLoss",
    "engine.nn.losses.L1Loss": "torch.nn.modules.loss.L1Loss",
    "engine.nn.losses.MSELoss": "torch.nn.modules.loss.MSELoss",
    "engine.nn.losses.NLLLoss": "torch.nn.modules.loss.NLLLoss",
    "engine.nn.losses.SmoothL1Loss": "torch.nn.modules.loss.SmoothL1Loss",
    "engine.nn.module.Module": "torch.nn.modules.module.Module",
    "engine.nn.module.Parameter": "torch.nn.parameter.Parameter",
    "engine.nn.normalization.BatchNorm1d": "torch.nn.modules.batchnorm.BatchNorm1d",
    "engine.nn.normalization.BatchNorm2d": "torch.nn.modules.batchnorm.BatchNorm2d",
    "engine.nn.normalization.Embedding": "torch.nn.modules.sparse.Embedding",
    "engine.nn.normalization.LayerNorm": "torch.nn.modules.normalization.LayerNorm",
    "engine.nn.recurrent.GRU": "torch.nn.modules.rnn.GRU",
    "engine.nn.recurrent.LSTM": "torch.nn.modules.rnn.LSTM",
    "engine.nn.recurrent.RNN": "torch.nn.modules.rnn.RNN",
    "engine.nn.recurrent.RNNBase": "torch.nn.modules.rnn.RNNBase",
    "engine.optim.adaptive.Adagrad": "torch.optim.adagrad.Adagrad",
    "engine.optim.adaptive.Adam": "torch.optim.adam.Adam",
    "engine.optim.adaptive.AdamW": "torch.optim.adamw.AdamW",
    "engine.optim.adaptive.RMSprop": "torch.optim.rmsprop.RMSprop",
    "engine.optim.optimizer.Optimizer": "torch.optim.optimizer.Optimizer",
    "engine.optim.sgd.SGD": "torch.optim.sgd.SGD",
    "engine.size_device.Size": "torch.Size",
    "engine.size_device.device": "torch.device",
    "engine.tensor.Tensor": "torch.Tensor",
}


def class_text(cls: type, reachable: dict[type, str] | None = None) -> str:
    """``<class 'torch.Tensor'>``: how Python (with real PyTorch) prints ``cls``."""
    module, qualname = getattr(cls, "__module__", "") or "", cls.__qualname__
    name = TORCH_NAMES.get(f"{module}.{qualname}")
    if name is None:
        if module.startswith("engine"):
            name = (reachable or {}).get(cls, qualname)  # the facade's path, else the name alone (graph nodes)
        elif module == "builtins":
            name = qualname
        else:
            name = f"{module}.{qualname}"
    return f"<class '{name}'>"


_ENGINE_CLASS = re.compile(r"<class '(engine\.[\w.]+)'>")


def torch_class_names(text: str) -> str:
    """``text`` with each ``<class 'engine.tensor.Tensor'>`` (Python's repr of an engine class, as a tuple or list
    shows it) written as :func:`class_text` writes it: ``<class 'torch.Tensor'>``, a graph node's by its name."""
    return _ENGINE_CLASS.sub(lambda m: f"<class '{TORCH_NAMES.get(m[1], m[1].rsplit('.', 1)[-1])}'>", text)


class TypeStandIn:
    """Base of what ``type()`` may give instead of a class: printed, named and compared as the class."""

    __slots__ = ("real", "name", "text")
    __hash__ = serial_hash

    def __init__(self, real: type, name: str, text: str) -> None:
        self.real, self.name, self.text = real, name, text

    def __repr__(self) -> str:
        return self.text

    @property
    def __name__(self) -> str:  # type(x).__name__
        return self.name


class BuiltinType(TypeStandIn):
    """The run's ``list``, ``dict``, ``str``...: a checked function that prints and compares as the type."""

    __slots__ = ("make",)

    def __init__(self, real: type, make: Callable[..., Any]) -> None:
        super().__init__(real, real.__name__, f"<class '{real.__name__}'>")
        self.make = make

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.make(*args, **kwargs)


class HiddenType(TypeStandIn):
    """A class user code may see but not use: no call, no attribute but ``__name__``, no subclass."""

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotSupported(f"{self.text} cannot be called here")


for _cls in (TypeStandIn, BuiltinType, HiddenType):
    _cls.__name__ = _cls.__qualname__ = "type"  # errors say "a type value", as for a class
del _cls

_HIDDEN_NAMES = {
    "UserFunction": "function",
    "BoundMethod": "method",
    "Counted": "iterator",
    "SafeNamespace": "module",
    "Namespace": "module",
    "ManagedFunction": "function",
}


class TypeOf:
    """The ``type`` builtin of one run: ``type(x)`` only (``type(name, bases, dict)`` makes classes: refused)."""

    def __init__(
        self, builtins: dict[str, Any], modules: Callable[[], dict[str, Any]], per_run: Callable[[type], bool]
    ) -> None:
        self._builtins, self._modules, self._per_run = builtins, modules, per_run
        self._known: dict[type, Any] | None = None
        self.reachable: dict[type, str] = {}
        self._hidden: dict[tuple[type, str], HiddenType] = {}

    __hash__ = serial_hash

    def __repr__(self) -> str:
        return "<class 'type'>"

    @property
    def __name__(self) -> str:
        return "type"

    def _index(self) -> dict[type, Any]:
        """What user code can name, by the real class: builtins, then every class of the facade's modules."""
        known: dict[type, Any] = {type: self}
        for value in self._builtins.values():
            if isinstance(value, BuiltinType):
                known.setdefault(value.real, value)
            elif isinstance(value, type):
                known.setdefault(value, value)
        seen: set[int] = set()
        todo = sorted(self._modules().items())
        while todo:
            path, module = todo.pop(0)
            if id(module) in seen:
                continue
            seen.add(id(module))
            for key, value in sorted(vars(module).items()):
                if key.startswith("_"):
                    continue
                if isinstance(value, type):
                    known.setdefault(value, value)
                    self.reachable.setdefault(value, f"{path}.{key}")
                elif type(value).__name__ in ("Namespace", "SafeNamespace"):
                    todo.append((f"{path}.{key}", value))
        return known

    def __call__(self, *args: Any) -> Any:
        if len(args) == 3:
            raise NotSupported("'type' is not available with three arguments (write a class statement instead)")
        if len(args) != 1:
            raise TypeError("type() takes 1 or 3 arguments")
        return self.of(args[0])

    def of(self, obj: Any) -> Any:
        cls = type(obj)
        if isinstance(obj, TypeStandIn) or obj is self:
            return self
        if self._known is None:
            self._known = self._index()
        found = self._known.get(cls)
        if found is not None:
            return found
        if cls.__module__ == "__main__" or self._per_run(cls):
            return cls  # the learner's own class (or one the run made: namedtuple's)
        name = _HIDDEN_NAMES.get(cls.__name__, cls.__name__)
        if cls.__name__ == "function" and getattr(obj, "__module__", None) == "engine.sandbox.safe_builtins":
            name = "builtin_function_or_method"  # print, len...: Python's builtins are written in C
        if cls.__name__ == "Counted":
            name = obj._kind.split(".")[-1]  # map, zip, enumerate, itertools.count...
        hidden = self._hidden.get((cls, name))
        if hidden is None:
            text = f"<class '{name}'>" if name != cls.__name__ else class_text(cls, self.reachable)
            hidden = self._hidden[(cls, name)] = HiddenType(cls, name, text)
        return hidden

"""``nn.Module`` and ``nn.Parameter``: the building blocks of models.

A Module keeps its Parameters and sub-Modules in order as they are assigned (``self.fc = nn.Linear(2, 1)``),
so ``parameters()`` finds every weight, and ``model(x)`` calls ``forward(x)``.

Example::

    >>> class Net(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = nn.Linear(2, 1)
    ...     def forward(self, x):
    ...         return self.fc(x)
    >>> len(list(Net().parameters()))
    2
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from engine import dtypes
from engine.meta import move_to_device
from engine.nn.backward_hooks import BackwardHooks
from engine.nn.state import IncompatibleKeys, load_state  # noqa: F401 - IncompatibleKeys is also nn.module's name
from engine.run_state import address_of, serial_hash, state
from engine.size_device import RemovableHandle, check_device, device
from engine.tensor import Tensor


class Parameter(Tensor):
    """A tensor that is a model's weight: a leaf with ``requires_grad=True``, found by ``Module.parameters()``.

    Example::

        >>> nn.Parameter(torch.tensor([1., 2.]))
        Parameter containing:
        tensor([1., 2.], requires_grad=True)
    """

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return object.__format__(self, spec)  # only a plain 0-d Tensor formats as its number, as in PyTorch

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is not None and not isinstance(data, Tensor):
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        arr = np.zeros(0, dtype=np.float32) if data is None else data._data
        if requires_grad and arr.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        p = cls._make(arr)
        p.requires_grad_(requires_grad)
        obs = state().observer
        if obs is not None:
            obs.tensor_created(p)
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


class _Iter:
    """What ``parameters()``/``children()`` return: a one-pass iterator (like PyTorch's generators)."""

    __slots__ = ("_items", "_name", "__weakref__")

    def __init__(self, items: list[Any], name: str) -> None:
        self._items = iter(items)
        self._name = name

    def __iter__(self) -> _Iter:
        return self

    def __next__(self) -> Any:
        return next(self._items)

    def __repr__(self) -> str:
        return f"<generator object Module.{self._name} at {address_of(self)}>"


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])


class Module:
    """Base class of every layer and model (PyTorch's ``nn.Module``)."""

    training: bool
    __hash__ = serial_hash

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_trace_id", None)

    # ---- attribute registration -------------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if isinstance(value, Parameter):
            if "_parameters" not in d:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            d["_modules"].pop(name, None)
            d.pop(name, None)
            d["_parameters"][name] = value
        elif isinstance(value, Module):
            if "_modules" not in d:
                raise AttributeError("cannot assign module before Module.__init__() call")
            d["_parameters"].pop(name, None)
            d.pop(name, None)
            d["_modules"][name] = value
        elif "_parameters" in d and name in d["_parameters"]:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{value.type() if isinstance(value, Tensor) else type(value).__name__}' as "
                    f"parameter '{name}' (torch.nn.Parameter or None expected)"
                )
            d["_parameters"][name] = None
        elif "_modules" in d and name in d["_modules"]:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as child module '{name}' (torch.nn.Module or None "
                    "expected)"
                )
            d["_modules"][name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_modules", "_buffers"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in ("_parameters", "_modules", "_buffers"):
            if name in self.__dict__.get(store, {}):
                del self.__dict__[store][name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        if param is not None and not isinstance(param, Parameter):
            shown = param.type() if isinstance(param, Tensor) else type(param).__name__
            raise TypeError(
                f"cannot assign '{shown}' object to parameter '{name}' (torch.nn.Parameter or None required)"
            )
        self.__dict__["_parameters"][name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        self.__dict__["_buffers"][name] = tensor
        if not persistent:
            self.__dict__.setdefault("_non_persistent", set()).add(name)

    def register_module(self, name: str, module: Module | None) -> None:
        self.add_module(name, module)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        self.__dict__["_modules"][name] = module

    # ---- running ---------------------------------------------------------------------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        hooks = self.__dict__.get("_fwd_hooks")
        pre = self.__dict__.get("_fwd_pre_hooks")
        obs = state().observer
        if obs is not None:
            obs.module_entered(self)  # tensors made until it returns belong to this call (the graph's clusters)
        try:
            for hook in list(pre or ()):
                changed = hook(self, args)
                if changed is not None:
                    args = changed if isinstance(changed, tuple) else (changed,)
            backward = BackwardHooks.of(self)
            if backward is not None:
                args = backward.wrap_inputs(args)
            out = self.forward(*args, **kwargs)
            for hook in list(hooks or ()):
                changed = hook(self, args, out)
                if changed is not None:
                    out = changed
            if backward is not None:
                out = backward.wrap_outputs(out)
        finally:
            if obs is not None:
                obs.module_left(self)
        return out

    def register_forward_hook(self, hook: Any) -> Any:
        """``hook(module, inputs, output)`` runs after each forward (returning a value replaces the output)."""
        hooks = self.__dict__.setdefault("_fwd_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_forward_pre_hook(self, hook: Any) -> Any:
        """``hook(module, inputs)`` runs before each forward (returning a value replaces the inputs)."""
        hooks = self.__dict__.setdefault("_fwd_pre_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_full_backward_hook(self, hook: Any) -> Any:
        """``hook(module, grad_input, grad_output)`` runs when the gradients for this call's inputs are computed
        (returning a tuple replaces grad_input)."""
        return BackwardHooks.add(self, "_bwd_hooks", hook)

    def register_backward_hook(self, hook: Any) -> Any:
        """Deprecated: ``hook(module, grad_input, grad_output)`` on the node that made the output."""
        return BackwardHooks.add(self, "_bwd_legacy", hook)

    def register_full_backward_pre_hook(self, hook: Any) -> Any:
        """``hook(module, grad_output)`` runs when the gradient of this call's output arrives (a tuple returned
        replaces it)."""
        return BackwardHooks.add(self, "_bwd_pre_hooks", hook)

    def train(self, mode: bool = True) -> Module:
        object.__setattr__(self, "training", bool(mode))
        for m in self.children():
            m.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``model.to(torch.float64)`` converts the parameters in place; ``model.to("meta")``: see move_to_device."""
        dt, spec = kwargs.get("dtype"), kwargs.get("device")
        for a in args:
            if isinstance(a, dtypes.dtype):
                dt = a
            elif isinstance(a, (str, device)):
                spec = a
        tensors = [*self.parameters(), *(b for b in self.buffers() if b is not None)]
        if spec is not None and move_to_device(tensors, check_device(spec, meta=True), dt and dt._np):
            return self
        for p in self.parameters() if dt is not None else ():
            p._data = p._data.astype(dt._np)
        return self

    def double(self) -> Module:
        return self.to(dtypes.float64)

    def float(self) -> Module:
        return self.to(dtypes.float32)

    def cpu(self) -> Module:
        return self.to("cpu")

    def cuda(self, device: Any = None) -> Module:
        check_device("cuda")
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default, as PyTorch does)."""
        for p in self.parameters():
            _reset_grad(p, set_to_none)

    # ---- walking ---------------------------------------------------------------------------------------------
    def _named_members(self, prefix: str = "", recurse: bool = True) -> list[tuple[str, Parameter]]:
        out: list[tuple[str, Parameter]] = []
        seen: set[int] = set()
        modules = self._named_modules_list(prefix) if recurse else [(prefix, self)]
        for mprefix, m in modules:
            for name, p in m.__dict__["_parameters"].items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                out.append((mprefix + ("." if mprefix else "") + name, p))
        charge = getattr(state().budget, "charge", None)
        if charge is not None:  # a step per parameter listed (parameters(), zero_grad(), state_dict())
            charge(len(out))
        return out

    def _named_modules_list(self, prefix: str = "") -> list[tuple[str, Module]]:
        out: list[tuple[str, Module]] = []
        seen: set[int] = set()
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            name, m = stack.pop()
            if id(m) in seen:
                continue
            seen.add(id(m))
            out.append((name, m))
            children = [
                (name + ("." if name else "") + k, c) for k, c in m.__dict__["_modules"].items() if c is not None
            ]
            stack.extend(reversed(children))
        charge = getattr(state().budget, "charge", None)
        if charge is not None:  # steps per module: walking a deep tree at each call (or assignment) is not free
            charge(2 * len(out))
        return out

    def parameters(self, recurse: bool = True) -> _Iter:
        """Every Parameter of this module and its sub-modules, in registration order."""
        return _Iter([p for _, p in self._named_members(recurse=recurse)], "parameters")

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> _Iter:
        return _Iter(self._named_members(prefix, recurse), "named_parameters")

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> _Iter:
        """Every buffer (running statistics, ``register_buffer``) of this module and, with ``recurse``, below."""
        modules = self._named_modules_list(prefix) if recurse else [(prefix, self)]
        found = [
            (p + ("." if p else "") + k, b)
            for p, m in modules
            for k, b in m.__dict__["_buffers"].items()
            if b is not None
        ]
        return _Iter(found, "named_buffers")

    def buffers(self, recurse: bool = True) -> _Iter:
        return _Iter([b for _, b in self.named_buffers(recurse=recurse)], "buffers")

    def get_submodule(self, target: str) -> Module:
        m = self
        for part in target.split(".") if target else []:
            if part not in m.__dict__["_modules"]:
                raise AttributeError(f"{m._get_name()} has no attribute `{part}`")
            m = m.__dict__["_modules"][part]
        return m

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        m = self.get_submodule(path)
        if name not in m.__dict__["_parameters"]:
            raise AttributeError(f"{m._get_name()} has no attribute `{name}`")
        return m.__dict__["_parameters"][name]

    def children(self) -> _Iter:
        return _Iter([m for m in self.__dict__["_modules"].values() if m is not None], "children")

    def named_children(self) -> _Iter:
        return _Iter([(k, m) for k, m in self.__dict__["_modules"].items() if m is not None], "named_children")

    def modules(self) -> _Iter:
        return _Iter([m for _, m in self._named_modules_list()], "modules")

    def named_modules(self, prefix: str = "") -> _Iter:
        return _Iter(self._named_modules_list(prefix), "named_modules")

    def apply(self, fn: Any) -> Module:
        """Call ``fn(m)`` on every submodule (children first, as PyTorch does) and on this module; return self."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def state_dict(self) -> OrderedDict[str, Tensor]:
        return OrderedDict((name, t.detach()) for name, t in self._state_items())

    def _state_items(self) -> list[tuple[str, Tensor]]:
        """Each module's parameters then its persistent buffers (running statistics), modules in order."""
        params = dict(self._named_members())
        out: list[tuple[str, Tensor]] = []
        for prefix, m in self._named_modules_list():
            dot = prefix + ("." if prefix else "")
            out += [(dot + name, params[dot + name]) for name in m.__dict__["_parameters"] if dot + name in params]
            skip = m.__dict__.get("_non_persistent", ())
            out += [(dot + name, b) for name, b in m.__dict__["_buffers"].items() if b is not None and name not in skip]
        return out

    def load_state_dict(self, state_dict: dict[str, Tensor], strict: bool = True) -> Any:
        """Copy the values of ``state_dict`` into this module's parameters; report keys missing or unexpected."""
        return load_state(self, state_dict, strict)

    # ---- printing --------------------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = ["(" + key + "): " + _addindent(repr(m), 2) for key, m in self.__dict__["_modules"].items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        check = getattr(state().budget, "check_length", None)
        if check is not None:  # each level re-indents its children's text: a deep tree's text grows quadratically
            check(str, len(main) + 1)
        return main + ")"


def _reset_grad(p: Tensor, set_to_none: bool) -> None:
    if p.grad is None:  # the public name: a non-tensor in param_groups fails as in PyTorch
        return
    if set_to_none:
        p.grad = None  # the setter tells the observer
    else:
        p._grad.zero_()  # zero_ on a .grad tells the observer

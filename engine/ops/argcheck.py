"""PyTorch's argument parser, for the refusals: a call whose arguments have the wrong types fails before the op
runs, with the parser's own message (``dot(): argument 'tensor' (position 2) must be Tensor, not list``).

An op declares its PyTorch signature(s) (``Api(signature=…)``, engine/ops/api.py), which land in ``SIGNATURES``
(the function form; the method form drops the leading ``input``). ``signed(name, fn, method)`` wraps ``fn`` so that a
call every signature refuses raises what
PyTorch raises; an accepted call goes straight through (one cheap ``isinstance`` per argument).

Example::

    >>> x = torch.tensor([1., 2.])
    >>> x.dot([1.])
    TypeError: dot(): argument 'tensor' (position 1) must be Tensor, not list
    >>> torch.where(x > 0, [1], 0)
    TypeError: where() received an invalid combination of arguments - got (Tensor, list, int), but expected one of: …
"""

from __future__ import annotations

import functools
from typing import Any

from engine import dtypes
from engine.arg_errors import must_be, type_name
from engine.ops.signatures import MORE_OVERLOADS, SIGNATURES
from engine.random import Generator
from engine.size_device import device
from engine.tensor import _TYPE_NAMES, Tensor

# numpy's spellings the parser also accepts (``x.sum(axis=0)``)
_ALIASES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def dtype_name(t: Tensor) -> str:
    """PyTorch's short name of a tensor's dtype in kernel messages: ``Float``, ``Long``, ``Bool`` …"""
    return _TYPE_NAMES[t._data.dtype.name]


def floating(kernel: str, t: Tensor) -> None:
    """A CPU kernel PyTorch builds for floating dtypes only: ``"softplus_cpu" not implemented for 'Long'``."""
    if t._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype_name(t)}'")


def cannot_cast(result: str, t: Tensor) -> RuntimeError:
    """PyTorch writing a ``result``-typed value into ``t`` (``F.dropout`` of an int tensor)."""
    return RuntimeError(f"result type {result} can't be cast to the desired output type {dtype_name(t)}")


def class_loss_args(op: str, weight: Any, ignore_index: Any, label_smoothing: Any = 0.0) -> None:
    """The ATen loss ``op``'s parser on its other arguments (weight 3rd, ignore_index 5th, label_smoothing 6th)."""
    if weight is not None and not isinstance(weight, Tensor):
        raise must_be(op, "weight", 3, "Tensor", weight)
    if not is_int(ignore_index):
        raise must_be(op, "ignore_index", 5, "int", ignore_index)
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, (int, float)):
        raise must_be(op, "label_smoothing", 6, "float", label_smoothing)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")


def invalid_combination(op: str, args: tuple, kwargs: dict, signatures: list[str]) -> TypeError:
    """``op() received an invalid combination of arguments - got (Tensor, list), but expected …``: the types given
    (keywords listed last, in the order PyTorch's dict gives them), then the signatures."""
    got = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in reversed(list(kwargs.items()))]
    listed = ", ".join(got) if args else "".join(g + ", " for g in got)
    head = f"{op}() received an invalid combination of arguments - got ({listed}), but expected"
    if len(signatures) == 1:
        return TypeError(f"{head} ({signatures[0]})")
    return TypeError(head + " one of:" + "".join(f"\n * ({s})" for s in signatures) + "\n")


def is_int(v: Any) -> bool:
    """An int as PyTorch's parser takes one: a Python int (not a bool) or a 0-d integer tensor."""
    return (type(v) is int) or (isinstance(v, Tensor) and v._data.ndim == 0 and v._data.dtype.kind in "iu")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) or (isinstance(v, Tensor) and v._data.ndim == 0)


def _is_generator(v: Any) -> bool:
    return isinstance(v, Generator)


def _is_device(v: Any) -> bool:
    return isinstance(v, (str, device)) or type(v) is int


def _int_list_error(v: Any) -> str | None:
    """What is wrong with ``v`` as a tuple of ints (None: nothing)."""
    if is_int(v):
        return None
    if not isinstance(v, (list, tuple)):
        return f"not {type_name(v)}"
    for i, e in enumerate(v):
        if not is_int(e):
            return f"but found element of type {type_name(e)} at pos {i}"
    return None


# kind -> (accepts the value, the type PyTorch names in the message)
_KINDS: dict[str, tuple[Any, str]] = {
    "Tensor": (lambda v: isinstance(v, Tensor), "Tensor"),
    "Tensor#": (lambda v: isinstance(v, (Tensor, int, float)), "Tensor"),
    "Number": (_is_number, "Number"),
    "int": (is_int, "int"),
    "float": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "float"),
    "bool": (lambda v: isinstance(v, bool), "bool"),
    "str": (lambda v: isinstance(v, str), "str"),
    "dtype": (lambda v: isinstance(v, dtypes.dtype) or v in (float, int, bool), "torch.dtype"),
    "Generator": (lambda v: _is_generator(v), "torch.Generator"),
    "Device": (lambda v: _is_device(v), "torch.device"),
    "any": (lambda v: True, "object"),
}


class _Param:
    """One declared parameter. Int lists: ``int[]`` takes a sequence of ints, ``int[1]`` also one int (a reduction's
    ``dim``), ``int[]*`` also the ints as separate arguments of a method (``x.view(2, 3)``)."""

    __slots__ = ("name", "kind", "optional", "required", "keyword_only", "single_int", "varargs")

    def __init__(self, decl: str, keyword_only: bool, method: bool = False) -> None:
        kind, _, rest = decl.strip().partition(" ")
        self.name, _, default = rest.partition("=")
        self.optional = kind.endswith("?")
        kind = kind.rstrip("?")
        self.varargs = method and kind == "int[]*"
        self.single_int = kind == "int[1]" or self.varargs
        self.kind = "int[]" if kind.startswith("int[") else kind
        self.required = not default
        self.keyword_only = keyword_only

    def problem(self, value: Any) -> str | None:
        """Why the parser refuses ``value`` here (None: it accepts it)."""
        if value is None and self.optional:
            return None
        if self.kind == "int[]":
            if not self.single_int and is_int(value):
                return f"not {type_name(value)}"
            return _int_list_error(value)
        if self.kind == "Tensor[]":
            return None if isinstance(value, (list, tuple)) else f"not {type_name(value)}"
        accepts, expected = _KINDS[self.kind]
        return None if accepts(value) else f"not {type_name(value)}"

    def expected(self) -> str:
        return {"int[]": "tuple of ints", "Tensor[]": "tuple of Tensors"}.get(self.kind) or _KINDS[self.kind][1]


class _Signature:
    def __init__(self, text: str, method: bool) -> None:
        params, keyword_only = [], False
        for decl in text.split(","):
            if decl.strip() == "*":
                keyword_only = True
                continue
            params.append(_Param(decl, keyword_only, method))
        if method and params and params[0].name in ("input", "self"):
            params = [p for p in params[1:] if p.name != "out"]  # a method has neither self nor out
        self.params = params
        decls = [d.strip() for d in text.split(",")]
        self.text = ", ".join(decls[1:] if method and decls[0] == "Tensor input" else decls)
        self.positional = [p for p in params if not p.keyword_only]
        self.by_name = {p.name: p for p in params}
        self.min_args = sum(p.required for p in params)
        self.required_positional = sum(p.required for p in self.positional)
        self.required_keywords = any(p.required and p.keyword_only for p in params)
        self.movable = frozenset(p.name for p in self.positional if p.kind.startswith("Tensor") or p.kind == "int[]")

    def error(self, op: str, args: tuple, kwargs: dict) -> TypeError | None:
        """The parser's refusal of this call (None: this signature accepts it)."""
        last = len(self.positional) - 1
        if last >= 0 and self.positional[last].varargs and len(args) > last + 1 and is_int(args[last]):
            for j, v in enumerate(args[last:]):  # x.view(2, 3): the ints are the list
                if not is_int(v):
                    return TypeError(
                        f"{op}(): argument '{self.positional[last].name}' failed to unpack the object "
                        f'at pos {j + 1} with error "type must be tuple of ints,but got {type_name(v)}"'
                    )
            args = args[:last] + (tuple(args[last:]),)
        if len(args) > len(self.positional):
            n, low, m = len(self.positional), self.min_args, len(args)  # PyTorch counts required keywords too
            if low == n:
                return TypeError(
                    f"{op}() takes {n} positional argument{'s' if n != 1 else ''} but {m} "
                    f"{'was' if m == 1 else 'were'} given"
                )
            return TypeError(f"{op}() takes from {low} to {n} positional arguments but {m} were given")
        for i, (p, v) in enumerate(zip(self.positional, args)):
            why = p.problem(v)
            if why is not None:
                return TypeError(f"{op}(): argument '{p.name}' (position {i + 1}) must be {p.expected()}, {why}")
            if p.kind == "Tensor[]":
                for j, e in enumerate(v):
                    if not isinstance(e, Tensor):
                        return TypeError(f"expected Tensor as element {j} in argument {i}, but got {type_name(e)}")
        if not kwargs and len(args) >= self.required_positional and not self.required_keywords:
            return None
        named = {_ALIASES.get(k, k): v for k, v in kwargs.items()}
        for i, p in enumerate(self.params[len(args) :], len(args)):  # in declaration order, as PyTorch's parser
            if p.name in named:
                why = p.problem(named[p.name])
                if why is not None:
                    return TypeError(f"{op}(): argument '{p.name}' must be {p.expected()}, {why}")
            elif p.required:
                missing = [q.name for q in self.params[i:] if q.required and q.name not in named]
                n = len(missing)  # PyTorch's own grammar: "1 … arguments", "2 … argument"
                return TypeError(
                    f"{op}() missing {n} required positional argument{'s' if n == 1 else ''}: "
                    + ", ".join(f'"{m}"' for m in missing)
                )
        for k in kwargs:
            if _ALIASES.get(k, k) not in self.by_name:
                return TypeError(f"{op}() got an unexpected keyword argument '{k}'")
        return None

    def plausible(self, n: int) -> bool:
        return self.min_args <= n <= len(self.params)


@functools.cache
def _signatures(name: str, method: bool) -> tuple[_Signature, ...]:
    texts = (method and SIGNATURES.get(f"Tensor.{name}")) or SIGNATURES[name]  # a method's own, if it differs
    if method:  # a method's self is the tensor: the signatures with another first parameter are not methods
        texts = tuple(t for t in texts if t.startswith("Tensor input")) or texts
    return tuple(_Signature(s, method) for s in texts)


def refusal(op: str, args: tuple, kwargs: dict, method: bool = False, key: str | None = None) -> TypeError | None:
    """PyTorch's refusal of ``op(*args, **kwargs)`` (``method``: called as ``x.op(...)``, ``x`` not in ``args``),
    or None when some signature of ``op`` takes these arguments."""
    sigs = _signatures(key or op, method)
    errors = [s.error(op, args, kwargs) for s in sigs]
    if any(e is None for e in errors):
        return None
    plausible = [e for s, e in zip(sigs, errors) if s.plausible(len(args) + len(kwargs))]
    forms, shown = MORE_OVERLOADS.get(op, ("", None))
    more = forms == "both" or forms == ("method" if method else "function")
    if len(sigs) == 1 and not more:
        return errors[0]
    if len(plausible) == 1:
        return plausible[0]
    if shown and method:  # the method's signature: no input, no out
        shown = shown.removeprefix("Tensor input, ").removesuffix(", Tensor out = None")
    listed = [shown] if more and shown else [s.text for s in sigs] * (1 + more)  # hidden overloads: "one of"
    return invalid_combination(op, args, kwargs, listed)


def signed(name: str, fn: Any, method: bool = False, key: str | None = None) -> Any:
    """``fn`` behind PyTorch's argument check for ``name`` (``method``: ``fn(self, ...)`` called as ``x.name(...)``).
    Positional parameters given by keyword reach ``fn`` by position (``torch.dot(input=a, tensor=b)``). ``key``: the
    table's entry, when it is not ``name`` (``F.gelu`` is PyTorch's ``gelu``)."""
    sigs = _signatures(key or name, method)
    bare = any(sig.min_args == 0 for sig in sigs)  # fn() alone needs no check
    if method:

        def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
            if args or kwargs or not bare:
                args, kwargs = _check(name, sigs, args, kwargs, True, key)
            return fn(self, *args, **kwargs)
    else:

        def checked(*args: Any, **kwargs: Any) -> Any:
            args, kwargs = _check(name, sigs, args, kwargs, False, key)
            return fn(*args, **kwargs)

    checked.__name__ = checked.__qualname__ = getattr(fn, "__name__", name)
    checked.__doc__ = getattr(fn, "__doc__", None)
    return checked


def _check(
    name: str, sigs: tuple[_Signature, ...], args: tuple, kwargs: dict, method: bool, key: str | None = None
) -> tuple[tuple, dict]:
    """The arguments to call the op with, or PyTorch's refusal raised."""
    for s in sigs:  # usually the first signature takes the call at once
        if s.error(name, args, kwargs) is None:
            return _by_position(s, args, kwargs) if kwargs and not s.movable.isdisjoint(kwargs) else (args, kwargs)
    err = refusal(name, args, kwargs, method, key)
    if err is None:  # cannot happen: no signature took the call
        return args, kwargs
    raise err


def _by_position(sig: _Signature, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Move keyword arguments that continue the positional ones into place (the op's own parameter names may
    differ from PyTorch's)."""
    kwargs = {_ALIASES.get(k, k): v for k, v in kwargs.items()}
    out = list(args)
    for p in sig.positional[len(args) :]:  # tensor operands (the ops call them a, b …) and int lists (*shape)
        if p.name not in kwargs or not (p.kind.startswith("Tensor") or p.kind == "int[]"):
            break
        out.append(kwargs.pop(p.name))
    return tuple(out), kwargs


__all__ = [
    "SIGNATURES",
    "cannot_cast",
    "class_loss_args",
    "dtype_name",
    "floating",
    "invalid_combination",
    "is_int",
    "must_be",
    "refusal",
    "signed",
    "type_name",
]

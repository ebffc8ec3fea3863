"""PyTorch's argument parser, for the refusals: a call whose arguments have the wrong types fails before the op
runs, with the parser's own message (``dot(): argument 'tensor' (position 2) must be Tensor, not list``).

An op is declared by its PyTorch signature(s) in ``SIGNATURES`` (the function form; the method form drops the
leading ``input``). ``signed(name, fn, method)`` wraps ``fn`` so that a call every signature refuses raises what
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
from engine.tensor import Tensor

# name -> signatures, in PyTorch's declaration syntax: "Tensor input, int dim, *, bool keepdim=False".
# A "Tensor#" parameter also takes a Python number (PyTorch wraps it for add, sub, mul, div, the comparisons …).
SIGNATURES: dict[str, tuple[str, ...]] = {
    "tensor": ("any data, *, dtype? dtype=None, any device=None, bool pin_memory=False, bool requires_grad=False",),
    "as_tensor": ("any data, *, dtype? dtype=None, any device=None",),
    "fill_": ("Tensor input, Tensor value", "Tensor input, Number value"),
    "uniform_": ("Tensor input, float from=0, float to=1, *, any generator=None",),
    "normal_": ("Tensor input, float mean=0, float std=1, *, any generator=None",),
    "eye": ("int n, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
            "int n, int m, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False"),
    "randperm": ("int n, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
                 "int n, *, any generator, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False"),
    "arange": ("Number end, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",
               "Number start, Number end, *, dtype? dtype=None, any layout=None, any device=None, "
               "bool? requires_grad=False",
               "Number start, Number end, Number step=1, *, dtype? dtype=None, any layout=None, any device=None, "
               "bool? requires_grad=False"),
    "linspace": ("Number start, Number end, int steps, *, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False",
                 "Tensor start, Tensor end, int steps, *, dtype? dtype=None, any layout=None, any device=None, "
                 "bool? requires_grad=False"),
    "dot": ("Tensor input, Tensor tensor",),
    "mm": ("Tensor input, Tensor mat2",),
    "bmm": ("Tensor input, Tensor mat2",),
    "mv": ("Tensor input, Tensor vec",),
    "matmul": ("Tensor input, Tensor other",),
    "outer": ("Tensor input, Tensor vec2",),
    "maximum": ("Tensor input, Tensor other",),
    "minimum": ("Tensor input, Tensor other",),
    "add": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "sub": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "mul": ("Tensor# input, Tensor# other",),
    "div": ("Tensor# input, Tensor# other, *, str? rounding_mode=None",),
    "add_": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "sub_": ("Tensor# input, Tensor# other, Number alpha=1",),  # alpha by position: a deprecated form
    "mul_": ("Tensor# input, Tensor# other",),
    "div_": ("Tensor# input, Tensor# other, *, str? rounding_mode=None",),
    "pow": ("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent"),
    "where": ("Tensor condition", "Tensor condition, Tensor input, Tensor other",
              "Tensor condition, Number self, Tensor other", "Tensor condition, Tensor input, Number other",
              "Tensor condition, Number self, Number other"),
    "masked_fill": ("Tensor input, Tensor mask, Tensor value", "Tensor input, Tensor mask, Number value"),
    "masked_fill_": ("Tensor input, Tensor mask, Tensor value", "Tensor input, Tensor mask, Number value"),
    "clamp": ("Tensor input, Tensor? min=None, Tensor? max=None", "Tensor input, Number? min=None, Number? max=None"),
    "allclose": ("Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False",),
    "isclose": ("Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False",),
    "equal": ("Tensor input, Tensor other",),
    "logical_and": ("Tensor input, Tensor other",),
    "logical_or": ("Tensor input, Tensor other",),
    "gather": ("Tensor input, int dim, Tensor index, *, bool sparse_grad=False",),
    "view_as": ("Tensor input, Tensor other",),
    "reshape_as": ("Tensor input, Tensor other",),
    "expand_as": ("Tensor input, Tensor other",),
    "unsqueeze": ("Tensor input, int dim",),
    "transpose": ("Tensor input, int dim0, int dim1",),
    "flatten": ("Tensor input, int start_dim=0, int end_dim=-1",),
    "softmax": ("Tensor input, int dim, dtype? dtype=None",),
    "log_softmax": ("Tensor input, int dim, dtype? dtype=None",),
    "argmax": ("Tensor input, int? dim=None, bool keepdim=False",),
    "argmin": ("Tensor input, int? dim=None, bool keepdim=False",),
    "cumsum": ("Tensor input, int dim, *, dtype? dtype=None",),
    "unbind": ("Tensor input, int dim=0",),
    "triu": ("Tensor input, int diagonal=0",),
    "tril": ("Tensor input, int diagonal=0",),
    "diag": ("Tensor input, int diagonal=0",),
    "flip": ("Tensor input, int[] dims",),
    "cat": ("Tensor[] tensors, int dim=0",),
    "concat": ("Tensor[] tensors, int dim=0",),
    "stack": ("Tensor[] tensors, int dim=0",),
    "zeros_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "ones_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "empty_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "rand_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "randn_like": ("Tensor input, *, dtype? dtype=None, any layout=None, any device=None, bool? requires_grad=False",),
    "full_like": ("Tensor input, Number fill_value, *, dtype? dtype=None, any layout=None, any device=None, "
                  "bool? requires_grad=False",),
    "bernoulli": ("Tensor input, *, any generator=None", "Tensor input, float p, *, any generator=None"),
    "multinomial": ("Tensor input, int num_samples, bool replacement=False, *, any generator=None",),
}

# ops with more signatures in PyTorch than the ones listed (hidden, or outside gradtrace's subset), so that a refusal
# is the "invalid combination" message: name -> (forms, what PyTorch lists after "but expected")
_MORE_OVERLOADS: dict[str, tuple[str, str | None]] = {
    "mm": ("function", None), "bmm": ("function", None), "div": ("both", None), "div_": ("method", None),
    "rand_like": ("function", None), "randn_like": ("function", None),
    "add": ("both", "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"),
    "sub": ("both", "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"),
    "add_": ("method", "Tensor other, *, Number alpha = 1"), "sub_": ("method", "Tensor other, *, Number alpha = 1"),
}

# numpy's spellings the parser also accepts (``x.sum(axis=0)``)
_ALIASES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def type_name(value: Any) -> str:
    """The parser's name for a value's type: ``Tensor`` for any tensor, else Python's (``list``, ``NoneType``)."""
    return "Tensor" if isinstance(value, Tensor) and type(value).__name__ != "Parameter" else type(value).__name__


def must_be(op: str, name: str, position: int | None, expected: str, value: Any) -> TypeError:
    """``op(): argument 'name' (position N) must be <expected>, not <type>`` (no position for a keyword)."""
    where = f" (position {position})" if position is not None else ""
    return TypeError(f"{op}(): argument '{name}'{where} must be {expected}, not {type_name(value)}")


def invalid_combination(op: str, args: tuple, kwargs: dict, signatures: list[str]) -> TypeError:
    got = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in reversed(list(kwargs.items()))]
    listed = ", ".join(got) if args else "".join(g + ", " for g in got)
    head = f"{op}() received an invalid combination of arguments - got ({listed}), but expected"
    if len(signatures) == 1:
        return TypeError(f"{head} ({signatures[0]})")
    return TypeError(head + " one of:" + "".join(f"\n * ({s})" for s in signatures) + "\n")


def _is_int(v: Any) -> bool:
    return (type(v) is int) or (isinstance(v, Tensor) and v._data.ndim == 0 and v._data.dtype.kind in "iu")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) or (isinstance(v, Tensor) and v._data.ndim == 0)


def _int_list_error(v: Any) -> str | None:
    """What is wrong with ``v`` as a tuple of ints (None: nothing)."""
    if _is_int(v):
        return None
    if not isinstance(v, (list, tuple)):
        return f"not {type_name(v)}"
    for i, e in enumerate(v):
        if not _is_int(e):
            return f"but found element of type {type_name(e)} at pos {i}"
    return None


# kind -> (accepts the value, the type PyTorch names in the message)
_KINDS: dict[str, tuple[Any, str]] = {
    "Tensor": (lambda v: isinstance(v, Tensor), "Tensor"),
    "Tensor#": (lambda v: isinstance(v, (Tensor, int, float)), "Tensor"),
    "Number": (_is_number, "Number"),
    "int": (_is_int, "int"),
    "float": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "float"),
    "bool": (lambda v: isinstance(v, bool), "bool"),
    "str": (lambda v: isinstance(v, str), "str"),
    "dtype": (lambda v: isinstance(v, dtypes.dtype), "torch.dtype"),
    "any": (lambda v: True, "object"),
}


class _Param:
    __slots__ = ("name", "kind", "optional", "required", "keyword_only")

    def __init__(self, decl: str, keyword_only: bool) -> None:
        kind, _, rest = decl.strip().partition(" ")
        self.name, _, default = rest.partition("=")
        self.optional = kind.endswith("?")
        self.kind = kind.rstrip("?")
        self.required = not default
        self.keyword_only = keyword_only

    def problem(self, value: Any) -> str | None:
        """Why the parser refuses ``value`` here (None: it accepts it)."""
        if value is None and self.optional:
            return None
        if self.kind == "int[]":
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
            params.append(_Param(decl, keyword_only))
        if method and params and params[0].name in ("input", "self"):
            params = params[1:]
        self.params = params
        decls = [d.strip() for d in text.split(",")]
        self.text = ", ".join(decls[1:] if method and decls[0] == "Tensor input" else decls)
        self.positional = [p for p in params if not p.keyword_only]
        self.by_name = {p.name: p for p in params}
        self.min_args = sum(p.required for p in params)

    def error(self, op: str, args: tuple, kwargs: dict) -> TypeError | None:
        """The parser's refusal of this call (None: this signature accepts it)."""
        if len(args) > len(self.positional):
            n = len(self.positional)
            return TypeError(f"{op}() takes {n} positional argument{'s' if n != 1 else ''} but {len(args)} were given")
        for i, (p, v) in enumerate(zip(self.positional, args)):
            why = p.problem(v)
            if why is not None:
                return TypeError(f"{op}(): argument '{p.name}' (position {i + 1}) must be {p.expected()}, {why}")
            if p.kind == "Tensor[]":
                for j, e in enumerate(v):
                    if not isinstance(e, Tensor):
                        return TypeError(f"expected Tensor as element {j} in argument {i}, but got {type_name(e)}")
        for k, v in kwargs.items():
            p = self.by_name.get(_ALIASES.get(k, k))
            if p is None:
                return TypeError(f"{op}() got an unexpected keyword argument '{k}'")
            why = p.problem(v)
            if why is not None:
                return TypeError(f"{op}(): argument '{p.name}' must be {p.expected()}, {why}")
        named = {_ALIASES.get(k, k) for k in kwargs}
        missing = [p.name for p in self.params[len(args):] if p.required and p.name not in named]
        if missing:
            n = len(missing)  # PyTorch's own grammar: "1 … arguments", "2 … argument"
            return TypeError(f"{op}() missing {n} required positional argument{'s' if n == 1 else ''}: "
                             + ", ".join(f'"{m}"' for m in missing))
        return None

    def plausible(self, n: int) -> bool:
        return self.min_args <= n <= len(self.params)


@functools.cache
def _signatures(name: str, method: bool) -> tuple[_Signature, ...]:
    texts = SIGNATURES[name]
    if method:  # a method's self is the tensor: the signatures with another first parameter are not methods
        texts = tuple(t for t in texts if t.startswith("Tensor input")) or texts
    return tuple(_Signature(s, method) for s in texts)


def refusal(op: str, args: tuple, kwargs: dict, method: bool = False) -> TypeError | None:
    """PyTorch's refusal of ``op(*args, **kwargs)`` (``method``: called as ``x.op(...)``, ``x`` not in ``args``),
    or None when some signature of ``op`` takes these arguments."""
    sigs = _signatures(op, method)
    errors = [s.error(op, args, kwargs) for s in sigs]
    if any(e is None for e in errors):
        return None
    plausible = [e for s, e in zip(sigs, errors) if s.plausible(len(args) + len(kwargs))]
    forms, shown = _MORE_OVERLOADS.get(op, ("", None))
    more = forms == "both" or forms == ("method" if method else "function")
    if len(sigs) == 1 and not more:
        return errors[0]
    if len(plausible) == 1:
        return plausible[0]
    if shown and method:  # the method's signature: no input, no out
        shown = shown.removeprefix("Tensor input, ").removesuffix(", Tensor out = None")
    return invalid_combination(op, args, kwargs, [shown] if more and shown else [s.text for s in sigs] * (1 + more))


def signed(name: str, fn: Any, method: bool = False) -> Any:
    """``fn`` behind PyTorch's argument check for ``name`` (``method``: ``fn(self, ...)`` called as ``x.name(...)``).
    Positional parameters given by keyword reach ``fn`` by position (``torch.dot(input=a, tensor=b)``); unknown
    keywords go through unchecked: the op says what it makes of them."""
    if method:
        def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
            args, kwargs = _check(name, args, kwargs, True)
            return fn(self, *args, **kwargs)
    else:
        def checked(*args: Any, **kwargs: Any) -> Any:
            args, kwargs = _check(name, args, kwargs, False)
            return fn(*args, **kwargs)

    checked.__name__ = checked.__qualname__ = getattr(fn, "__name__", name)
    checked.__doc__ = getattr(fn, "__doc__", None)
    return checked


def _check(name: str, args: tuple, kwargs: dict, method: bool) -> tuple[tuple, dict]:
    """The arguments to call the op with, or PyTorch's refusal raised."""
    sigs = _signatures(name, method)
    for s in sigs:  # the common case: the first signature takes every argument (no error object built)
        if s.error(name, args, kwargs) is None:
            return _by_position(s, args, kwargs) if kwargs else (args, kwargs)
    known = set().union(*(s.by_name for s in sigs))
    if any(_ALIASES.get(k, k) not in known for k in kwargs):
        return args, kwargs  # a keyword we do not declare: the op decides
    err = refusal(name, args, kwargs, method)
    if err is None:  # cannot happen: no signature took the call
        return args, kwargs
    raise err


def _by_position(sig: _Signature, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Move keyword arguments that continue the positional ones into place (the op's own parameter names may
    differ from PyTorch's)."""
    kwargs = {_ALIASES.get(k, k): v for k, v in kwargs.items()}
    out = list(args)
    for p in sig.positional[len(args):]:
        if p.name not in kwargs:
            break
        out.append(kwargs.pop(p.name))
    return tuple(out), kwargs


__all__ = ["SIGNATURES", "invalid_combination", "must_be", "refusal", "signed", "type_name"]

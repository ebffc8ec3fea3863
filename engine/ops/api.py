"""What an op declares besides its math: PyTorch's names for it and its signature. The tables the rest of the
engine uses are generated from these declarations, never kept beside them: the Tensor methods
(``engine.ops.methods``), the ``torch`` namespace (``engine.facade``), ``engine.ops.__all__`` and the signatures
``argcheck`` checks calls against.

An op class declares itself with a class attribute; a function (an op made of several nodes, like ``sum``) with the
``torch_op`` decorator; methods with no function form (operators, ``x.new_zeros``) with ``tensor_methods``.

Example::

    >>> class ExpBackward0(Function):
    ...     api = Api("exp", inplace="exp_", signature="Tensor input")   # torch.exp, x.exp(), x.exp_()
    >>> @torch_op("sum", signature=("Tensor input, *, dtype? dtype=None", ...), keepdims=True)
    ... def sum(a, dim=None, keepdim=False, dtype=None): ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ops.signatures import MORE_OVERLOADS, SIGNATURES
from engine.tensor import Tensor

_OPERANDS = (Tensor, int, float, bool)


class Api:
    """PyTorch's names for one op and how calls to it are checked.

    ``name``: ``torch.<name>`` (if ``function``) and ``Tensor.<name>`` (if ``method``; ``method_fn`` when the method
    is not the function with ``self`` first). ``inplace``: the in-place method (``exp_``), the op then a write into
    ``self``. ``operators``: Python operators that run the op on ``(self, other)``, giving NotImplemented for other
    types so that Python tries the other operand (``inplace_operator``: the in-place one, ``+=``). ``signature``:
    PyTorch's declaration(s) (``native_functions.yaml``'s syntax), checked by ``argcheck`` before the op runs; a
    method declared as ``"Tensor input"`` takes no arguments at all (``x.exp(1)`` is CPython's refusal).
    ``more_overloads`` (``inplace_more_overloads``): PyTorch has overloads beyond the declared ones, so a refusal is
    its "invalid combination" message: ``(forms, what PyTorch lists)`` as ``argcheck.MORE_OVERLOADS`` reads it.
    ``keepdims``: numpy's ``keepdims=``/``axis=`` spellings are accepted. ``aliases``: more names for the same op
    (``clip`` for ``clamp``). ``python_method``: PyTorch writes the method in Python, so Python's own errors name
    it ``Tensor.<name>()``."""

    __slots__ = (
        "name",
        "function",
        "method",
        "method_fn",
        "inplace",
        "operators",
        "inplace_operator",
        "signature",
        "method_signature",
        "inplace_signature",
        "more_overloads",
        "inplace_more_overloads",
        "keepdims",
        "aliases",
        "python_method",
    )

    def __init__(
        self,
        name: str,
        *,
        function: bool = True,
        method: bool = True,
        method_fn: Any = None,
        inplace: str | None = None,
        operators: tuple[str, ...] = (),
        inplace_operator: str | None = None,
        signature: str | tuple[str, ...] | None = None,
        method_signature: str | tuple[str, ...] | None = None,
        inplace_signature: str | tuple[str, ...] | None = None,
        more_overloads: tuple[str, str | None] | None = None,
        inplace_more_overloads: tuple[str, str | None] | None = None,
        keepdims: bool = False,
        aliases: tuple[str, ...] = (),
        python_method: bool = False,
    ) -> None:
        self.name, self.function, self.method, self.method_fn = name, function, method, method_fn
        self.inplace, self.operators, self.inplace_operator = inplace, operators, inplace_operator
        self.signature = _texts(signature)
        self.method_signature = _texts(method_signature)
        self.inplace_signature = _texts(inplace_signature)
        self.more_overloads, self.inplace_more_overloads = more_overloads, inplace_more_overloads
        self.keepdims, self.aliases, self.python_method = keepdims, aliases, python_method

    def __repr__(self) -> str:
        return f"Api({self.name!r})"

    @property
    def no_arguments(self) -> bool:
        """``x.exp()``: the method form takes nothing but ``self``."""
        return self.signature == ("Tensor input",) and not self.method_signature


def _texts(sig: str | tuple[str, ...] | None) -> tuple[str, ...] | None:
    return (sig,) if isinstance(sig, str) else sig


class Entry:
    """One declared op: its ``Api`` and the function that runs it (``fn(input, *args, **kwargs)``)."""

    __slots__ = ("api", "fn", "declared_by")

    def __init__(self, api: Api, fn: Callable[..., Any], declared_by: Any) -> None:
        self.api, self.fn, self.declared_by = api, fn, declared_by


# name -> entry, in declaration order
ENTRIES: dict[str, Entry] = {}
# method name -> callable, for methods that are no op's function form (operators, x.new_zeros, x.T)
METHODS_ONLY: dict[str, Any] = {}
# the signatures the ops declared (the rest of argcheck's table is for what is not an op: x.float(), F.gelu …)
DECLARED_SIGNATURES: set[str] = set()


def declare(api: Api, fn: Callable[..., Any], declared_by: Any = None) -> None:
    """Register ``fn`` under ``api``'s names (and its signatures for ``argcheck``). A name is declared once."""
    for name in (api.name, *api.aliases):
        if name in ENTRIES:
            raise ValueError(f"op {name!r} is declared twice ({ENTRIES[name].declared_by} and {declared_by})")
        ENTRIES[name] = Entry(api, fn, declared_by or fn)
        _signature(name, api.signature)
    _signature(f"Tensor.{api.name}", api.method_signature)
    if api.more_overloads:
        MORE_OVERLOADS[api.name] = api.more_overloads
    if api.inplace:
        _signature(api.inplace, api.inplace_signature or api.signature)
        if api.inplace_more_overloads:
            MORE_OVERLOADS[api.inplace] = api.inplace_more_overloads


def _signature(key: str, texts: tuple[str, ...] | None) -> None:
    if texts is None:
        return
    if key in DECLARED_SIGNATURES:
        raise ValueError(f"two signatures declared for {key!r}")
    if key in SIGNATURES:
        raise ValueError(f"{key!r} is declared by an op: remove it from engine/ops/signatures.py")
    DECLARED_SIGNATURES.add(key)
    SIGNATURES[key] = texts


def torch_op(name: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the decorated function as the op ``name`` (``Api``'s options)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        declare(Api(name, **options), fn, fn.__module__ + "." + fn.__qualname__)
        return fn

    return register


def tensor_methods(methods: dict[str, Any], signatures: dict[str, str | tuple[str, ...]] | None = None) -> None:
    """Declare methods that are no op's function form (``__getitem__``, ``x.new_zeros(…)``, the ``.T`` property)."""
    for name, fn in methods.items():
        if name in METHODS_ONLY:
            raise ValueError(f"method {name!r} is declared twice")
        METHODS_ONLY[name] = fn
    for key, texts in (signatures or {}).items():
        _signature(key, _texts(texts))


def operand(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a binary operator method (``x + other``): NotImplemented for other types, so Python asks them."""

    def op(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return fn(self, other, *args, **kwargs)

    return op


def reflected(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a reflected operator (``other // x`` is ``fn(other, x)``)."""

    def op(self: Any, other: Any) -> Any:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return fn(other, self)

    return op


def no_arguments(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A method PyTorch declares without parameters (``x.exp()``): any argument is refused in CPython's words."""

    def op(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
        if args:
            raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return fn(self)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = fn.__doc__
    return op


def torch_functions() -> dict[str, Callable[..., Any]]:
    """``torch.<name>`` for every declared op with a function form (unchecked: ``methods``/``facade`` wrap them)."""
    return {name: e.fn for name, e in ENTRIES.items() if e.api.function}


__all__ = [
    "Api",
    "DECLARED_SIGNATURES",
    "ENTRIES",
    "Entry",
    "METHODS_ONLY",
    "declare",
    "no_arguments",
    "operand",
    "reflected",
    "tensor_methods",
    "torch_functions",
    "torch_op",
]

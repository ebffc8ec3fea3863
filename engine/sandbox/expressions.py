"""One handler per allowed expression node: ``EVAL[type(node)](interp, node)``.

Example::

    >>> interp.eval_expr(ast.parse("1 + 2", mode="eval").body)
    3
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.sandbox.budget import _BIG
from engine.sandbox.errors import NotSupported
from engine.sandbox.functions import MISSING, BoundMethod, UserFunction
from engine.sandbox.generators import generator_expression, refuse_yield
from engine.sandbox.identity import check_set
from engine.sandbox.operators import BINARY, COMPARE, UNARY
from engine.sandbox.policy import get_attr, user_class
from engine.sandbox.sizes import NESTED, check_format_spec, check_nested, footprint

if TYPE_CHECKING:  # pragma: no cover
    from engine.sandbox.interpreter import Interpreter

Handler = Callable[["Interpreter", Any], Any]


def _constant(interp: Interpreter, node: ast.Constant) -> Any:
    return node.value


def _name(interp: Interpreter, node: ast.Name) -> Any:
    return interp.lookup(node.id)


def _binop(interp: Interpreter, node: ast.BinOp) -> Any:
    left = interp.eval_expr(node.left)
    right = interp.eval_expr(node.right)
    return BINARY[type(node.op)](left, right, interp.budget)


def _unaryop(interp: Interpreter, node: ast.UnaryOp) -> Any:
    return UNARY[type(node.op)](interp.eval_expr(node.operand))


def _boolop(interp: Interpreter, node: ast.BoolOp) -> Any:
    is_and = type(node.op) is ast.And
    value: Any = None
    for operand in node.values:
        value = interp.eval_expr(operand)
        if (not value) if is_and else value:
            return value
    return value


def _compare(interp: Interpreter, node: ast.Compare) -> Any:
    left = interp.eval_expr(node.left)
    result: Any = True
    for op, comparator in zip(node.ops, node.comparators):
        right = interp.eval_expr(comparator)
        kind = type(op)
        if (kind is ast.In or kind is ast.NotIn) and not hasattr(type(right), "__contains__"):
            right = interp.budget.materialize(right)  # `x in iterator` loops in C: count it
        if isinstance(left, NESTED) or isinstance(right, NESTED):  # compared (or hashed) item by item in C
            check_nested(left, interp.budget)
            check_nested(right, interp.budget)
        result = COMPARE[kind](left, right)
        if len(node.ops) > 1 and not result:
            return result
        left = right
    return result


def _ifexp(interp: Interpreter, node: ast.IfExp) -> Any:
    return interp.eval_expr(node.body) if interp.eval_expr(node.test) else interp.eval_expr(node.orelse)


def _attribute(interp: Interpreter, node: ast.Attribute) -> Any:
    return get_attr(interp.eval_expr(node.value), node.attr, interp.budget)


def _subscript(interp: Interpreter, node: ast.Subscript) -> Any:
    value = interp.eval_expr(node.value)
    key = interp.eval_expr(node.slice)
    if isinstance(key, NESTED):
        check_nested(key, interp.budget)  # hashed (dicts) or converted (tensors) in C
    result = value[key]
    if type(key) is slice and type(result) in (list, str, tuple) and len(result) >= 10_000:
        interp.budget.check_length(result, len(result))  # a big copy counts against the budget of big lists
    return result


def _slice(interp: Interpreter, node: ast.Slice) -> Any:
    ev = interp.eval_expr
    return slice(
        ev(node.lower) if node.lower else None,
        ev(node.upper) if node.upper else None,
        ev(node.step) if node.step else None,
    )


def _elements(interp: Interpreter, elts: list[ast.expr]) -> list[Any]:
    out: list[Any] = []
    for elt in elts:
        if type(elt) is ast.Starred:
            out.extend(interp.budget.materialize(interp.eval_expr(elt.value)))
            interp.budget.check_length(out, len(out))
        else:
            out.append(interp.eval_expr(elt))
    return out


def _list(interp: Interpreter, node: ast.List) -> Any:
    return _elements(interp, node.elts)


def _tuple(interp: Interpreter, node: ast.Tuple) -> Any:
    return tuple(_elements(interp, node.elts))


def _set(interp: Interpreter, node: ast.Set) -> Any:
    items = _elements(interp, node.elts)
    check_nested(items, interp.budget)  # each item is hashed in C
    out = set(items)
    if len(out) >= _BIG:
        interp.budget.count_built(footprint(out) // 8)
    return check_set(out)


def _dict(interp: Interpreter, node: ast.Dict) -> Any:
    out: dict[Any, Any] = {}
    for key, value in zip(node.keys, node.values):
        if key is None:
            out.update(interp.eval_expr(value))
        else:
            k = interp.eval_expr(key)
            if type(k) is tuple:
                check_nested(k, interp.budget)
            out[k] = interp.eval_expr(value)
    return out


def _call(interp: Interpreter, node: ast.Call) -> Any:
    func = interp.eval_expr(node.func)
    args: list[Any] = []
    for arg in node.args:
        if type(arg) is ast.Starred:
            args.extend(interp.budget.materialize(interp.eval_expr(arg.value)))
        else:
            args.append(interp.eval_expr(arg))
    if _engine_callable(func):
        for arg in args:
            if isinstance(arg, NESTED):
                check_nested(arg, interp.budget)
    if not node.keywords:
        result = func(*args)
        if type(result) in _BUILT:
            _count_result(interp, result, func, args)
        return result
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            extra = interp.eval_expr(kw.value)
            if not isinstance(extra, dict):
                raise TypeError(f"argument after ** must be a mapping, not {type(extra).__name__}")
            for key in extra:
                if not isinstance(key, str) or key.startswith("_"):
                    raise NotSupported(f"keyword argument {key!r} is not allowed")
            kwargs.update(extra)
        else:
            if kw.arg[0] == "_" and not isinstance(func, (UserFunction, BoundMethod)) and not user_class(func):
                raise NotSupported(f"keyword argument '{kw.arg}' is not allowed here")  # the learner's own only
            kwargs[kw.arg] = interp.eval_expr(kw.value)
    if _engine_callable(func):
        for arg in kwargs.values():
            if isinstance(arg, NESTED):
                check_nested(arg, interp.budget)
    result = func(*args, **kwargs)
    if type(result) in _BUILT:
        _count_result(interp, result, func, args)
    return result


def _engine_callable(func: Any) -> bool:
    """Is ``func`` the engine's (a torch function, class or method)? The engine converts, compares and formats its
    arguments in numpy and C, so nested arguments are bounded before the call."""
    module = getattr(func, "__module__", None)
    return type(module) is str and (
        (module.startswith("engine") and not module.startswith("engine.sandbox")) or module.startswith("torch")
    )


_BUILT = frozenset((str, list, tuple, set, frozenset, dict))


def _count_result(interp: Interpreter, result: Any, func: Any, args: list[Any]) -> None:
    """What a call built counts against the budget of big strings and lists: a string by its characters, a
    container by the 8-byte words it holds, estimated from a sample (``t.tolist()``'s floats, ``s.split()``'s
    strings, ``set(range(n))``, ``d.copy()``); a list also against the length limit, a nested list (``tolist()`` of
    a matrix) as all its items. A value handed back as it was (``str(s)``) is not new."""
    if not result:
        return
    size = len(result)
    if type(result) is list:
        inner = result
        while type(inner[0]) is list and inner[0]:
            inner = inner[0]
            size *= len(inner)
        if size >= _BIG:
            interp.budget.check_size(list, size)
    if size >= _BIG and getattr(func, "__self__", None) is not result and not any(a is result for a in args):
        interp.budget.count_built(size if type(result) is str else footprint(result) // 8)


def _joinedstr(interp: Interpreter, node: ast.JoinedStr) -> Any:
    parts = [interp.eval_expr(value) for value in node.values]
    interp.budget.check_length(str, sum(len(p) for p in parts))
    return "".join(parts)


def _formattedvalue(interp: Interpreter, node: ast.FormattedValue) -> Any:
    value = interp.eval_expr(node.value)
    conversion = node.conversion
    if conversion == 115:  # !s
        value = interp.builtins["str"](value)
    elif conversion == 114:  # !r
        value = interp.builtins["repr"](value)
    elif conversion == 97:  # !a
        interp.builtins["repr"](value)  # size check
        value = ascii(value)
    spec = interp.eval_expr(node.format_spec) if node.format_spec is not None else ""
    check_format_spec(spec, interp.budget)
    if not spec and type(value) is not str and type(value).__format__ is object.__format__:
        return interp.builtins["str"](value)  # (a 0-d tensor formats as its number: f"{loss}" as in PyTorch)
    return interp.builtins["format"](value, spec)


def _lambda(interp: Interpreter, node: ast.Lambda) -> Any:
    return make_function(interp, node)


def make_function(interp: Interpreter, node: ast.FunctionDef | ast.Lambda) -> UserFunction:
    """Evaluate the defaults now (as Python does) and capture the current frame."""
    args = node.args
    defaults = [interp.eval_expr(d) for d in args.defaults]
    kw_defaults = [MISSING if d is None else interp.eval_expr(d) for d in args.kw_defaults]
    return UserFunction(interp, node, defaults, kw_defaults, interp.frame)


def _namedexpr(interp: Interpreter, node: ast.NamedExpr) -> Any:
    value = interp.eval_expr(node.value)
    interp.assign(node.target, value)
    return value


def _comprehension(interp: Interpreter, generators: list[ast.comprehension], emit: Callable[[], None]) -> None:
    def loop(i: int) -> None:
        gen = generators[i]
        last = i + 1 == len(generators)
        for item in interp.eval_expr(gen.iter):
            interp.assign(gen.target, item)
            if all(interp.eval_expr(cond) for cond in gen.ifs):
                if last:
                    emit()
                else:
                    loop(i + 1)

    with interp.child_frame():
        loop(0)


def _listcomp(interp: Interpreter, node: ast.ListComp) -> Any:
    out: list[Any] = []
    _comprehension(interp, node.generators, lambda: out.append(interp.eval_expr(node.elt)))
    return out


def _setcomp(interp: Interpreter, node: ast.SetComp) -> Any:
    out: set[Any] = set()

    def emit() -> None:
        item = interp.eval_expr(node.elt)
        if type(item) is tuple:
            check_nested(item, interp.budget)
        out.add(item)

    _comprehension(interp, node.generators, emit)
    return check_set(out)


def _dictcomp(interp: Interpreter, node: ast.DictComp) -> Any:
    out: dict[Any, Any] = {}

    def emit() -> None:
        key = interp.eval_expr(node.key)
        if type(key) is tuple:
            check_nested(key, interp.budget)
        out[key] = interp.eval_expr(node.value)

    _comprehension(interp, node.generators, emit)
    return out


def _starred(interp: Interpreter, node: ast.Starred) -> Any:
    raise SyntaxError("can't use starred expression here")


EVAL: dict[type, Handler] = {
    ast.Constant: _constant,
    ast.Name: _name,
    ast.BinOp: _binop,
    ast.UnaryOp: _unaryop,
    ast.BoolOp: _boolop,
    ast.Compare: _compare,
    ast.IfExp: _ifexp,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.Slice: _slice,
    ast.List: _list,
    ast.Tuple: _tuple,
    ast.Set: _set,
    ast.Dict: _dict,
    ast.Call: _call,
    ast.JoinedStr: _joinedstr,
    ast.FormattedValue: _formattedvalue,
    ast.Lambda: _lambda,
    ast.NamedExpr: _namedexpr,
    ast.ListComp: _listcomp,
    ast.GeneratorExp: generator_expression,  # lazy, as in Python (engine/sandbox/generators.py)
    ast.Yield: refuse_yield,
    ast.YieldFrom: refuse_yield,
    ast.SetComp: _setcomp,
    ast.DictComp: _dictcomp,
    ast.Starred: _starred,
}

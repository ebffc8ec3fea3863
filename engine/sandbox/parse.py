"""Parse user code and check it against the allowed subset before anything runs.

Only syntax with a handler in the interpreter passes. The learner's own names may start with ``_``
(``_custom_collate_fn``); dunder names (``__x__``) are refused here, except ``__name__``, the dunder methods a class
may define (``USER_DUNDERS``: ``__len__``, ``__getitem__``, operators...), ``super().__init__()`` and PyTorch's
``torch.__version__``. Attributes starting with ``_`` are checked when read (``policy.get_attr``): only the learner's
own objects have them. Generators are marked here (``gt_generator`` on a function, ``gt_yield`` on each statement
holding a ``yield``), and ``yield`` is accepted only where the interpreter can suspend: as a statement of its own or
as the value of an assignment.

Example::

    >>> parse("import os")          # fine: modules are checked when the import runs
    >>> parse("try:\\n    pass\\nexcept Exception:\\n    pass")
    Traceback (most recent call last):
    NotSupported: 'try' statements are not supported here
"""

from __future__ import annotations

import ast
import threading
from collections import OrderedDict

from engine.sandbox.budget import Limits
from engine.sandbox.errors import LimitExceeded, NotSupported, note_line

_ALLOWED = frozenset(
    getattr(ast, name)
    for name in (  # noqa: SIM905 - grouped and commented by kind: a list literal of 80 names would say less
        # statements
        "Module Expr Assign AugAssign AnnAssign For While If Break Continue Pass With FunctionDef Return Import "
        "ImportFrom Assert Raise ClassDef Try ExceptHandler Delete Del Global Nonlocal "
        # expressions
        "BoolOp BinOp UnaryOp Lambda IfExp Dict Set ListComp SetComp DictComp GeneratorExp Compare Call "
        "Yield YieldFrom FormattedValue JoinedStr Constant Attribute Subscript Starred Name List Tuple Slice NamedExpr "
        # the pieces inside them
        "Load Store comprehension arguments arg keyword alias withitem "
        "And Or Add Sub Mult MatMult Div Mod Pow LShift RShift BitOr BitXor BitAnd FloorDiv Invert Not UAdd USub "
        "Eq NotEq Lt LtE Gt GtE Is IsNot In NotIn"
    ).split()
)

_WHY = {
    "TryStar": "'try' statements are not supported here",
    "AsyncFunctionDef": "async code is not supported here",
    "AsyncFor": "async code is not supported here",
    "AsyncWith": "async code is not supported here",
    "Await": "async code is not supported here",
    "Match": "'match' statements are not supported here",
}

# The dunder methods a learner's class may define: the interpreter (or Python, for the engine) calls them on the
# learner's own objects. Not among them: what reaches Python's machinery (__getattr__, __new__, __del__, __reduce__,
# __class_getitem__, __init_subclass__, __set_name__, descriptors) or bypasses a size check (__index__).
USER_DUNDERS = frozenset(
    (  # noqa: SIM905 - grouped by kind: a list literal of 70 names would say less
        "__init__ __post_init__ __len__ __getitem__ __setitem__ __delitem__ __iter__ __next__ __reversed__ "
        "__contains__ __call__ __repr__ __str__ __bool__ __hash__ __enter__ __exit__ __int__ __float__ "
        "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __neg__ __pos__ __abs__ __invert__ "
        "__add__ __radd__ __iadd__ __sub__ __rsub__ __isub__ __mul__ __rmul__ __imul__ __matmul__ __rmatmul__ "
        "__imatmul__ __truediv__ __rtruediv__ __itruediv__ __floordiv__ __rfloordiv__ __ifloordiv__ __mod__ "
        "__rmod__ __imod__ __pow__ __rpow__ __ipow__ __and__ __rand__ __iand__ __or__ __ror__ __ior__ __xor__ "
        "__rxor__ __ixor__"
    ).split()
)
_DUNDER_ATTRS = frozenset(("__name__", "__version__"))  # read anywhere: a class's or function's name, torch's version


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _refuse_name(name: str, line: int) -> None:
    """The learner's names may start with '_'; Python's own (``__import__``, ``__builtins__``) may not."""
    if _dunder(name) and name != "__name__" and name not in USER_DUNDERS:  # `if __name__ == "__main__":` is fine
        raise NotSupported(f"'{name}' is not available (names starting with '_' are not allowed)", line)


def _refuse_host_name(name: str, line: int) -> None:
    """A name of the host's (a module or what it holds: ``from torch import _C``) may not start with '_'."""
    if name.startswith("_") and name != "_":
        raise NotSupported(f"'{name}' is not available (names starting with '_' are not allowed)", line)


def parse(code: str, limits: Limits | None = None) -> ast.Module:
    """Parse ``code`` and check every node; raise ``SyntaxError`` or ``NotSupported`` with the line.

    Checked trees are cached by code (the interpreter never changes a tree), so re-running a lesson skips this.
    The cache is bounded by the source it holds, not by a count of programs: a tree takes ~200 bytes a character,
    and 256 cached programs of 64 KB kept 3 GB in a worker, from run to run."""
    key = (code, (limits or _DEFAULT).max_ast_depth)
    with _LOCK:
        tree = _CACHE.get(key)
        if tree is not None:
            _CACHE.move_to_end(key)
            return tree
    tree = _parse_checked(*key)
    if len(code) <= _CACHE_CHARS // 8:
        global _cached_chars
        with _LOCK:
            if key not in _CACHE:
                _CACHE[key] = tree
                _cached_chars += len(code)
            while _cached_chars > _CACHE_CHARS:
                _cached_chars -= len(_CACHE.popitem(last=False)[0][0])
    return tree


_DEFAULT = Limits()
_CACHE: OrderedDict[tuple[str, int], ast.Module] = OrderedDict()
# Characters of source whose checked trees are kept: ~1 MB a worker (a tree takes ~60 bytes a character in Python
# objects, about twice that in the heap), room for 10-50 lessons. 100,000 let each worker grow by 11 MB, for good,
# once it had seen enough different programs; and the server gives reproducible runs' answers again without a
# worker (server/answers.py), so what comes back to a worker is mostly programs that draw random numbers.
_CACHE_CHARS = 10_000
_cached_chars = 0
_LOCK = threading.Lock()


def _parse_checked(code: str, max_ast_depth: int) -> ast.Module:
    if code.startswith("\ufeff"):  # a byte-order mark, as an editor saved it: Python skips it in a file
        code = code[1:]
    if "\0" in code:
        line = code.count("\n", 0, code.index("\0")) + 1
        raise _syntax("source code string cannot contain null bytes", line)
    try:
        tree = ast.parse(code, mode="exec")
    except (RecursionError, MemoryError):
        raise LimitExceeded("the code is nested too deeply to parse") from None
    except UnicodeEncodeError as exc:  # a lone surrogate (JSON allows "\ud800"; Python source cannot hold it)
        line = code.count("\n", 0, exc.start) + 1
        raise _syntax(
            f"the code contains a lone surrogate character ({code[exc.start]!a}), not valid text", line
        ) from None
    except ValueError as exc:  # NUL bytes on older Pythons
        raise _syntax(str(exc), None) from None
    # Each entry: node, depth, and where it sits (in a class body, in a loop, in a function).
    stack: list[tuple[ast.AST, int, bool, bool, bool, int | None]] = [(tree, 0, False, False, False, None)]
    while stack:
        node, depth, in_class, in_loop, in_function, outer_line = stack.pop()
        line = getattr(node, "lineno", None)
        kind = type(node)
        if kind not in _ALLOWED:
            name = kind.__name__
            raise NotSupported(_WHY.get(name, f"{name} is not supported here"), line)
        if depth > max_ast_depth:
            breach = LimitExceeded(f"the code is nested more than {max_ast_depth} levels deep (depth limit)")
            note_line(breach, line or outer_line)
            raise breach
        _check_node(node, kind, line, in_class, in_loop, in_function)
        if kind is ast.ClassDef:
            flags = (True, False, False)
        elif kind is ast.FunctionDef or kind is ast.Lambda:
            flags = (False, False, True)
        else:
            flags = (False, in_loop, in_function)
        # The children in ast.iter_child_nodes' order, without its generators (this walk is most of a parse).
        below, where = depth + 1, line or outer_line
        for field in kind._fields:
            value = getattr(node, field, None)
            child_flags = flags
            if field == "body" and (kind is ast.For or kind is ast.While):
                child_flags = (False, True, in_function)
            if type(value) is list:
                for child in value:
                    if isinstance(child, _AST):
                        stack.append((child, below, *child_flags, where))
            elif isinstance(value, _AST):
                stack.append((value, below, *child_flags, where))
    return tree


_AST = ast.AST


def _check_node(node: ast.AST, kind: type, line: int | None, in_class: bool, in_loop: bool, in_function: bool) -> None:
    if kind is ast.Name:
        _refuse_name(node.id, line)  # type: ignore[attr-defined]
    elif kind is ast.Attribute:
        refused = None
        inner: ast.AST = node
        outer = None
        while isinstance(inner, ast.Attribute):  # report the first refused one of ().__class__.__bases__
            attr = inner.attr
            if attr == "__class__" and (outer == "__name__" or getattr(inner, "gt_class_name", False)):
                inner.gt_class_name = True  # type: ignore[attr-defined]  # x.__class__.__name__: type(x)'s name only
            elif _dunder(attr) and attr not in _DUNDER_ATTRS and not _is_super_dunder(inner):
                refused = attr
            outer = attr
            inner = inner.value
        if refused is not None:
            raise NotSupported(f"attribute '{refused}' is not accessible", line)
    elif kind is ast.FunctionDef:
        name = node.name  # type: ignore[attr-defined]
        if not (in_class and name in USER_DUNDERS):
            _refuse_name(name, line)
        _mark_generator(node)  # type: ignore[arg-type]
    elif kind is ast.ClassDef:
        _refuse_name(node.name, line)  # type: ignore[attr-defined]
        if node.keywords:  # type: ignore[attr-defined]
            raise NotSupported("class keywords and decorators are not supported here", line)
    elif kind is ast.Yield or kind is ast.YieldFrom:
        if not in_function:
            raise _syntax("'yield' outside function", line)
    elif kind is ast.Global or kind is ast.Nonlocal:
        for name in node.names:  # type: ignore[attr-defined]
            _refuse_name(name, line)
    elif kind is ast.ExceptHandler:
        if node.name is not None:  # type: ignore[attr-defined]
            _refuse_name(node.name, line)  # type: ignore[attr-defined]
    elif kind is ast.arg:
        _refuse_name(node.arg, line)  # type: ignore[attr-defined]
    elif kind is ast.keyword:
        if node.arg is not None:  # type: ignore[attr-defined]
            _refuse_name(node.arg, line)  # type: ignore[attr-defined]
    elif kind is ast.alias:
        for part in node.name.split("."):  # type: ignore[attr-defined]
            if part != "__future__":
                _refuse_host_name(part, line)
        if node.asname:  # type: ignore[attr-defined]
            _refuse_name(node.asname, line)  # type: ignore[attr-defined]
    elif kind is ast.ImportFrom:
        if node.level:  # type: ignore[attr-defined]
            raise NotSupported("relative imports are not available", line)
        if node.module == "__future__":  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name not in FUTURE_FEATURES:
                    raise _syntax(f"future feature {alias.name} is not defined", line)
    elif kind is ast.Break or kind is ast.Continue:
        if not in_loop:
            word = "break" if kind is ast.Break else "continue"
            raise _syntax(f"'{word}' outside loop" if word == "break" else "'continue' not properly in loop", line)
    elif kind is ast.Return and not in_function:
        raise _syntax("'return' outside function", line)


def _syntax(message: str, line: int | None) -> SyntaxError:
    error = SyntaxError(message)
    error.lineno = line
    return error


def _is_super_dunder(node: ast.Attribute) -> bool:
    """``super().__init__`` or ``super(Net, self).__len__``: a dunder a learner's class may define."""
    value = node.value
    return (
        node.attr in USER_DUNDERS
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "super"
    )


FUTURE_FEATURES = frozenset(
    (
        "nested_scopes",
        "generators",
        "division",
        "absolute_import",
        "with_statement",
        "print_function",
        "unicode_literals",
        "barry_as_FLUFL",
        "generator_stop",
        "annotations",
    )
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPOUND = (ast.For, ast.While, ast.If, ast.With, ast.Try)


def _has_yield(node: ast.AST) -> bool:
    """Does ``node`` hold a ``yield`` of its own scope (not of a nested function, lambda or class)?"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, _SCOPES))
    return False


def _mark_generator(fn: ast.FunctionDef) -> None:
    """Mark ``fn`` as a generator function if its body yields, and each statement that holds a ``yield``;
    refuse a ``yield`` where the interpreter cannot suspend (inside an expression, a comprehension, a lambda)."""
    fn.gt_generator = False  # type: ignore[attr-defined]
    todo: list[ast.stmt] = list(fn.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, _SCOPES):
            continue
        stmt.gt_yield = _has_yield(stmt)  # type: ignore[attr-defined]
        if not stmt.gt_yield:  # type: ignore[attr-defined]
            continue
        fn.gt_generator = True  # type: ignore[attr-defined]
        if isinstance(stmt, _COMPOUND):
            heads = [getattr(stmt, "test", None), getattr(stmt, "iter", None)]
            heads += [item.context_expr for item in getattr(stmt, "items", ())]
            heads += [h.type for h in getattr(stmt, "handlers", ())]
            for head in heads:
                if head is not None and _has_yield(head):
                    raise NotSupported("'yield' inside an expression is not supported here", stmt.lineno)
            for field in ("body", "orelse", "finalbody"):
                todo.extend(getattr(stmt, field, ()))
            for handler in getattr(stmt, "handlers", ()):
                todo.extend(handler.body)
            continue
        value = getattr(stmt, "value", None)
        if isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(value, (ast.Yield, ast.YieldFrom)):
            inner = value.value
            if inner is not None and _has_yield(inner):
                raise NotSupported("'yield' inside an expression is not supported here", stmt.lineno)
            if isinstance(stmt, ast.Assign) and any(_has_yield(t) for t in stmt.targets):
                raise NotSupported("'yield' inside an expression is not supported here", stmt.lineno)
            continue
        for sub in ast.walk(stmt):
            if isinstance(sub, _COMPREHENSIONS) and _has_yield(sub):
                raise _syntax("'yield' inside a comprehension", stmt.lineno)
        raise NotSupported(
            "'yield' inside an expression is not supported here (write it as a statement, or as `x = yield v`)",
            stmt.lineno,
        )

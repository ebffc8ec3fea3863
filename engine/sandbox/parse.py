"""Parse user code and check it against the allowed subset before anything runs.

Only syntax with a handler in the interpreter passes; names and attributes starting with ``_`` are refused here
(except ``_`` itself, PyTorch's ``_saved_*`` attributes, and ``__init__``/``super().__init__()`` in classes).

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
        "FormattedValue JoinedStr Constant Attribute Subscript Starred Name List Tuple Slice NamedExpr "
        # the pieces inside them
        "Load Store comprehension arguments arg keyword alias withitem "
        "And Or Add Sub Mult MatMult Div Mod Pow LShift RShift BitOr BitXor BitAnd FloorDiv Invert Not UAdd USub "
        "Eq NotEq Lt LtE Gt GtE Is IsNot In NotIn"
    ).split()
)

_WHY = {
    "TryStar": "'try' statements are not supported here",
    "Yield": "'yield' (generators) is not supported here",
    "YieldFrom": "'yield from' is not supported here",
    "AsyncFunctionDef": "async code is not supported here",
    "AsyncFor": "async code is not supported here",
    "AsyncWith": "async code is not supported here",
    "Await": "async code is not supported here",
    "Match": "'match' statements are not supported here",
}

# Underscore attributes real course code needs: PyTorch's saved tensors on graph nodes, and nn.Module plumbing.
_DUNDER_DEFS = frozenset(("__init__",))


def _refuse_name(name: str, line: int) -> None:
    if name.startswith("_") and name != "_" and name != "__name__":  # `if __name__ == "__main__":` is fine
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
        for child in ast.iter_child_nodes(node):
            child_flags = flags
            if (kind is ast.For or kind is ast.While) and child in node.body:  # type: ignore[attr-defined]
                child_flags = (False, True, in_function)
            stack.append((child, depth + 1, *child_flags, line or outer_line))
    return tree


def _check_node(node: ast.AST, kind: type, line: int | None, in_class: bool, in_loop: bool, in_function: bool) -> None:
    if kind is ast.Name:
        _refuse_name(node.id, line)  # type: ignore[attr-defined]
    elif kind is ast.Attribute:
        refused = None
        inner: ast.AST = node
        while isinstance(inner, ast.Attribute):  # report the first refused one of ().__class__.__bases__
            attr = inner.attr
            if attr.startswith("_") and not attr.startswith("_saved_") and not _is_super_init(inner):
                refused = attr
            inner = inner.value
        if refused is not None:
            raise NotSupported(f"attribute '{refused}' is not accessible", line)
    elif kind is ast.FunctionDef:
        name = node.name  # type: ignore[attr-defined]
        if not (in_class and name in _DUNDER_DEFS):
            _refuse_name(name, line)
    elif kind is ast.ClassDef:
        _refuse_name(node.name, line)  # type: ignore[attr-defined]
        if node.keywords or node.decorator_list:  # type: ignore[attr-defined]
            raise NotSupported("class keywords and decorators are not supported here", line)
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
        for part in node.name.split(".") + [node.asname or ""]:  # type: ignore[attr-defined]
            if part:
                _refuse_name(part, line)
    elif kind is ast.ImportFrom:
        if node.level:  # type: ignore[attr-defined]
            raise NotSupported("relative imports are not available", line)
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


def _is_super_init(node: ast.Attribute) -> bool:
    """``super().__init__`` or ``super(Net, self).__init__``."""
    value = node.value
    return (
        node.attr == "__init__"
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "super"
    )

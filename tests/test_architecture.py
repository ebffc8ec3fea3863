"""The floor plan of docs/ARCHITECTURE.md, held: every module of engine/ and server/ sits on a floor, and its
imports (at module level or inside functions) only reach its own floor or the ones below, and never close a loop.
An import inside a function says why on its line or the line above (start-up cost), and none crosses from the
core to the ops. Imports only a type checker runs (``if TYPE_CHECKING:``) may not run up a floor either, but they
do not count as loops (they never run)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The floors, bottom up (docs/ARCHITECTURE.md draws them). A module's floor is its longest matching prefix.
FLOORS: dict[str, int] = {
    # 0. the numeric core: tensors, the graph and the backward pass, dtypes, per-run state, printing
    "engine.dtypes": 0,
    "engine.run_state": 0,
    "engine.size_device": 0,
    "engine.meta": 0,  # the meta device's arrays: a shape and a dtype, no elements
    "engine.graph": 0,
    "engine.tensor": 0,
    "engine.printing": 0,
    "engine.arg_errors": 0,
    "engine.grad_mode": 0,
    "engine.autograd": 0,
    "engine.ready_queue": 0,  # the order backward runs ready nodes in (PyTorch's ReadyQueue)
    "engine.random": 0,
    "engine.numerics": 0,  # PyTorch's float kernels in pure numpy (imports nothing else of the engine)
    # 1. the ops: each declares its forward, backward, chain-rule template and PyTorch names
    "engine.ops": 1,
    "engine.ndarray": 1,  # numpy's ndarray, scalars and dtypes as user code sees them (t.numpy() needs them here)
    # 2. the library built from ops: nn, optim, data, autograd.functional, the RNG state as tensors
    "engine.nn": 2,
    "engine.optim": 2,  # a package: optimizer.py (the base), sgd.py, adaptive.py
    "engine.lr_scheduler": 2,
    "engine.data": 2,
    "engine.autograd_functional": 2,
    "engine.autograd_function": 2,  # torch.autograd.Function (the learner's own ops), Variable
    "engine.rng_state": 2,
    # 3. the trace recorder (an observer of the engine)
    "engine.trace": 3,
    # 4. the interpreter of user code
    "engine.sandbox": 4,
    "engine.stdlib": 4,  # the facades of random, itertools, ... beside it
    # 5. composition: the torch namespace user code sees, one run of a program
    "engine.facade": 5,
    "engine.runner": 5,
    "engine": 5,
    # 6. the server
    "server": 6,
}
OPS = 1

# Imports inside functions in folders other streams own (engine/sandbox, engine/runner.py, server/): listed as they
# are, to shrink, never to grow. (engine.runner -> engine.facade keeps the interpreter's start-up free of the torch
# namespace; server.worker imports the engine after forking.)
KNOWN_FUNCTION_IMPORTS = {
    ("engine.runner", "engine.facade"),
    ("engine.sandbox.statements", "engine.sandbox.classes"),
    ("server.__main__", "server.app"),
    ("server.guards", "engine.sandbox.errors"),
    ("server.worker", "engine"),
    ("server.worker", "engine.sandbox.errors"),
}
# Import loops in those folders, as they are (none today): to shrink, never to grow.
KNOWN_LOOPS: set[frozenset[str]] = set()


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool
    typing_only: bool
    explained: bool


def _modules() -> dict[str, Path]:
    found = {}
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("server/**/*.py")]:
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module of ours an import names (``engine.ops.arith.add`` -> ``engine.ops.arith``), None if not ours."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> list[Import]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            fn = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            typing = typing_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if isinstance(child, ast.Import):
                    names = [alias.name for alias in child.names]
                else:
                    base = child.module or ""
                    if child.level:
                        up = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join(up + ([base] if base else []))
                    names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
                here = lines[child.lineno - 1]
                above = lines[child.lineno - 2].strip() if child.lineno > 1 else ""
                explained = "#" in here or above.startswith("#")
                for name in names:
                    target = _resolve(name)
                    if target is not None and target != module:
                        found.append(Import(module, target, child.lineno, fn, typing, explained))
            visit(child, fn, typing)

    visit(ast.parse(source), False, False)
    return found


IMPORTS = [imp for module, path in sorted(MODULES.items()) for imp in _imports(module, path)]


def floor(module: str) -> int:
    match = max((prefix for prefix in FLOORS if module == prefix or module.startswith(prefix + ".")), key=len)
    return FLOORS[match]


def test_every_module_has_a_floor() -> None:
    homeless = [m for m in MODULES if not any(m == p or m.startswith(p + ".") for p in FLOORS)]
    assert not homeless, f"place these modules on a floor of docs/ARCHITECTURE.md (and FLOORS above): {homeless}"


def test_no_import_runs_up_a_floor() -> None:
    upward = [
        f"{i.source} (line {i.line}, floor {floor(i.source)}) imports {i.target} (floor {floor(i.target)})"
        for i in IMPORTS
        if floor(i.target) > floor(i.source)
    ]
    assert not upward, "\n".join(upward)


def _loops() -> list[frozenset[str]]:
    """Strongly connected groups of modules (Tarjan's algorithm, iterative), imports that run only."""
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in IMPORTS:
        if not i.typing_only:
            edges[i.source].add(i.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.add(top)
                        if top == node:
                            break
                    if len(group) > 1:
                        groups.append(frozenset(group))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return groups


def test_no_import_closes_a_loop() -> None:
    loops = [sorted(group) for group in _loops() if group not in KNOWN_LOOPS]
    assert not loops, f"import loops: {loops}"
    assert set(_loops()) >= KNOWN_LOOPS, "a known loop is gone: remove it from KNOWN_LOOPS"


def test_imports_inside_functions_say_why_and_never_cross_between_core_and_ops() -> None:
    inside = [i for i in IMPORTS if i.in_function and not i.typing_only]
    core_or_ops = [f"{i.source}:{i.line} -> {i.target}" for i in inside if floor(i.source) <= OPS]
    assert not core_or_ops, f"the core and the ops import at the top of the module: {core_or_ops}"
    others = {(i.source, i.target) for i in inside if (i.source, i.target) in KNOWN_FUNCTION_IMPORTS}
    silent = [
        f"{i.source}:{i.line} -> {i.target}"
        for i in inside
        if not i.explained and (i.source, i.target) not in KNOWN_FUNCTION_IMPORTS
    ]
    assert not silent, f"an import inside a function needs a comment saying why (or move it to the top): {silent}"
    assert others == KNOWN_FUNCTION_IMPORTS, "a known import inside a function is gone: remove it from the list"


@pytest.mark.parametrize(
    "source, target",
    [
        ("engine.tensor", "engine.ops.arith"),
        ("engine.ops.arith", "server.app"),
        ("engine.trace.recorder", "engine.sandbox.policy"),
    ],
)
def test_the_rule_itself_catches_an_upward_import(source: str, target: str) -> None:
    assert floor(target) > floor(source)


def test_the_loop_finder_finds_a_loop() -> None:
    saved = list(IMPORTS)
    try:
        IMPORTS.append(Import("engine.dtypes", "engine.tensor", 1, False, False, False))
        assert any({"engine.dtypes", "engine.tensor"} <= group for group in _loops())
    finally:
        IMPORTS[:] = saved

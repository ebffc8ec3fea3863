"""Issue 11, item 1: every construct the widened language allows (the learner's '_' names, dunder methods on their
classes, generators, ``type()`` stand-ins, class attributes, staticmethod/classmethod, the module facades) tried as a
way into Python's machinery or into another run, and refused with an error naming the line; a limit hit still ends
the run with no code of the learner's after it."""

from __future__ import annotations

import pytest

import engine
from engine.sandbox import Limits

NS, LE, AE = "NotSupported", "LimitExceeded", "AttributeError"
T = "import torch\n"
MODULE = T + "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n" \
    "        self.fc = nn.Linear(1, 1)\n        self._mine = 1\nnet = Net()\n"  # fmt: skip

# (code, error type, fragment of the message, line)
CASES = [
    # the learner's '_' names: never Python's dunders, never the engine's privates, even on their own objects
    ("__builtins__", NS, "names starting with '_' are not allowed", 1),
    ("x = __import__('os')", NS, "'__import__' is not available", 1),
    ("from torch import _C", NS, "names starting with '_' are not allowed", 1),
    ("import torch._C", NS, "names starting with '_' are not allowed", 1),
    (T + "print(torch.ones(1)._data)", NS, "attribute '_data' is not accessible", 2),
    (T + "m = torch.nn.Linear(1, 1)\nprint(m._parameters)", NS, "attribute '_parameters' is not accessible", 3),
    (MODULE + "print(net._mine)\nprint(net._parameters)", NS, "attribute '_parameters' is not accessible", 10),
    (MODULE + "print(net._modules)", NS, "attribute '_modules' is not accessible", 9),
    (MODULE + "net._parameters = {}", NS, "attribute '_parameters' cannot be assigned", 9),
    (MODULE + "print(net._trace_id)", NS, "attribute '_trace_id' is not accessible", 9),
    (MODULE + "print(Net._version)", NS, "attribute '_version' is not accessible", 9),
    ("class A:\n    pass\na = A()\na.__dict__ = {}", NS, "'__dict__' is not accessible", 4),
    ("class A:\n    pass\nprint(A()._x)", AE, "'A' object has no attribute '_x'", 3),
    ("class A(Exception):\n    pass\nprint(A()._x)", AE, "'A' object has no attribute '_x'", 3),
    ("import random\nprint(random.Random(0)._rng)", NS, "attribute '_rng' is not accessible", 2),
    # torch.distributions: its objects' privates, dunders and the class's machinery stay out of reach
    (
        T + "m = torch.distributions.Multinomial(3, torch.tensor([.5, .5]))\nprint(m._categorical)",
        NS,
        "attribute '_categorical' is not accessible",
        3,
    ),
    (
        T + "c = torch.distributions.Categorical(torch.tensor([.5, .5]))\nprint(c.__dict__)",
        NS,
        "attribute '__dict__' is not accessible",
        3,
    ),
    (
        T + "c = torch.distributions.Categorical(torch.tensor([.5, .5]))\nc.__getattr__('x')",
        NS,
        "attribute '__getattr__' is not accessible",
        3,
    ),
    (T + "print(torch.distributions.Normal.__init__.__globals__)", NS, "attribute '__init__' is not accessible", 2),
    (T + "from torch.distributions import _Plain", NS, "names starting with '_' are not allowed", 2),
    (
        T + "n = torch.distributions.Normal(0., 1.)\nn.arg_constraints['x'] = 1\nprint(type(n).__mro__)",
        NS,
        "attribute '__mro__' is not accessible",
        4,
    ),
    (T + "x = torch.ones(2, _budget=None)", NS, "keyword argument '_budget' is not allowed", 2),
    ("import random\nr = random.Random(0, _budget=None)", NS, "keyword argument '_budget' is not allowed", 2),
    ("print(print.__name__.__class__)", NS, "'__class__' is not accessible", 1),
    # dunder methods: only those of USER_DUNDERS may be defined; none may be read back as attributes
    ("class A:\n    def __getattr__(self, name):\n        return 1", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __getattribute__(self, name):\n        return 1", NS, "names starting with '_'", 2),
    ("class A:\n    def __new__(cls):\n        return 1", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __del__(self):\n        print('late')", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __index__(self):\n        return 10**9", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __init_subclass__(cls):\n        pass", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __class_getitem__(cls, k):\n        pass", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __set_name__(self, o, n):\n        pass", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __get__(self, o, t):\n        pass", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    def __reduce_ex__(self, p):\n        pass", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    __slots__ = ()", NS, "names starting with '_' are not allowed", 2),
    ("class A:\n    __iter__ = iter\niter(A())", NS, "'__iter__' must be a method of the class", 1),
    ("class A:\n    __hash__ = hash\nhash(A())", NS, "'__hash__' must be a method of the class", 1),
    (T + "class A:\n    __add__ = torch.add\nA() + 1", NS, "'__add__' must be a method of the class", 2),
    ("class A:\n    def __len__(self):\n        return 1\nprint(A.__len__.__globals__)", NS, "not accessible", 4),
    ("class A:\n    def __len__(self):\n        return 1\nprint(A().__len__())", NS, "'__len__' is not accessible", 4),
    ("class A:\n    def __call__(self):\n        return 1\nprint(A().__call__)", NS, "'__call__' is not accessible", 4),
    (
        "class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())",
        "RecursionError",
        "maximum recursion",
        3,
    ),
    ("class A:\n    def __len__(self):\n        return 10**30\nprint(len(A()))", "OverflowError", "", 4),
    (
        "class A:\n    def __iter__(self):\n        while True:\n            yield 1\nprint(list(A()))",
        LE,
        "(step limit)",
        5,
    ),
    (
        "class A:\n    def __eq__(self, o):\n        while True:\n            pass\nprint([A()].index(A()))",
        LE,
        "step",
        3,
    ),
    ("class A:\n    def __mul__(self, k):\n        return 1\nx = [0] * A()", "TypeError", "can't multiply sequence", 4),
    ("class A:\n    def __str__(self):\n        return 'a' * 10**7\nprint(A())", LE, "a string of 10,000,000", 3),
    ("class A(type):\n    pass", NS, "'type' is not available as a base class", 1),
    ("class A(metaclass=print):\n    pass", NS, "class keywords and decorators are not supported here", 1),
    ("class A:\n    pass\nA.x = 1", NS, "of a type value cannot be assigned", 3),
    ("class A:\n    pass\nprint(super(A, A).__init__.__self__)", NS, "'__self__' is not accessible", 3),
    (T + "class N(torch.nn.Module):\n    pass\nN.parameters(torch.float32)", "TypeError", "requires a 'N' object", 4),
    (T + "class N(torch.nn.Module):\n    pass\nprint(N.__mro__)", NS, "'__mro__' is not accessible", 4),
    ("print([].__class__)", NS, "attribute '__class__' is not accessible", 1),
    ("x = [].__class__.__name__.__class__", NS, "attribute '__class__' is not accessible", 1),
    ("print(().__class__.__bases__)", NS, "attribute '__class__' is not accessible", 1),
    ("print(().__class__.__name__.__len__)", NS, "attribute '__len__' is not accessible", 1),
    # generators: no frame, code or inner generator; nothing runs after a breach or outside its run
    ("def g():\n    yield 1\nprint(g().gi_frame)", AE, "'generator' object has no attribute 'gi_frame'", 3),
    ("def g():\n    yield 1\nprint(g().gi_code)", AE, "'generator' object has no attribute 'gi_code'", 3),
    ("def g():\n    yield 1\nx = g()\nx.throw(ValueError)", AE, "has no attribute 'throw'", 4),
    ("x = (i for i in [1])\nprint(x.gi_frame.f_globals)", AE, "has no attribute 'gi_frame'", 2),
    ("x = (i for i in [1])\nprint(x.send.__self__)", NS, "'__self__' is not accessible", 2),
    ("f = lambda: (yield 1)\nf()", NS, "'yield' inside an expression is not supported here", 1),
    ("class A:\n    yield 1", "SyntaxError", "'yield' outside function", 2),
    ("yield 1", "SyntaxError", "'yield' outside function", 1),
    ("def g():\n    return [(yield x) for x in [1]]", "SyntaxError", "'yield' inside a comprehension", 2),
    ("def g():\n    while (yield 1):\n        pass", NS, "'yield' inside an expression", 2),
    ("def g():\n    yield x.send(None)\nx = g()\nnext(x)", "ValueError", "generator already executing", 2),
    ("def g():\n    yield g()\n    yield from next(g())\nlist(g())", "RecursionError", "maximum recursion depth", 2),
    ("def g():\n    while True:\n        yield 1\nprint(sum(g()))", LE, "(step limit)", 4),
    ("x = iter([1])\nfor i in range(10**5):\n    x = (v for v in x)\nprint(list(x))", "RecursionError", "recursion", 4),
    # type(): stand-ins that print and compare, never a way to a class's insides or to new classes
    ("type(1).__subclasses__()", NS, "'__subclasses__' is not accessible", 1),
    ("print(type(1).mro())", NS, "of a type value is not accessible", 1),
    ("print(type(None).mro)", NS, "of a type value is not accessible", 1),
    ("type('X', (), {})", NS, "'type' is not available with three arguments", 1),
    ("t = type(None)\nprint(t())", NS, "cannot be called here", 2),
    ("t = type(print)\nprint(t('x'))", NS, "<class 'builtin_function_or_method'> cannot be called", 2),
    ("def f():\n    pass\nt = type(f)\nt(1)", NS, "<class 'function'> cannot be called here", 4),
    (T + "t = type((torch.ones(1, requires_grad=True) * 2).grad_fn)\nt()", NS, "<class 'MulBackward0'>", 3),
    (T + "class A(type(torch.ones(1).sum().grad_fn)):\n    pass", NS, "a class can only derive from torch classes", 2),
    (T + "class A(type(torch.float32)):\n    pass", NS, "a class can only derive from torch classes", 2),
    (T + "class A(type(torch.ones(1).shape)):\n    pass", NS, "a class can only derive from torch classes", 2),
    ("class A(type(len)):\n    pass", NS, "a class can only derive from torch classes", 1),
    ("class A(type([])):\n    pass", NS, "a class can only derive from torch classes", 1),
    ("t = type(iter([]))\nprint(t.real)", NS, "attribute 'real' of a type value is not accessible", 2),
    ("t = type([])\nprint(t.make)", NS, "attribute 'make' of a type value is not accessible", 2),
    ("t = type(type)\nt.x = 1", NS, "cannot be assigned", 2),
    (T + "print(torch.__dict__)", NS, "'__dict__' is not accessible", 2),
    (T + "print(torch.__version__.__class__)", NS, "'__class__' is not accessible", 2),
    ("import math\nprint(math.__version__)", NS, "attribute '__version__' is not accessible", 2),
    ("import math\nprint(math.__spec__)", NS, "'__spec__' is not accessible", 2),
    # staticmethod, classmethod, id, hash, sets
    ("s = staticmethod(print)\nprint(s.function)", NS, "of a staticmethod value is not accessible", 2),
    ("class A:\n    @classmethod\n    def f(cls):\n        pass\nprint(A.f.instance)", NS, "of a BoundMethod value", 5),
    ("print(id.__self__)", NS, "'__self__' is not accessible", 1),
    ("s = set()\ns.update(range(10**9))", LE, "a sequence of 1,000,000,000 items", 2),
    ("s = set()\ns.update(iter(int, 1))", LE, "(step limit)", 2),
    ("x = hash(((1,) * 1000,) * 1000 * 2)", LE, "over the limit", 1),
    ("print({1}.__class__)", NS, "'__class__' is not accessible", 1),
    # the module facades
    ("from __future__ import braces", "SyntaxError", "future feature braces is not defined", 1),
    ("import __future__", NS, "module '__future__' is not available", 1),
    ("import dataclasses\ndataclasses.dataclass(int)", "TypeError", "works on the classes of your program only", 2),
    (T + "import dataclasses\ndataclasses.dataclass(torch.nn.Linear)", "TypeError", "of your program only", 3),
    ("import dataclasses\nprint(dataclasses.field.__globals__)", NS, "'__globals__' is not accessible", 2),
    ("import dataclasses\ndataclasses.FrozenInstanceError.x = 1", NS, "cannot be assigned", 2),
    ("import dataclasses\ndataclasses.dataclass = print", NS, "of a module cannot be assigned", 2),
    ("import dataclasses\nclass E(dataclasses.FrozenInstanceError):\n    pass", NS, "a class can only derive", 2),
    ("import dataclasses\nf = dataclasses.field()\nprint(f.default.__class__)", NS, "'__class__'", 3),
    ("import os", NS, "module 'os' is not available", 1),
    ("import sys", NS, "module 'sys' is not available", 1),
    ("import typing\nprint(typing.List.__origin__)", NS, "'__origin__' is not accessible", 2),
    # torch.backends.cudnn's settable flags: its bool flags only, a bool only, never its functions or privates
    (T + "torch.backends.cudnn.is_available = print", NS, "'is_available' of a module cannot be assigned", 2),
    (T + "torch.backends.cudnn._flags = frozenset({'x'})", NS, "'_flags' cannot be assigned", 2),
    (T + "torch.backends.cudnn.set_flag = print", NS, "'set_flag' of a module cannot be assigned", 2),
    (T + "torch.backends.cudnn.tensor = torch.ones", NS, "'tensor' of a module cannot be assigned", 2),
    (T + "torch.backends.cudnn.deterministic = print", "RuntimeError", "expects a bool, but got", 2),
    (T + "torch.backends.mps.is_built = True", NS, "'is_built' of a module cannot be assigned", 2),
    (T + "print(torch.backends.cudnn._setter)", NS, "'_setter' is not accessible", 2),
]


@pytest.mark.parametrize(("code", "etype", "fragment", "line"), CASES)
def test_each_new_door_is_shut_with_an_error_naming_the_line(code: str, etype: str, fragment: str, line: int) -> None:
    result = engine.run(code, limits=Limits(max_seconds=30))
    assert result.error is not None, result.stdout
    assert result.error["type"] == etype and fragment in result.error["message"], result.error
    assert result.error["line"] == line, result.error


def test_a_cudnn_flag_set_in_one_run_is_not_set_in_the_next() -> None:
    assert engine.run(T + "torch.backends.cudnn.deterministic = True").error is None
    assert engine.run(T + "print(torch.backends.cudnn.deterministic)").stdout == "False\n"


def test_no_generator_clean_up_runs_after_a_breach() -> None:
    code = (
        "def g():\n    try:\n        while True:\n            yield 1\n    finally:\n        print('finally')\n"
        "for x in g():\n    pass"
    )
    result = engine.run(code, limits=Limits(max_steps=20_000))
    assert result.error is not None and result.error["type"] == LE and result.stdout == ""


def test_a_generator_left_suspended_runs_nothing_in_the_next_run() -> None:
    """Its run is over: a ``finally`` or a ``with torch.no_grad()`` around its ``yield`` must not reach the next
    run (its output, its grad mode) when the generator is collected there."""
    left = (
        "import torch\ndef g():\n    try:\n        with torch.no_grad():\n            yield 1\n    finally:\n"
        "        print('leaked')\nx = g()\nnext(x)\nloop = [x]\nloop.append(loop)\n"
    )
    assert engine.run(left).stdout == ""
    after = engine.run("import torch\nprint(torch.is_grad_enabled())")
    assert after.stdout == "True\n"
    import gc

    gc.collect()
    again = engine.run("import torch\nx = torch.ones(1, requires_grad=True)\nprint((x * 2).requires_grad)")
    assert again.stdout == "True\n" and "leaked" not in again.stdout


def test_user_dunders_called_by_the_engine_still_count_against_the_budget() -> None:
    code = (
        "import torch\nfrom torch.utils.data import Dataset, DataLoader\nclass D(Dataset):\n"
        "    def __len__(self):\n        return 10\n    def __getitem__(self, i):\n        while True:\n            pass\n"
        "for b in DataLoader(D()):\n    print(b)"
    )
    result = engine.run(code, limits=Limits(max_steps=50_000))
    assert result.error is not None and "(step limit)" in result.error["message"] and result.error["line"] == 7


def test_ids_and_hashes_are_the_runs_own() -> None:
    code = "a = [1]\nb = object()\nprint(id(a), id(b), hash(b), id(a) == id(a))"
    one, two = engine.run(code, seed=1), engine.run(code, seed=1)
    assert one.error is None and one.stdout == two.stdout and one.reproducible
    assert all(int(n) < 2**48 for n in one.stdout.split()[:3])  # made-up 0x7f3a5c… addresses, not the machine's
    text = engine.run("print(hash('abc') == hash('abc'))", seed=1)
    assert text.stdout == "True\n"


def test_hashes_the_learner_writes_keep_a_run_reproducible_and_strings_do_not() -> None:
    own = (
        "class A:\n    def __init__(self, v):\n        self.v = v\n    def __hash__(self):\n        return self.v\n"
        "    def __eq__(self, o):\n        return self.v == o.v\nprint(len({A(1), A(1), A(2)}))"
    )
    result = engine.run(own, seed=1)
    assert result.stdout == "2\n" and result.reproducible
    frozen = (
        "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: {}\nprint(len({{P({}), P({})}}))"
    )
    result = engine.run(frozen.format("int", 1, 1), seed=1)
    assert result.stdout == "1\n" and result.reproducible
    import sys

    if sys.flags.hash_randomization:  # a string's hash comes from the process's secret: never kept
        assert not engine.run(frozen.format("str", "'a'", "'a'"), seed=1).reproducible


def test_a_distributions_constraints_dict_is_the_runs_own() -> None:
    """``arg_constraints`` is a fresh dict: a learner's change cannot reach the shared class or the next run."""
    first = engine.run(
        T + "n = torch.distributions.Normal(0., 1.)\nn.arg_constraints['x'] = 1\nprint(n.arg_constraints)"
    )
    second = engine.run(T + "print(torch.distributions.Normal(0., 1.).arg_constraints)")
    assert first.error is None and second.error is None
    assert first.stdout == second.stdout == "{'loc': 'Real()', 'scale': 'GreaterThan(lower_bound=0.0)'}\n"

"""A hypothesis strategy for random programs of gradtrace's subset: Python values, torch tensors of random (also
huge) shapes, autograd calls, loops (also endless), functions (also recursive), classes, try/except, and a dose of
hostile attribute names. Used by ``tests/server/test_fuzz.py``.

Example::

    >>> programs().example()
    'import torch\\nx = torch.ones(3, 1000)\\nfor i in range(3):\\n    y = (x @ x.T)\\n'
"""

from __future__ import annotations

from hypothesis import strategies as st

NAMES = ["a", "b", "x", "y", "t", "f", "net"]
SIZES = ["1", "2", "3", "1000", "10**6", "0", "-1"]
ATTRS = [
    "sum()",
    "mean()",
    "grad",
    "shape",
    "T",
    "backward()",
    "item()",
    "tolist()",
    "requires_grad",
    "detach()",
    "grad_fn",
    "numel()",
    "__class__",
    "_data",
    "append(1)",
    "upper()",
    "zero_()",
    "exp()",
    "relu()",
    "grad_fn.next_functions",
    "view(-1)",
    "data",
    "is_leaf",
    "real",
    "mro()",
    "format(1)",
]
CALLS = [
    "len",
    "str",
    "sum",
    "abs",
    "list",
    "sorted",
    "print",
    "repr",
    "range",
    "max",
    "min",
    "float",
    "int",
    "type",
    "getattr",
    "torch.tensor",
    "torch.exp",
    "torch.sigmoid",
    "math.sqrt",
    "open",
    "iter",
    "enumerate",
]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", "==", "<", "and", "or", "in"]


def _atoms() -> st.SearchStrategy[str]:
    shape = st.lists(st.sampled_from(SIZES), min_size=1, max_size=3).map(", ".join)
    return st.one_of(
        st.sampled_from(NAMES),
        st.integers(-3, 12).map(str),
        st.sampled_from(
            [
                "10**9",
                "2**64",
                "0.5",
                "-1.5",
                "1e308",
                "float('nan')",
                "True",
                "None",
                "'ab'",
                "[1, 2, 3]",
                "(1,)",
                "{'k': 1}",
                "'x' * 3",
                "chr(55296)",
            ]
        ),
        shape.map(lambda s: f"torch.ones({s})"),
        shape.map(lambda s: f"torch.randn({s}, requires_grad=True)"),
        st.sampled_from(
            [
                "torch.tensor([1.0, 2.0], requires_grad=True)",
                "torch.arange(6.).view(2, 3)",
                "torch.nn.Linear(3, 2)",
                "torch.zeros(2, 3)",
                "torch.tensor(2.0, requires_grad=True)",
            ]
        ),
    )


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(BINOPS), inner).map(lambda p: f"({p[0]} {p[1]} {p[2]})"),
        st.tuples(inner, st.sampled_from(ATTRS)).map(lambda p: f"{p[0]}.{p[1]}"),
        st.tuples(st.sampled_from(CALLS), st.lists(inner, max_size=2)).map(lambda p: f"{p[0]}({', '.join(p[1])})"),
        st.tuples(inner, inner).map(lambda p: f"{p[0]}[{p[1]}]"),
        inner.map(lambda e: f"[{e} for i in range(3)]"),
        inner.map(lambda e: f"f'{{{e}}}'"),
        inner.map(lambda e: f"(lambda v: {e})(1)"),
        inner.map(lambda e: f"-{e}"),
    )


EXPRESSIONS = st.recursive(_atoms(), _extend, max_leaves=6)


def _simple() -> st.SearchStrategy[list[str]]:
    e = EXPRESSIONS
    return st.one_of(
        st.tuples(st.sampled_from(NAMES), e).map(lambda p: [f"{p[0]} = {p[1]}"]),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(["+=", "*=", "-="]), e).map(lambda p: [" ".join(p)]),
        e.map(lambda x: [f"print({x})"]),
        e.map(lambda x: [x]),
        st.just(["import torch", "import math"]),
        st.sampled_from([["del x"], ["pass"], ["raise ValueError('boom')"], ["assert x"], ["break"], ["return x"]]),
    )


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines] or ["    pass"]


def _compound(body: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    e = EXPRESSIONS
    return st.one_of(
        st.tuples(e, body, body).map(lambda p: [f"if {p[0]}:", *_indent(p[1]), "else:", *_indent(p[2])]),
        st.tuples(st.sampled_from(["3", "10", "10**6", "x"]), body).map(
            lambda p: [f"for i in range({p[0]}):", *_indent(p[1])]
        ),
        body.map(lambda b: ["while True:", *_indent(b)]),
        st.tuples(st.sampled_from(["f", "g"]), body).map(
            lambda p: [f"def {p[0]}(x, y=2):", *_indent(p[1]), "    return f(x)"]
        ),
        st.tuples(body, body).map(lambda p: ["try:", *_indent(p[0]), "except Exception as err:", *_indent(p[1])]),
        body.map(lambda b: ["with torch.no_grad():", *_indent(b)]),
        body.map(
            lambda b: [
                "class Net(torch.nn.Module):",
                "    def forward(self, x):",
                *_indent(_indent(b)),
                "        return x",
                "net = Net()",
                "y = net(torch.ones(2))",
            ]
        ),
    )


def sum_lines(blocks: list[list[str]]) -> list[str]:
    """The lines of several blocks, in order."""
    return [line for block in blocks for line in block]


BLOCKS = st.recursive(_simple(), lambda body: _compound(st.lists(body, max_size=3).map(sum_lines)), max_leaves=5)


def programs() -> st.SearchStrategy[str]:
    """Random programs (strings), starting with ``import torch`` most of the time."""
    return st.tuples(st.booleans(), st.lists(BLOCKS, min_size=1, max_size=6)).map(
        lambda p: ("import torch\nimport math\n" if p[0] else "") + "\n".join(sum_lines(p[1])) + "\n"
    )

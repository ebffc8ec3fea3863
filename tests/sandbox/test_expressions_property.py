"""Random expressions give the same value (or the same error type) in the sandbox as in CPython."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sandbox.interpreter import RECURSION_HEADROOM
from tests.sandbox.helpers import cpython, sandbox

# The interpreter raises the recursion limit on its first run; do it before hypothesis watches the limit.
sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_HEADROOM))

_atoms = st.one_of(
    st.integers(-20, 20).map(str),
    st.sampled_from(["0.5", "-1.25", "3.0", "True", "None", "'ab'", "[1, 2]", "(3,)", "x", "y"]),
)


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(
        inner,
        st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=", "and", "or", "in", "&", "|", "^"]),
        inner,
    )
    return st.one_of(
        binary.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not ", "~"]), inner).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}][-1]"),
        inner.map(lambda e: f"[v * 2 for v in range(3) if v != {e}]"),
        inner.map(lambda e: f"len(str({e}))"),
    )


expressions = st.recursive(_atoms, _extend, max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(expressions)
def test_expression_matches_cpython(expr: str) -> None:
    code = f"x = 7\ny = [4, 5]\ntry:\n    r = {expr}\n    print(repr(r))\nexcept Exception as e:\n    print('error', str(e)[:0])"
    expected = cpython(code)
    stdout, error = sandbox(code)
    if error is not None:  # our size limits may refuse what CPython computes (huge powers)
        assert error["type"] == "LimitExceeded", (expr, error)
        return
    assert stdout == expected, expr

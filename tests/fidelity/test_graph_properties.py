"""Property-based: random expression graphs (broadcasting shapes, Python scalars, unary, binary and reduction ops)
give the same values, gradients and second derivatives on gradtrace's engine as on PyTorch (float32 tolerance).

Deterministic (``derandomize=True``) so CI is stable.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.facade import make_modules

SHAPES = [(), (3,), (1, 3), (2, 1), (2, 3)]  # all broadcast together to (2, 3)
UNARY = [
    "neg",
    "exp_tanh",
    "tanh",
    "sigmoid",
    "sin",
    "cos",
    "relu",
    "abs",
    "sqrt1",
    "log1",
    "square",
    "cube",
    "softplus",
    "elu",
    "silu",
    "log1p_sq",
    "clamp",
    "leaky",
    "sum_last",
    "mean_first",
    "amax_last",
    "softmax_last",
]
BINARY = ["add", "sub", "mul", "safe_div", "maximum", "where_pos"]
SCALAR = ["radd", "rsub", "rmul", "rdiv_safe", "mul_scalar", "pow_scalar"]
PROPS = settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _expr(leaves: int) -> st.SearchStrategy[Any]:
    leaf = st.integers(0, leaves - 1).map(lambda i: ("leaf", i))
    const = st.sampled_from([0.5, 1.5, -2.0, 3.0])

    def grow(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.tuples(st.sampled_from(UNARY), children),
            st.tuples(st.sampled_from(BINARY), children, children),
            st.tuples(st.sampled_from(SCALAR), children, const),
        )

    return st.recursive(leaf, grow, max_leaves=6)


def evaluate(node: Any, T: Any, xs: list[Any]) -> Any:
    """The expression tree on module ``T`` (``torch`` or gradtrace's facade) with leaf tensors ``xs``."""
    kind = node[0]
    if kind == "leaf":
        return xs[node[1]]
    a = evaluate(node[1], T, xs)
    if kind in UNARY:
        return {
            "neg": lambda: -a,
            "exp_tanh": lambda: T.exp(T.tanh(a)),
            "tanh": lambda: a.tanh(),
            "sigmoid": lambda: T.sigmoid(a),
            "sin": lambda: a.sin(),
            "cos": lambda: T.cos(a),
            "relu": lambda: a.relu(),
            "abs": lambda: a.abs(),
            "sqrt1": lambda: (a * a + 1).sqrt(),
            "log1": lambda: T.log(a * a + 1),
            "square": lambda: a**2,
            "cube": lambda: a.pow(3),
            "softplus": lambda: T.nn.functional.softplus(a),
            "log1p_sq": lambda: T.log1p(a * a),
            "elu": lambda: T.nn.functional.elu(a, 0.7),
            "silu": lambda: T.nn.functional.silu(a),
            "clamp": lambda: a.clamp(-0.5, 0.7),
            "leaky": lambda: T.nn.functional.leaky_relu(a, 0.1),
            "sum_last": lambda: a.sum(dim=-1, keepdim=True) if a.dim() else a,
            "mean_first": lambda: a.mean(dim=0, keepdim=True) if a.dim() else a,
            "amax_last": lambda: a.amax(dim=-1, keepdim=True) if a.dim() else a,
            "softmax_last": lambda: T.softmax(a, dim=-1) if a.dim() else a,
        }[kind]()
    if kind in SCALAR:
        c = node[2]
        return {
            "radd": lambda: c + a,
            "rsub": lambda: c - a,
            "rmul": lambda: c * a,
            "rdiv_safe": lambda: c / (a * a + 1),
            "mul_scalar": lambda: a * c,
            "pow_scalar": lambda: (a * a + 0.5) ** c,
        }[kind]()
    b = evaluate(node[2], T, xs)
    return {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "safe_div": lambda: a / (b * b + 1),
        "maximum": lambda: T.maximum(a, b),
        "where_pos": lambda: T.where(a > 0, a, b * 2),
    }[kind]()


def _leaves(seed: int, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.5, 1.5, size=s).astype(np.float32) for s in shapes]


def _close(ours: Any, theirs: torch.Tensor) -> None:
    got = np.asarray(ours.tolist(), dtype=np.float64)
    want = theirs.detach().double().numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)


def _both(expr: Any, values: list[np.ndarray]) -> tuple[Any, list[Any], torch.Tensor, list[torch.Tensor]]:
    T = make_modules()["torch"]
    ours = [T.tensor(v.tolist(), requires_grad=True) for v in values]
    theirs = [torch.tensor(v, requires_grad=True) for v in values]
    return evaluate(expr, T, ours), ours, evaluate(expr, torch, theirs), theirs


@PROPS
@given(expr=_expr(3), shapes=st.lists(st.sampled_from(SHAPES), min_size=3, max_size=3), seed=st.integers(0, 2**16))
def test_random_graph_values_and_gradients_match_pytorch(expr: Any, shapes: list[tuple[int, ...]], seed: int) -> None:
    out, ours, ref, theirs = _both(expr, _leaves(seed, shapes))
    _close(out, ref)
    out.sum().backward()
    ref.sum().backward()
    for mine, real in zip(ours, theirs):
        assert (mine.grad is None) == (real.grad is None)
        if real.grad is not None:
            _close(mine.grad, real.grad)


@PROPS
@given(expr=_expr(2), shapes=st.lists(st.sampled_from(SHAPES), min_size=2, max_size=2), seed=st.integers(0, 2**16))
def test_random_graph_second_derivatives_match_pytorch(expr: Any, shapes: list[tuple[int, ...]], seed: int) -> None:
    out, ours, ref, theirs = _both(expr, _leaves(seed, shapes))
    T = make_modules()["torch"]
    g_ours = T.autograd.grad(out.sum(), ours, create_graph=True, allow_unused=True)
    g_ref = torch.autograd.grad(ref.sum(), theirs, create_graph=True, allow_unused=True)
    for mine, real in zip(g_ours, g_ref):
        assert (mine is None) == (real is None)
        if real is not None:
            _close(mine, real)
    # Second derivatives: d/dx Σ g², compared as numbers (where a piecewise-linear node makes it identically zero,
    # PyTorch still records a graph and we may not: both mean zero).
    live_ref = [g for g in g_ref if g is not None and g.requires_grad]
    live_ours = [g for g in g_ours if g is not None and g.requires_grad]
    h_ref = torch.autograd.grad(sum((g**2).sum() for g in live_ref), theirs, allow_unused=True) if live_ref else ()
    h_ours = T.autograd.grad(sum((g**2).sum() for g in live_ours), ours, allow_unused=True) if live_ours else ()
    for i, x in enumerate(theirs):
        want = h_ref[i] if h_ref and h_ref[i] is not None else torch.zeros_like(x)
        got = h_ours[i] if h_ours and h_ours[i] is not None else T.zeros(*x.shape)
        _close(got, want)

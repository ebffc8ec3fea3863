"""engine/ops/kits.py: the two kits every op's one backward runs with. They offer the same functions, and the same
formula gives the same first derivatives on arrays (plain backward) and on tensors (create_graph=True): equal to the
bit where the kits' primitives are the same operations, to float rounding everywhere."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engine import autograd
from engine.ops.kits import ArrayKit, TensorKit
from engine.run_state import RunState, use_state
from tests.engine.helpers import make_inputs, namespaces
from tests.engine.test_ops import CASES, INPUTS

# ops whose backward uses only operators and primitives both kits compute alike
SAME_BITS = [
    "x * p",
    "x / p",
    "p ** 0.5",
    "x ** 3",
    "m @ n",
    "x.tanh()",
    "x.sigmoid()",
    "x.sin()",
    "x.relu()",
    "m.sum(dim=1)",
    "m.mean(1, keepdim=True)",
    "x.clamp(-0.5, 0.5)",
    "m + x",
    "x.add(c, alpha=2)",
    "torch.atan2(x, p)",
    "torch.hypot(m, x)",
    "m.t().reshape(6)",
    "torch.cat([m, m], dim=1)",
    "x[[0, 0, 2]]",
    "m.max(dim=1)[0]",
    "F.mse_loss(x, c)",
    "x.std()",
    "F.leaky_relu(x)",
]


def _public(kit: type) -> set[str]:
    return {name for name in vars(kit) if not name.startswith("_")} | {"expand_back"}


def test_both_kits_offer_the_same_functions() -> None:
    assert _public(ArrayKit) == _public(TensorKit)


def _first_derivatives(expr: str, create_graph: bool) -> list[Any]:
    with use_state(RunState()):
        _, ours = make_inputs(INPUTS)
        out = eval(expr, {**namespaces()[1], **ours})
        if not out.requires_grad:
            return []
        leaves = [ours[name] for name, (_, grad) in INPUTS.items() if grad]
        g = out.__class__._make(np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)).astype(np.float32))
        grads = autograd.grad(out, leaves, grad_outputs=g, create_graph=create_graph, allow_unused=True)
        return [None if t is None else t._data.copy() for t in grads]


@pytest.mark.parametrize("expr", CASES + [e for e in SAME_BITS if e not in CASES])
def test_one_backward_gives_the_same_first_derivatives_on_arrays_and_on_tensors(expr: str) -> None:
    plain, graph = _first_derivatives(expr, False), _first_derivatives(expr, True)
    assert len(plain) == len(graph)
    for a, b in zip(plain, graph):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7)
            if expr in SAME_BITS:
                assert a.tobytes() == b.tobytes(), expr

"""``node.formulas()``: the chain-rule template of every graph node, aligned with ``next_functions`` (the trace's
``node`` events carry it, the frontend renders it). The contract's own examples, constants and broadcasting written
in, and every op the engine declares yields a template for each input a gradient flows to."""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

import numpy as np
import pytest

import tests.engine
from engine.facade import make_modules
from engine.graph import AccumulateGrad
from engine.ops.function import Function
from engine.run_state import RunState, use_state

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _node(expr: str) -> Any:
    mods = make_modules()
    env = {"torch": mods["torch"], "F": mods["torch.nn.functional"]}
    exec(
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "y = torch.tensor([0.5, -1., 2.], requires_grad=True)\n"
        "m = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n"
        "n = torch.tensor([[1., 0.], [0., 1.], [1., 1.]], requires_grad=True)\n",
        env,
    )
    return eval(expr, env).grad_fn


CONTRACT = [  # TEAM.md's examples, word for word
    ("x ** 2", ["{grad} · 2·{0}"]),
    ("x ** 3", ["{grad} · 3·{0}²"]),
    ("x * y", ["{grad} · {1}", "{grad} · {0}"]),
    ("x.tanh()", ["{grad} · (1 − {out}²)"]),
    ("x.sum()", ["{grad} expanded to {0.shape}"]),
    ("x.mean()", ["{grad} / 3 expanded to {0.shape}"]),
    ("m.mm(n)", ["{grad} @ {1}ᵀ", "{0}ᵀ @ {grad}"]),
    ("x.relu()", ["{grad} · ({0} > 0)"]),
]


@pytest.mark.parametrize("expr, formulas", CONTRACT)
def test_the_contract_examples(expr: str, formulas: list[str]) -> None:
    with use_state(RunState()):
        assert _node(expr).formulas() == formulas


def test_constants_are_written_in_and_broadcast_inputs_are_summed_back() -> None:
    with use_state(RunState()):
        assert _node("x * 2").formulas() == ["{grad} · 2", None]  # no gradient flows to the number: None
        assert _node("m + x").formulas() == ["{grad}", "{grad} summed to {1.shape}"]
        assert _node("x.add(y, alpha=0.5)").formulas() == ["{grad}", "{grad} · 0.5"]
        assert _node("x ** 0.5").formulas() == ["{grad} · 0.5·{0}^-0.5"]
        assert _node("x.clamp(0, 2)").formulas() == ["{grad} · (0 ≤ {0} ≤ 2)"]
        assert _node("m.mean(1)").formulas() == ["{grad} / 3 expanded to {0.shape}"]


def test_a_leaf_has_no_formula_and_an_input_without_grad_gets_none() -> None:
    """AccumulateGrad has no inputs (it adds what reaches it to the leaf's .grad): no formula, an empty list. An
    input that requires no grad has no edge (``next_functions`` holds ``(None, 0)``): its formula is None."""
    with use_state(RunState()):
        node = _node("x * torch.tensor([1., 2., 3.])")
        acc = node.next_functions[0][0]
        assert isinstance(acc, AccumulateGrad) and acc.formulas() == []
        assert node.formulas() == ["{grad} · {1}", None]


class _Collector:
    """An observer keeping every node that ran in backward, its formulas (asked while it ran) and its grads."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, list[str | None], tuple[Any, ...]]] = []

    def node_ran(self, node: Any, grad_outputs: tuple[Any, ...], grad_inputs: tuple[Any, ...]) -> None:
        self.seen.append((node, node.formulas(), grad_inputs))

    def __getattr__(self, name: str) -> Any:  # the observer's other calls: nothing to keep
        return lambda *args: None


# Programs that, with the op tables of tests/engine (every ``CASES`` list of expressions: an op's own test), run
# every op the engine declares in backward. The test below fails when an op is added and runs in neither.
PROGRAMS = """
z = (x * y + x / y - y - 1 - x + (-x) + x ** 2 + x ** y + 2 ** x + 1 / x).sum()
z = z + (x.exp() + x.log() + x.sqrt() + x.tanh() + x.sigmoid() + x.relu() + x.abs() + x.sin() + x.cos()).sum()
z = z + (x.tan() + x.log1p() + x.log2() + x.exp2() + x.rsqrt() + x.reciprocal() + F.silu(x) + x.sign()).sum()
z = z + (x.round() + x.floor() + x.ceil() + x.clamp(0, 2) + F.leaky_relu(y) + F.softplus(x) + F.elu(y)).sum()
z = z + (F.gelu(x) + x.erf() + torch.where(x > 1, x, y) + torch.maximum(x, y) + torch.minimum(x, y)).sum() + x.mean()
z = z + m.sum(1).sum() + m.mean(0).sum() + m.max() + m.min() + m.max(1)[0].sum() + m.min(0)[0].sum() + x.prod()
z = z + m.std() + m.var(1).sum() + m.norm() + m.logsumexp(1).sum() + m.amax(1).sum() + m.amin(0).sum()
z = z + (m @ n).sum() + (m @ x).sum() + x.dot(y) + torch.bmm(m.view(1, 2, 3), n.view(1, 3, 2)).sum()
z = z + F.linear(m, n.t(), y[:2]).sum()
z = z + m.t().sum() + m.transpose(0, 1).sum() + m.permute(1, 0).sum() + m.reshape(3, 2).sum() + m.t().reshape(6).sum()
z = z + m.unsqueeze(0).squeeze().sum() + m.unsqueeze(0).squeeze(0).sum() + m.unsqueeze(0).squeeze((0,)).sum()
z = z + x.expand(2, 3).sum() + torch.cat([x, y]).sum() + torch.stack([x, y]).sum() + x.clone().sum()
z = z + x[0] + x[1:].sum() + x[[0, 0, 2]].sum() + m[m > 2].sum() + x.split(2)[0].sum() + x.split([1, 2])[1].sum()
z = z + m.unbind(1)[0].sum() + m.gather(1, torch.tensor([[0, 2], [1, 1]])).sum() + x.sort()[0].sum()
z = z + x.topk(2)[0].sum() + x.cumsum(0).sum() + m.flip(0).sum() + m.triu().sum() + m.tril().sum()
z = z + torch.diag(x).sum() + torch.diag(n[:2]).sum() + m.masked_fill(m > 3, 0.).sum() + m.repeat(2, 1).sum()
z = z + x.double().sum() + F.mse_loss(x, y) + F.cross_entropy(m, torch.tensor([0, 2]), label_smoothing=0.1)
z = z + F.binary_cross_entropy(torch.sigmoid(x), torch.sigmoid(y)) + F.binary_cross_entropy_with_logits(x, y)
z = z + F.cross_entropy(m, torch.tensor([[0.2, 0.5, 0.3], [0., 0., 1.]])) + F.softmax(m, 1).sum()
z = z + torch.index_select(m, 1, torch.tensor([0, 2])).sum() + m.masked_select(m > 1).sum() + m.prod(1).sum()
z = z + F.prelu(m, torch.tensor([0.25], requires_grad=True)).sum()
w = m * 1
w[0, 1] = x[0]
z = z + w.sum()
z.backward(create_graph=True)
(g,) = torch.autograd.grad(x[[0, 0, 2]].pow(3).sum(), x, create_graph=True)
(g.sum() + x.grad.sum()).backward()
"""


def _nodes_of_every_declared_op() -> list[type[Function]]:
    def walk(cls: type[Function]) -> list[type[Function]]:
        return [c for sub in cls.__subclasses__() for c in (sub, *walk(sub))]

    # (an in-place shape change's node, TBackward1, is its view op's class renamed: that op is the one to run)
    ops = {c for c in walk(Function) if not c.family and "renamed_from" not in c.__dict__}
    return sorted(ops, key=lambda c: c.__name__)


def _op_tables() -> list[str]:
    """The expressions of every op test in tests/engine (their ``CASES``, evaluated on test_ops's inputs)."""
    found: list[str] = []
    for info in pkgutil.iter_modules(tests.engine.__path__):
        module = importlib.import_module(f"tests.engine.{info.name}")
        cases = getattr(module, "CASES", None)
        if info.name.startswith("test_") and isinstance(cases, list) and all(isinstance(c, str) for c in cases):
            found += cases
    return found


def _run_op_tables(collector: Any) -> None:
    from tests.engine.helpers import make_inputs, namespaces
    from tests.engine.test_ops import INPUTS

    ours_namespace = namespaces()[1]
    for expr in _op_tables():
        with use_state(RunState(observer=collector)):
            _, ours = make_inputs(INPUTS)
            out = eval(expr, {**ours_namespace, **ours})
            if isinstance(out, tuple):
                out = out[0]
            if out.requires_grad:
                out.backward(out.__class__._make(np.ones(out._data.shape, dtype=out._data.dtype)))


def test_every_declared_op_runs_with_a_formula_for_each_input_a_gradient_reaches() -> None:
    collector = _Collector()
    mods = make_modules()
    env = {"torch": mods["torch"], "F": mods["torch.nn.functional"]}
    with use_state(RunState(observer=collector)):
        exec(
            "x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)\n"
            "y = torch.tensor([0.25, -1., 2.], requires_grad=True)\n"
            "m = torch.tensor([[1., 2., 3.5], [4., 0.5, 6.]], requires_grad=True)\n"
            "n = torch.tensor([[1., 0.], [0.5, 1.], [1., 2.]], requires_grad=True)\n" + PROGRAMS,
            env,
        )
    _run_op_tables(collector)
    ran = {type(node) for node, _, _ in collector.seen}
    missing = [c.__name__ for c in _nodes_of_every_declared_op() if c not in ran]
    assert not missing, f"no program above runs these ops in backward: {missing}"
    # asked again now that backward has freed every node: the same (a template never reads a freed value)
    assert [node.formulas() for node, _, _ in collector.seen] == [formulas for _, formulas, _ in collector.seen]
    for node, formulas, grads in collector.seen:
        if isinstance(node, AccumulateGrad):
            continue
        assert len(formulas) == len(node.next_functions), node.name()
        for i, ((edge, _), text, grad) in enumerate(zip(node.next_functions, formulas, grads)):
            if edge is None or grad is None:
                assert text is None or edge is not None, (node.name(), i, text)
                continue
            assert isinstance(text, str) and "{grad}" in text, (node.name(), i, text)
            for name in PLACEHOLDER.findall(text):  # only the contract's placeholders, for inputs this node has
                assert re.fullmatch(r"grad|out|\d+(\.shape)?", name), (node.name(), text)
                if name[0].isdigit():
                    assert int(name.split(".")[0]) < len(node.next_functions), (node.name(), text)


def test_formulas_stay_the_same_after_backward_freed_the_node() -> None:
    with use_state(RunState()):
        total = _node("(x * 2 + m).sum()")
        add = total.next_functions[0][0]
        mul = add.next_functions[0][0]
        before = [add.formulas(), mul.formulas()]
        total.next_functions[0][0]._release()  # what backward does to every node it ran (retain_graph=False)
        mul._release()
        assert (
            [add.formulas(), mul.formulas()]
            == before
            == [["{grad} summed to {0.shape}", "{grad}"], ["{grad} · 2", None]]
        )

"""Each op against real PyTorch: values, printing, grad_fn names, next_functions, and gradients (also against
finite differences)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from tests.engine.helpers import make_inputs, namespaces, node_names

rng = np.random.default_rng(0)
V = rng.standard_normal(3).astype(np.float32)  # vector
P = (rng.random(3) + 0.5).astype(np.float32)  # positive vector
M = rng.standard_normal((2, 3)).astype(np.float32)  # matrix
N = rng.standard_normal((3, 4)).astype(np.float32)
B = rng.standard_normal((4,)).astype(np.float32)  # bias for (.., 4)
S = np.array(1.5, dtype=np.float32)  # 0-d
T3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
INPUTS = {
    "x": (V, True),
    "p": (P, True),
    "m": (M, True),
    "n": (N, True),
    "b": (B, True),
    "s": (S, True),
    "c": (V[::-1].copy(), False),
    "t3": (T3, True),
    "k": (np.array([0, 2, 1], dtype=np.int64), False),
}

CASES = [
    "x + 1",
    "1 + x",
    "x - 1",
    "1 - x",
    "x * 2",
    "2 * x",
    "x / 2",
    "2 / x",
    "x / p",
    "-x",
    "x ** 2",
    "p ** 0.5",
    "p ** x",
    "2 ** x",
    "x ** 3",
    "x + c",
    "x * c",
    "m + x",
    "m * x",
    "x - m",
    "m / p",
    "s * x",
    "x + s",
    "x.sum()",
    "x.mean()",
    "m.sum(dim=1)",
    "m.sum(0)",
    "m.mean(1, keepdim=True)",
    "m.sum((0, 1))",
    "x.exp()",
    "p.log()",
    "p.sqrt()",
    "x.tanh()",
    "x.sigmoid()",
    "x.relu()",
    "x.abs()",
    "x.sin()",
    "x.cos()",
    "torch.exp(x)",
    "torch.relu(x)",
    "torch.sigmoid(x)",
    "torch.tanh(x)",
    "F.relu(x)",
    "m @ n",
    "torch.matmul(m, n)",
    "m.mm(n)",
    "x @ c",
    "m @ x",
    "x @ n",
    "t3 @ b",
    "t3.transpose(1, 2) @ n",
    "t3 @ t3.transpose(1, 2)",
    "m.t()",
    "m.T",
    "n.t() @ x",
    "m.reshape(3, 2)",
    "m.view(6)",
    "m.view(-1)",
    "m.t().reshape(6)",
    "m.transpose(0, 1)",
    "m.unsqueeze(0)",
    "m.unsqueeze(0).squeeze(0)",
    "m.unsqueeze(0).squeeze()",
    "m.flatten()",
    "x.expand(2, 3)",
    "m.permute(1, 0)",
    "m.max()",
    "m.min()",
    "x.max()",
    "m.prod()",
    "x.clamp(-0.5, 0.5)",
    "x.clamp(min=0)",
    "x.pow(2)",
    "F.softmax(m, dim=1)",
    "F.log_softmax(m, dim=1)",
    "m.softmax(0)",
    "F.mse_loss(x, c)",
    "F.mse_loss(x, c, reduction='sum')",
    "F.mse_loss(x, c, reduction='none')",
    "F.l1_loss(x, c)",
    "F.linear(m, n.t())",
    "F.linear(m, n.t(), b)",
    "F.linear(x, n.t(), b)",
    "F.cross_entropy(m, torch.tensor([0, 2]))",
    "F.nll_loss(F.log_softmax(m, dim=1), torch.tensor([1, 0]))",
    "F.binary_cross_entropy(torch.sigmoid(x), torch.tensor([1.0, 0.0, 1.0]))",
    "torch.cat([m, m])",
    "torch.cat([m, m], dim=1)",
    "torch.stack([x, c])",
    "torch.stack([x, x], dim=1)",
    "x[0]",
    "x[1:]",
    "m[0]",
    "m[:, 1]",
    "m[0, 1]",
    "m[1, 1:]",
    "x[k]",
    "m[m > 0]",
    "x[None]",
    "x[::2]",
    "(x * p).sum() + (x ** 2).mean()",
    "x.clone()",
    "x.square()",
    "torch.where(x > 0, x, x * 2)",
    "torch.maximum(x, c)",
    "torch.minimum(x, p)",
    "x.neg()",
    "x.reciprocal()",
    "x.add(c, alpha=2)",
    "x.sub(c, alpha=0.5)",
    "F.leaky_relu(x)",
    "F.hardtanh(x)",
    "F.relu6(x * 4)",
    "F.hardtanh(m * 2, -0.5, 0.7)",
    "F.logsigmoid(x * 3)",
    "x.max(0)[0]",
    "m.max(dim=1)[0]",
    "m.min(dim=0).values",
    "torch.sum(m, 1)",
    "torch.mean(m)",
    "m.sum() / 3",
    "(m ** 2).sum(1).sqrt()",
    "x.std()",
    "x.var()",
    "m.std(1)",
    "m.var(0, keepdim=True)",
    "m.std(unbiased=False)",
    "m.var(correction=0)",
    "m.norm()",
    "m.norm(dim=1)",
    "x.norm(p=1)",
    "torch.norm(m)",
    "m.logsumexp(1)",
    "torch.logsumexp(m, 0)",
    "(m > 0).all()",
    "(m > 0).any(dim=1)",
    "x.sign()",
    "(x * 3).round()",
    "x.floor()",
    "x.ceil()",
    "F.gelu(m)",
    "F.gelu(x, approximate='tanh')",
    "m.masked_fill(m > 0.5, 0.0)",
    "x.repeat(2)",
    "m.repeat(2, 1, 3)",
    "F.binary_cross_entropy_with_logits(x, torch.tensor([1.0, 0.0, 1.0]))",
    "F.binary_cross_entropy_with_logits(m, torch.ones(2, 3), reduction='sum')",
    "x.std(dim=(0,))",
    "F.softmax(t3, 2)",
    "F.log_softmax(t3, -1)",
    "x.double() * 2",
    "x.to(torch.float64)",
    "x.float()",
    "x.min(0)[0]",
    "torch.maximum(x, p)",
    "x.prod()",
]


def _evaluate(expr: str) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    theirs, ours = make_inputs(INPUTS)
    tns, ons = namespaces()
    return eval(expr, {**tns, **theirs}), eval(expr, {**ons, **ours}), theirs, ours


@pytest.mark.parametrize("expr", CASES)
def test_op_matches_torch(expr: str) -> None:
    with use_state(RunState()):
        want, got, theirs, ours = _evaluate(expr)
        assert tuple(got.shape) == tuple(want.shape)
        assert str(got.dtype) == str(want.dtype)
        np.testing.assert_allclose(np.asarray(got._data, dtype=np.float64), want.detach().numpy(), rtol=1e-5, atol=1e-6)
        assert str(got) == str(want)
        assert node_names(got) == node_names(want)
        if not want.requires_grad:
            return
        g = np.linspace(0.5, 1.5, want.numel()).reshape(tuple(want.shape)).astype(np.float32)
        want.backward(torch.tensor(g))
        got.backward(got.__class__._make(g))
        for name in INPUTS:
            tg, og = theirs[name].grad, ours[name]._grad
            assert (tg is None) == (og is None), name
            if tg is not None:
                np.testing.assert_allclose(og._data, tg.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


FD_CASES = [
    "(x * p).sum()",
    "(x ** 2).mean()",
    "x.tanh().sum()",
    "x.sigmoid().sum()",
    "(m @ n).sum()",
    "F.log_softmax(m, dim=1)[0, 1]",
    "F.softmax(m, dim=1)[1, 2]",
    "F.mse_loss(x, c)",
    "F.cross_entropy(m, torch.tensor([0, 2]))",
    "(p.log() * x.exp()).sum()",
    "(p ** x).sum()",
    "F.linear(m, n.t(), b).sum()",
    "m.prod()",
]


@pytest.mark.parametrize("expr", FD_CASES)
def test_gradients_match_finite_differences(expr: str) -> None:
    from engine.tensor import Tensor

    with use_state(RunState()):
        _, ons = namespaces()
        base = {k: np.array(v, dtype=np.float64) for k, (v, _) in INPUTS.items()}

        def f(vals: dict[str, np.ndarray]) -> float:
            env = {k: Tensor._make(v.copy()) for k, v in vals.items()}
            env["k"] = Tensor._make(vals["k"].astype(np.int64))
            return float(eval(expr, {**ons, **env}).item())

        env = {k: Tensor._make(v.copy()).requires_grad_(INPUTS[k][1]) for k, v in base.items() if k != "k"}
        env["k"] = Tensor._make(base["k"].astype(np.int64))
        eval(expr, {**ons, **env}).backward()
        for name in ("x", "p", "m", "n", "b"):
            grad = env[name]._grad
            if grad is None:
                continue
            flat = base[name].reshape(-1)
            for i in range(flat.size):
                hi, lo = {**base}, {**base}
                hv, lv = flat.copy(), flat.copy()
                hv[i] += 1e-6
                lv[i] -= 1e-6
                hi[name], lo[name] = hv.reshape(base[name].shape), lv.reshape(base[name].shape)
                fd = (f(hi) - f(lo)) / 2e-6
                assert abs(grad._data.reshape(-1)[i] - fd) < 1e-4 * max(1.0, abs(fd)), (name, i)


ERROR_CASES = [
    "m @ m",
    "m + torch.ones(2, 4)",
    "m.view(5)",
    "m.t().view(6)",
    "x[5]",
    "torch.tensor([1, 2]).mean()",
    "x.sum(dim=2)",
    "torch.cat([m, x])",
    "torch.stack([m, x])",
    "m.reshape(-1, -1)",
]


@pytest.mark.parametrize("expr", ERROR_CASES)
def test_errors_match_torch(expr: str) -> None:
    with use_state(RunState()):
        with pytest.raises(Exception) as theirs:
            _evaluate(expr)
        theirs_exc = theirs.value
    # the engine raises the same type with the same text
    theirs2, ours = make_inputs(INPUTS)
    tns, ons = namespaces()
    with pytest.raises(Exception) as want:
        eval(expr, {**tns, **theirs2})
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, {**ons, **ours})
    assert theirs_exc is not None
    assert isinstance(got.value, type(want.value)) or type(want.value).__name__ in type(got.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


@pytest.mark.parametrize("expr", ["x.add_(1)", "x.mul_(2)", "x.zero_()"])
def test_inplace_on_leaf_requiring_grad_is_refused(expr: str) -> None:
    theirs, ours = make_inputs(INPUTS)
    tns, ons = namespaces()
    with pytest.raises(RuntimeError) as want:
        eval(expr, {**tns, **theirs})
    with use_state(RunState()), pytest.raises(RuntimeError) as got:
        eval(expr, {**ons, **ours})
    assert str(got.value) == str(want.value)


INPLACE_PROGRAMS = [
    "y = x * 2\ny.add_(1)\nz = (y * y).sum()\nz.backward()",
    "y = x * 2\ny += c\ny *= 3\nz = y.sum()\nz.backward()",
    "y = x.exp()\ny.mul_(2)\ny.sum().backward()",
    "y = x * 1\nw = y * y\ny.add_(1)\nw.sum().backward()",
    "y = x.exp()\ny.add_(1)\ny.sum().backward()",
    "with torch.no_grad():\n    x -= 0.1 * c\ny = (x * x).sum()\ny.backward()",
    "a = torch.zeros(3)\na += x\na.sum().backward()",
]


@pytest.mark.parametrize("prog", INPLACE_PROGRAMS)
def test_inplace_programs_match_torch(prog: str) -> None:
    theirs, ours = make_inputs(INPUTS)
    tns, ons = namespaces()
    want_exc = got_exc = None
    try:
        exec(prog, {**tns, **theirs})
    except RuntimeError as e:
        want_exc = str(e)
    with use_state(RunState()):
        try:
            exec(prog, {**ons, **ours})
        except RuntimeError as e:
            got_exc = str(e)
    assert got_exc == want_exc
    for name in INPUTS:
        tg, og = theirs[name].grad, ours[name]._grad
        assert (tg is None) == (og is None)
        if tg is not None:
            np.testing.assert_allclose(og._data, tg.numpy(), rtol=1e-5)
        np.testing.assert_allclose(ours[name]._data, theirs[name].detach().numpy(), rtol=1e-6)


SETITEM_PROGRAMS = [
    "z = torch.zeros(3)\nz[1] = 5\nz[2] += 1\nprint(z)",
    "m = torch.zeros(2, 3)\nm[0, :] = torch.tensor([1., 2., 3.])\nm[:, 2] = 7\nm[m > 2] = -1\nprint(m)",
    "y = x * 3\ny[0] = 100.\ny.sum().backward()\nprint(y, x.grad)",
    "v = torch.tensor(5., requires_grad=True)\nz = torch.zeros(3)\nz[1] = v * 2\nz.sum().backward()\nprint(z, v.grad)",
    "y = m * 2\ny[:, 1] = p[:2]\n(y ** 2).sum().backward()\nprint(y, m.grad, p.grad)",
    "w = x.data\nw[0] = 10\nprint(x)",
]


@pytest.mark.parametrize("prog", SETITEM_PROGRAMS)
def test_setitem_programs_match_torch(prog: str) -> None:
    import contextlib
    import io

    outs = []
    for ns_index in (0, 1):
        theirs, ours = make_inputs(INPUTS)
        ns = namespaces()[ns_index]
        env = {**ns, **(theirs if ns_index == 0 else ours)}
        buf = io.StringIO()
        with use_state(RunState()), contextlib.redirect_stdout(buf):
            exec(prog, env)
        outs.append(buf.getvalue())
    assert outs[1] == outs[0]


def test_setitem_on_leaf_requiring_grad_is_refused() -> None:
    theirs, ours = make_inputs(INPUTS)
    with pytest.raises(RuntimeError) as want:
        theirs["x"][0] = 1.0
    with use_state(RunState()), pytest.raises(RuntimeError) as got:
        ours["x"][0] = 1.0
    assert str(got.value) == str(want.value)

"""Backward semantics against real PyTorch: accumulation, retain_graph, freed graphs, errors, grad mode,
torch.autograd.grad, retain_grad, and what the observer is told."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from tests.engine.helpers import run_ours, run_torch

PROGRAMS = [
    # accumulation and reset (the course's lesson 2)
    "x = torch.tensor(2.0, requires_grad=True)\n(x ** 2).backward()\nprint(x.grad)\n(x ** 3).backward()\n"
    "print(x.grad)\nx.grad = None\n(x ** 3).backward()\nprint(x.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\ny.backward(retain_graph=True)\n"
    "y.backward()\nprint(x.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * 3).sum()\ny.backward(retain_graph=True)\n"
    "x.grad.zero_()\ny.backward()\nprint(x.grad)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 2\ny.backward(torch.tensor([1., 0.1, 0.01]))\n"
    "print(x.grad)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 2\nprint(y.is_leaf, x.is_leaf, y.requires_grad)\n"
    "z = torch.tensor([1., 2.]) * 2\nprint(z.is_leaf, z.requires_grad, z.grad_fn)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 2\ny.retain_grad()\nz = (y ** 2).sum()\n"
    "z.backward()\nprint(y.grad, x.grad, y.retains_grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\n"
    "print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())\nprint(torch.is_grad_enabled())",
    "x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.no_grad():\n    with torch.enable_grad():\n"
    "        y = x * 2\nprint(y)\nwith torch.set_grad_enabled(False):\n    z = x * 2\nprint(z)",
    "x = torch.tensor(3., requires_grad=True)\ng, = torch.autograd.grad(x ** 2, x)\nprint(g, x.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., 4.], requires_grad=True)\n"
    "y = (x * w).sum()\ngx, gw = torch.autograd.grad(y, [x, w])\nprint(gx, gw)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nd = x.detach()\nprint(d.requires_grad, d.is_leaf)\n"
    "e = x.clone()\nprint(e)\nprint(x.data)",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * x\nn = y.grad_fn\n"
    "print(n.name(), n.next_functions[0][0].name(), n.next_functions[0][0].variable is x)\n"
    "print(y.grad_fn._saved_self, y.grad_fn._saved_other)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\nw = torch.tensor([0.5, -1., 2.], requires_grad=True)\n"
    "out = (x * w).sum() + (x ** 2).mean()\nprint(out)\nout.backward()\nprint(x.grad, w.grad)",
    "a = torch.tensor(2., requires_grad=True)\nb = a * a\nc = b + a\nd = c * b\nd.backward()\nprint(a.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = x.sum()\ny.backward()\ny.backward()\nprint(x.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nx.requires_grad_(False)\nprint(x)\nx.requires_grad = True\n"
    "print(x)",
    # leaves whose gradients are ready at once run their AccumulateGrad (and hooks) in the order of PyTorch's ready
    # queue, a std::priority_queue: not the order the leaves were made in, nor the reverse (rasbt/deeplearning-models,
    # "manual gradients": hooks on x, w, b, u, v of a = relu(x * w + b))
    "x = torch.tensor([3.], requires_grad=True)\nw = torch.tensor([2.], requires_grad=True)\n"
    "b = torch.tensor([1.], requires_grad=True)\nu = x * w\nv = u + b\n"
    "for n, t in zip('xwbuv', (x, w, b, u, v)):\n    t.register_hook(lambda g, n=n: print(n, g))\n"
    "torch.relu(v).backward()",
    "ts = [torch.tensor(float(i), requires_grad=True) for i in range(7)]\n"
    "for i, t in enumerate(ts):\n    t.register_hook(lambda g, i=i: print(i, end=' '))\n"
    "torch.stack(ts).sum().backward()\nprint()\nsum(t * (i + 1) for i, t in enumerate(ts)).backward()\nprint()\n"
    "torch.cat([t.view(1) * 2 for t in ts[::-1]]).sum().backward()\nprint()",
    "m = torch.nn.Linear(3, 2)\nfor n, p in m.named_parameters():\n    p.register_hook(lambda g, n=n: print(n))\n"
    "m2 = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))\n"
    "for n, p in m2.named_parameters():\n    p.register_hook(lambda g, n=n: print(n))\n"
    "m2(m(torch.ones(4, 3))).sum().backward()",
]


@pytest.mark.parametrize("code", PROGRAMS)
def test_programs_print_like_torch(code: str) -> None:
    code = "import torch\n" + code
    assert run_ours(code) == run_torch(code)


ERRORS = [
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * 3).sum()\ny.backward()\ny.backward()",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()",
    "x = torch.tensor([1., 2.], requires_grad=True)\n(x * 2).backward()",
    "x = torch.tensor([1., 2.])\nx.sum().backward()",
    "x = torch.tensor([1., 2.], requires_grad=True)\n(x * 2).backward(torch.ones(3))",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * x\ny.sum().backward()\ny.grad_fn._saved_self",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\ny.requires_grad = False",
    "torch.tensor([1, 2], requires_grad=True)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nx.add_(1)",
    "x = torch.tensor([1., 2.], requires_grad=True)\nx.item()",
    "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor(1., requires_grad=True)\n"
    "torch.autograd.grad((x * 2).sum(), [x, w])",
    "x = torch.tensor([1., 2.], requires_grad=True)\na = x * 2\nb = a * a\na.add_(1)\nb.sum().backward()",
    "x = torch.tensor([1., 2.], requires_grad=True)\na = x * 2\nb = a.exp()\nb.add_(1)\nb.sum().backward()",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_like_torch(code: str) -> None:
    code = "import torch\n" + code
    with pytest.raises(Exception) as want:
        run_torch(code)
    with pytest.raises(Exception) as got:
        run_ours(code)
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


def test_deep_graph_runs_without_recursion() -> None:
    code = (
        "import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor _ in range(100000):\n"
        "    y = y + 0.0\ny.backward()\nprint(x.grad)"
    )
    assert run_ours(code) == "tensor(1.)\n"


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        def record(*args: Any) -> None:
            self.calls.append((name, args))

        return record


def test_observer_is_told_everything() -> None:
    rec = Recorder()
    code = (
        "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\ny = (x ** 2).sum()\ny.backward()\n"
        "h = y.grad\nx.grad.zero_()\nx.grad = None\n"
    )
    run_ours(code, observer=rec)
    kinds = [c[0] for c in rec.calls]
    assert kinds == [
        "tensor_created",
        "tensor_created",
        "tensor_created",
        "backward_started",
        "node_ran",
        "node_ran",
        "grad_accumulated",
        "warning",
        "grad_reset",
        "grad_reset",
    ]
    node_calls = [args for name, args in rec.calls if name == "node_ran"]
    assert [n.name() for n, _, _ in node_calls] == ["SumBackward0", "PowBackward0"]
    for node, outs, ins in node_calls:
        assert len(ins) == len(node.next_functions)
        assert all(isinstance(a, np.ndarray) for a in outs)
    leaf, before, delta, after = rec.calls[6][1]
    assert before is None and list(delta) == [2.0, 4.0, 6.0] and after.shape == (3,)
    assert [c[1][1] for c in rec.calls if c[0] == "grad_reset"] == ["zero", "none"]


def test_grad_accumulates_in_place_like_torch() -> None:
    code = (
        "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\n(x * 2).sum().backward()\ng = x.grad\n"
        "(x * 3).sum().backward()\nprint(g, g is x.grad)"
    )
    assert run_ours(code) == run_torch(code)


def test_no_grad_state_is_per_run() -> None:
    from engine.autograd import no_grad
    from engine.run_state import state

    with use_state(RunState()):
        with no_grad():
            assert not state().grad_enabled
            with use_state(RunState()):
                assert state().grad_enabled
        assert state().grad_enabled
    assert torch.is_grad_enabled()


def test_no_grad_as_decorator() -> None:
    code = (
        "import torch\n@torch.no_grad()\ndef double(a):\n    return a * 2\n"
        "x = torch.ones(2, requires_grad=True)\nprint(double(x), (x * 2).requires_grad)"
    )
    assert run_ours(code) == run_torch(code)


def test_old_style_grad_data_zero_is_a_reset() -> None:
    rec = Recorder()
    code = (
        "import torch\nw = torch.ones(2, requires_grad=True)\n(w * 2).sum().backward()\nw.grad.data.zero_()\n"
        "print(w.grad)"
    )
    assert run_ours(code, observer=rec) == run_torch(code)
    assert [a[1] for k, a in rec.calls if k == "grad_reset"] == ["zero"]


def test_inplace_op_reannounces_the_tensor() -> None:
    rec = Recorder()
    run_ours("import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.add_(1)\n", observer=rec)
    created = [a[0] for k, a in rec.calls if k == "tensor_created"]
    assert len(created) == 3 and created[1] is created[2]
    assert created[2].grad_fn.name() == "AddBackward0"
    assert created[2].grad_fn.next_functions[0][0].name() == "MulBackward0"


HIGHER_ORDER = [
    "x = torch.tensor([3.0], requires_grad=True)\ny = x ** 2\nprint(torch.autograd.grad(y, x, create_graph=True))",
    "x = torch.tensor(3., requires_grad=True)\n(g,) = torch.autograd.grad(x ** 3, x, create_graph=True)\n"
    "(h,) = torch.autograd.grad(g, x)\nprint(g, h)",
    "x = torch.tensor(2.0, requires_grad=True)\ny = x ** 3 + torch.sin(x) * x.exp()\n"
    "dy, = torch.autograd.grad(y, x, create_graph=True)\nd2y, = torch.autograd.grad(dy, x, create_graph=True)\n"
    "d3y, = torch.autograd.grad(d2y, x)\nprint(dy, d2y, d3y)",
    "w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\nx = torch.tensor([[0.5, -1.]])\n"
    "loss = torch.nn.functional.mse_loss(x @ w, torch.zeros(1, 2))\n"
    "g, = torch.autograd.grad(loss, w, create_graph=True)\n"
    "(g ** 2).sum().backward()\nprint(g, w.grad)",
    "x = torch.tensor([0.5, -0.3, 2.0], requires_grad=True)\n"
    "y = torch.tanh(x).sum() + torch.sigmoid(x).mean() + (x / (x + 3)).sum() + x.relu().sum() + x[1] * x[2]\n"
    "g, = torch.autograd.grad(y, x, create_graph=True)\nh, = torch.autograd.grad(g.sum(), x)\nprint(g, h)",
    "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x ** 2).sum()\ny.backward(create_graph=True)\n"
    "print(x.grad)\nz = x.grad.sum()\nx.grad = None\nz.backward()\nprint(x.grad)",
]


@pytest.mark.parametrize("code", HIGHER_ORDER)
def test_create_graph_like_torch(code: str) -> None:
    import warnings

    code = "import torch\n" + code
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's note about backward(create_graph=True) cycles
        want = run_torch(code)
    assert run_ours(code) == want


def test_nodes_keep_only_what_backward_needs() -> None:
    import gc
    import weakref

    from engine.facade import make_modules

    with use_state(RunState()):
        torch_ = make_modules()["torch"]
        x = torch_.ones(1000, requires_grad=True)
        a = x + 1  # AddBackward0 saves nothing
        ref = weakref.ref(a)
        b = (a + 2).sum()
        del a
        gc.collect()
        assert ref() is None
        c = x.exp()  # ExpBackward0 saves its result
        ref2 = weakref.ref(c)
        d = (c * 1.0).sum()
        del c
        gc.collect()
        assert ref2() is None  # the array is saved, the tensor object is not kept
        b.backward()
        d.backward()
        assert x.grad is not None


def test_retain_grad_follows_inplace_ops() -> None:
    code = (
        "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\ny.retain_grad()\ny.mul_(3)\n"
        "(y * y).sum().backward()\nprint(y.grad, x.grad)"
    )
    assert run_ours(code) == run_torch(code)


def test_calling_a_node_applies_its_local_chain_rule() -> None:
    code = (
        "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\n"
        "w = torch.tensor([3., 4.], requires_grad=True)\ny = x * w\nprint(y.grad_fn(torch.ones(2)))\n"
        "z = x.exp()\nprint(z.grad_fn(torch.ones(2)))\n"
        "s = z.sum()\nprint(s.grad_fn(torch.tensor(1.)))\nprint(z.grad_fn.next_functions[0][0](torch.ones(2)))"
    )
    assert run_ours(code) == run_torch(code)


def test_tensor_hooks_like_torch() -> None:
    code = (
        "import torch\nx = torch.tensor([1., 2.])\nx.requires_grad_()\n"
        "h = x.register_hook(lambda g: print('leaf hook', g))\ny = x * 2\nh2 = y.register_hook(lambda g: g * 10)\n"
        "y.sum().backward()\nprint(x.grad)\nh2.remove()\nx.grad = None\n(x * 2).sum().backward()\nprint(x.grad)\n"
        "z = torch.tensor([1.])\ntry:\n    z.register_hook(print)\nexcept RuntimeError as e:\n    print(e)"
    )
    assert run_ours(code) == run_torch(code)

"""engine/autograd_function.py against PyTorch 2.13: the learner's own ``torch.autograd.Function`` (forward and
backward side by side, ``ctx.save_for_backward``/``saved_tensors``/``needs_input_grad``/``mark_non_differentiable``/
``set_materialize_grads``, several outputs, double backward), its node's name and printing, PyTorch's errors for a
wrong backward, and ``torch.autograd.Variable``. Each program runs on real PyTorch and on the engine (``run_ours``:
Python itself runs the class, so ``@staticmethod`` is Python's), and prints the same, addresses aside."""

from __future__ import annotations

import re

import pytest

import engine
from tests.engine.helpers import run_ours, run_torch

HEADER = "import torch\nfrom torch.autograd import Function, Variable\n"

RELU = """
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
"""

TWO = """
class Two(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a + b

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", g1, "g2", g2)
        a, b = ctx.saved_tensors
        return g1 * b + g2, g1 * a + g2
"""

CUBE = """
class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print("backward in grad mode:", torch.is_grad_enabled(), g.requires_grad)
        return g * 3 * x ** 2
"""

EXP = """
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        print("saved", result)
        return grad_output * result
"""

PROGRAMS = {
    "relu": RELU + "x = torch.tensor([-1., 2., 3.], requires_grad=True)\ny = MyReLU.apply(x)\nprint(y)\n"
    "print(y.grad_fn, y.grad_fn.name(), type(y.grad_fn).__name__)\nprint(y.grad_fn.next_functions)\n"
    "print(y.grad_fn.saved_tensors, y.grad_fn.needs_input_grad)\ny.sum().backward()\nprint(x.grad)\n"
    "print(MyReLU.apply(torch.tensor([1., -2.])), MyReLU.apply(torch.tensor([1., -2.])).grad_fn)\n"
    "with torch.no_grad():\n    print(MyReLU.apply(x))\n",
    "relu_in_a_net": RELU + "torch.manual_seed(0)\nx = torch.randn(8, 3)\nw1 = torch.randn(3, 5, requires_grad=True)\n"
    "w2 = torch.randn(5, 1, requires_grad=True)\nfor t in range(3):\n    relu = MyReLU.apply\n"
    '    y = relu(x.mm(w1)).mm(w2)\n    loss = y.pow(2).sum()\n    print(t, f"{loss.item():.4f}")\n    loss.backward()\n'
    "    with torch.no_grad():\n        w1 -= 1e-2 * w1.grad\n        w2 -= 1e-2 * w2.grad\n"
    "        w1.grad.zero_()\n        w2.grad.zero_()\nprint(w1)\n",
    "freed_after_backward": RELU + "x = torch.tensor([-1., 2.], requires_grad=True)\ny = MyReLU.apply(x)\n"
    "y.sum().backward(retain_graph=True)\nprint(y.grad_fn.saved_tensors)\ny.sum().backward()\nprint(x.grad)\n"
    "try:\n    y.grad_fn.saved_tensors\nexcept RuntimeError as e:\n    print(str(e)[:60])\n",
    "two_outputs": TWO
    + "a = torch.tensor([1., 2.], requires_grad=True)\nb = torch.tensor([3., 4.], requires_grad=True)\n"
    "p, s = Two.apply(a, b)\nprint(p, s)\nprint(p.grad_fn is s.grad_fn, s.grad_fn.next_functions)\n"
    "print(p.sum().grad_fn.next_functions, s.sum().grad_fn.next_functions)\np.sum().backward()\nprint(a.grad, b.grad)\n"
    "p, s = Two.apply(a, b)\n(p * s).sum().backward()\nprint(a.grad, b.grad)\n"
    "p, s = Two.apply(a, b)\nprint(torch.autograd.grad(s.sum(), b))\n",
    "double_backward": CUBE + "x = torch.tensor([1., 2.], requires_grad=True)\ny = Cube.apply(x).sum()\n"
    "gx, = torch.autograd.grad(y, x, create_graph=True)\nprint(gx)\ngx.sum().backward()\nprint(x.grad)\n"
    "x.grad = None\nz = Cube.apply(x * 2).sum()\nz.backward(create_graph=True)\nprint(x.grad)\n",
    "saved_output": EXP + "x = torch.tensor([0., 1.], requires_grad=True)\ne = Exp.apply(x)\n"
    "print(e.grad_fn.saved_tensors)\ng, = torch.autograd.grad(e.sum(), x, create_graph=True)\nprint(g)\n"
    "g.sum().backward()\nprint(x.grad)\n",
    "non_differentiable": """
class ArgMax(Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.max(0)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(x, i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        print("gi", gi)
        x, i = ctx.saved_tensors
        g = torch.zeros_like(x)
        g[i] = gv
        return g

x = torch.tensor([1., 5., 2.], requires_grad=True)
v, i = ArgMax.apply(x)
print(v, i, i.requires_grad, i.grad_fn)
v.backward()
print(x.grad)
""",
    "materialize_and_constants": """
class M(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 * 2 if g1 is not None else None

class Scale(Function):
    @staticmethod
    def forward(ctx, x, k, w):
        ctx.k = k
        print("forward grad mode:", torch.is_grad_enabled(), x.requires_grad)
        return x * k + w, k

    @staticmethod
    def backward(ctx, g, gk):
        print("gk", gk, ctx.needs_input_grad)
        return g * ctx.k, None, None

x = torch.ones(2, requires_grad=True)
a, b = M.apply(x)
a.sum().backward()
print(x.grad)
y, k = Scale.apply(x, 3.0, torch.ones(2))
print(y, k, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
print(Scale.apply(torch.ones(2), 2.0, torch.zeros(2)))
""",
    "input_returned_and_casts": """
class Same(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 5

class Widen(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, g):
        return g.double().expand(2, 2, 3)

b = torch.ones(2, requires_grad=True)
s = Same.apply(b)
print(s, s is b, s.is_leaf)
s.sum().backward()
print(b.grad)
x = torch.ones(2, 3, requires_grad=True)
Widen.apply(x).sum().backward()
print(x.grad, x.grad.dtype)
""",
    "nyu_add_split_max": """
torch.manual_seed(0)
class MyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x1, x2):
        ctx.save_for_backward(x1, x2)
        return x1 + x2

    @staticmethod
    def backward(ctx, grad_output):
        x1, x2 = ctx.saved_tensors
        grad_x1 = grad_output * torch.ones_like(x1)
        grad_x2 = grad_output * torch.ones_like(x2)
        return grad_x1, grad_x2

x1 = torch.randn((3), requires_grad=True)
x2 = torch.randn((3), requires_grad=True)
print(f'x1: {x1}')
print(f'x2: {x2}')
myadd = MyAdd.apply
y = myadd(x1, x2)
print(f' y: {y}')
z = y.mean()
print(f' z: {z}, dz/dx1: {torch.autograd.grad(z, x1, retain_graph=True)[0]}')
print(f' z: {z}, dz/dx2: {torch.autograd.grad(z, x2, retain_graph=True)[0]}')

class MySplit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        x1 = x.clone()
        x2 = x.clone()
        return x1, x2

    @staticmethod
    def backward(ctx, grad_out1, grad_out2):
        x, = ctx.saved_tensors
        print(f'grad_out1: {grad_out1}')
        print(f'grad_out2: {grad_out2}')
        grad_input = grad_out1 + grad_out2
        return grad_input

x = torch.randn((4), requires_grad=True)
split = MySplit.apply
x1, x2 = split(x)
print(f'x: {x}')
print(f'x1: {x1}')
print(f'x2: {x2}')
y = x1 + x2
print(f'y: {y}')
z = y.mean()
print(f'z: {z}')
z.backward()
print(f'x.grad: {x.grad}')

class Max(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        maximum = x.detach().max().item()
        argmax = x.detach().eq(maximum).float()
        ctx.save_for_backward(argmax)
        return torch.tensor(maximum)

    @staticmethod
    def backward(ctx, grad_output):
        argmax, = ctx.saved_tensors
        grad_input = grad_output * argmax
        return grad_input

x = torch.randn((5), requires_grad=True)
print(f'x: {x}')
y = Max.apply(x)
print(f'y: {y}')
z = y.mean()
print(f'z: {z}')
z.backward()
print(f'x.grad: {x.grad}')
""",
    "variable": "t = torch.ones(2)\nv = Variable(t)\nprint(v is t, v.requires_grad, isinstance(t, Variable))\n"
    "v = Variable(t, requires_grad=True)\nprint(v, v is t, t.requires_grad, v.is_leaf)\n"
    "w = torch.autograd.Variable(torch.tensor([2.]), requires_grad=True)\n(w * w).backward()\nprint(w.grad)\n"
    "print(Variable, Function, torch.autograd.function.Function)\n",
    "errors": """
class Bad(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g

class BadShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)

class BadType(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return 2.0

class NotNone(Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g, 1.0

class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 2

class SavesNumber(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(3)
        return x

class Modified(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x

a = torch.ones(2, requires_grad=True)
for f in [lambda: Bad.apply(a, a), lambda: BadShape.apply(torch.ones(2, 3, requires_grad=True)),
          lambda: BadType.apply(a), lambda: NotNone.apply(a, 2.0), lambda: NoBackward.apply(a),
          lambda: SavesNumber.apply(a), lambda: Bad(), lambda: Variable([1, 2]),
          lambda: Variable(torch.tensor([1, 2]), requires_grad=True)]:
    try:
        out = f()
        if isinstance(out, torch.Tensor):
            out.sum().backward()
        else:
            out(a)
    except Exception as e:
        print(type(e).__name__, e)
x2 = torch.ones(2, requires_grad=True) * 1
z = Modified.apply(x2)
x2.add_(1)
for f in [lambda: z.sum().backward(), lambda: z.grad_fn.saved_tensors]:
    try:
        f()
    except RuntimeError as e:
        print(e)
for attr in ["next_functions", "saved_tensors", "needs_input_grad", "k"]:
    try:
        setattr(z.grad_fn, attr, 1)
        print("set", attr, getattr(z.grad_fn, attr))
    except AttributeError as e:
        print(attr, e)
""",
    # mark_dirty: the input changed in place (through its numpy view, as the docs' example) is the output itself,
    # one version on; a product saved before then fails backward; used after, gradients flow through it
    "mark_dirty": """
class AddOne(Function):
    @staticmethod
    def forward(ctx, x):
        with torch.no_grad():
            print(x.requires_grad, torch.is_grad_enabled())
        x.numpy()[...] += 1
        x.add_(0)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3

a = torch.tensor([1.0, 2.0], requires_grad=True).clone()
b = a * a
print(a._version, a.grad_fn.name())
c = AddOne.apply(a)
print(c is a, a._version, a.grad_fn.name(), a.is_leaf, c)
(c * 2).sum().backward()
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
leaf = torch.ones(2, requires_grad=True)
w = torch.ones(2)
print(AddOne.apply(w) is w, w._version, w)
try:
    AddOne.apply(leaf)
except RuntimeError as e:
    print(e)
""",
}

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def _same(code: str) -> tuple[str, str]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's DeprecationWarning for Bad(): stderr only
        want = run_torch(HEADER + code)
    got = run_ours(HEADER + code)
    return _ADDRESS.sub(" at 0x?>", got), _ADDRESS.sub(" at 0x?>", want)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_custom_function_prints_like_torch(name: str) -> None:
    got, want = _same(PROGRAMS[name])
    assert got == want


def test_grad_fn_prints_with_its_module_and_runs_in_the_trace() -> None:
    got = run_ours(HEADER + RELU + "y = MyReLU.apply(torch.tensor([1.], requires_grad=True))\nprint(y.grad_fn)\n")
    assert re.fullmatch(r"<torch\.autograd\.function\.MyReLUBackward object at 0x[0-9a-f]+>\n", got)


def test_custom_function_in_the_sandbox_is_traced() -> None:
    result = engine.run(
        HEADER + RELU + "x = torch.tensor([-1., 2.], requires_grad=True)\ny = MyReLU.apply(x)\n"
        "y.sum().backward()\nprint(x.grad)\n",
        seed=0,
    )
    assert result.error is None, result.error
    assert result.stdout == "needs (True,)\ntensor([0., 1.])\n"
    ops = [e.get("op") for e in result.events if e["type"] in ("tensor", "node")]
    assert "MyReLUBackward" in ops


CTX_ESCAPES = [
    ("ctx.formulas = print", "AttributeError", "is not writable"),
    ("ctx.next_functions = ()", "AttributeError", "is not writable"),
    ("print(ctx._forward_cls)", "NotSupported", "is not accessible"),
    ("print(ctx.saved_tensors.__class__)", "NotSupported", "is not accessible"),
    ("ctx.save_for_backward(print)", "TypeError", "save_for_backward can only save variables"),
]


@pytest.mark.parametrize(("line", "etype", "fragment"), CTX_ESCAPES)
def test_the_ctx_is_no_door(line: str, etype: str, fragment: str) -> None:
    code = (
        HEADER + "class F(Function):\n    @staticmethod\n    def forward(ctx, x):\n        " + line + "\n"
        "        return x * 2\n\nF.apply(torch.ones(1, requires_grad=True))\n"
    )
    result = engine.run(code)
    assert result.error is not None and result.error["type"] == etype, result.error
    assert fragment in result.error["message"]

"""Nothing a run does reaches another run in the same process: each poisoning pattern runs 24 times, then normal
programs and the built-in lessons answer exactly as they did before any of it (issue 9, item 1)."""

from __future__ import annotations

import pytest

import engine
from server.lessons import LESSONS

T = "import torch\nimport torch.nn as nn\n"

# (name, program, the error type it ends with, or None when it runs and must simply change nothing for later runs)
POISONS: list[tuple[str, str, str | None]] = [
    (
        "dtype subclass remakes float32 as int8",
        T + "class A(torch.dtype):\n    pass\nsuper(A, A).__init__(torch.float32, 'float32', 'int8', False)",
        "NotSupported",
    ),
    (
        "Module.__init__ run on a shared dtype through super(A, A)",
        T + "class A(nn.Module):\n    pass\nsuper(A, A).__init__(torch.float32)",
        "TypeError",
    ),
    (
        "Module.__init__ run on the shared CPU device",
        T + "class A(nn.Module):\n    pass\nsuper(A, A).__init__(torch.device('cpu'))",
        "TypeError",
    ),
    (
        "a forward hook planted on the shared CPU device",
        T + "class A(nn.Module):\n    pass\nsuper(A, A).register_forward_hook(torch.device('cpu'), print)",
        "TypeError",
    ),
    (
        "train() run on a dtype",
        T + "class A(nn.Module):\n    pass\nsuper(A, A).train(torch.float64, False)",
        "TypeError",
    ),
    (
        "super(C, obj) with obj not an instance of C",
        T + "class A(nn.Module):\n    def f(self):\n        return super(A, torch.float32).__init__()\nA().f()",
        "TypeError",
    ),
    (
        "a method taking a dtype as self calls super().__init__",
        T + "keep = []\nclass A(nn.Module):\n    def f(self):\n        super().__init__()\n    keep.append(f)\n"
        "keep[0](torch.float32)",
        "TypeError",
    ),
    ("dtype attribute assigned", T + "torch.float32.is_floating_point = False", "NotSupported"),
    ("dtype made by hand", T + "d = torch.dtype('float32', 'int8', True)\nprint(torch.ones(2, dtype=d))", "TypeError"),
    ("device attribute assigned", T + "torch.device('cpu').type = 'meta'", "NotSupported"),
    ("subclass of a device", T + "class D(torch.device):\n    pass", "NotSupported"),
    ("subclass of torch.Size", T + "class S(torch.Size):\n    pass", "NotSupported"),
    ("subclass of torch.Tensor", T + "class S(torch.Tensor):\n    pass", "NotSupported"),
    ("subclass of no_grad", T + "class G(torch.no_grad):\n    def f(self):\n        return 1", "NotSupported"),
    ("torch functions rebound", T + "torch.tensor = lambda *a, **k: 0", "NotSupported"),
    ("nn layer rebound", T + "nn.Linear = nn.ReLU", "NotSupported"),
    ("math rebound", "import math\nmath.sqrt = abs", "NotSupported"),
    ("class attribute of an engine class", T + "nn.Module.training = False", "NotSupported"),
    (
        "a method planted on an engine class",
        T + "def f(self, *a):\n    torch.manual_seed(0)\nnn.Module.__call__ = f",
        "NotSupported",
    ),
    (
        "global seed, grad mode, default dtype and print options",
        T + "torch.manual_seed(1234)\ntorch.set_grad_enabled(False)\ntorch.set_default_dtype(torch.float64)\n"
        "torch.set_printoptions(precision=1)\nprint(torch.rand(2))",
        None,
    ),
    (
        "hooks on the run's own tensors and modules",
        T + "x = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: [torch.manual_seed(0), None][1])\n"
        "(x * 2).sum().backward()\nm = nn.Linear(2, 1)\n"
        "m.register_forward_hook(lambda *a: [torch.set_grad_enabled(False), None][1])\nm(x)",
        None,
    ),
    (
        "an exception class's __init__ tries the torch namespace",
        T
        + "class E(Exception):\n    def __init__(self, m):\n        super().__init__(m)\n        torch.no_grad = None\n"
        "raise E('boom')",
        "NotSupported",
    ),
    (
        "set_default_dtype given a dtype subclass",
        T + "class A(torch.dtype):\n    pass\ntorch.set_default_dtype(A)",
        "NotSupported",
    ),
    ("Python's random seeded, then rebound", "import random\nrandom.seed(5)\nrandom.random = None", "NotSupported"),
    ("copy.deepcopy rebound", "import copy\ncopy.deepcopy = print", "NotSupported"),
    ("a collections class changed", "import collections\ncollections.OrderedDict.update = print", "NotSupported"),
    ("a method planted on a generator", T + "g = torch.Generator()\ng.manual_seed = print", "NotSupported"),
    ("object's own methods turned on a dtype", T + "object.__setattr__(torch.float32, 'itemsize', 1)", "NotSupported"),
]

NORMAL = [
    T + "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = (x ** 2).sum()\ny.backward()\n"
    "print(x.grad, x.dtype, y)",
    T + "x = torch.tensor([1.5, 2.25], dtype=torch.float64)\nprint(x * 3, (x * 3).dtype, torch.get_default_dtype())",
    T + "torch.manual_seed(0)\nprint(torch.rand(3), torch.randn(2))",
    T + "print(torch.is_grad_enabled(), torch.ones(2).device, torch.float32.is_floating_point, torch.int8.itemsize)",
    T + "torch.manual_seed(3)\nm = nn.Linear(3, 2)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
    "loss = m(torch.ones(1, 3)).pow(2).sum()\nloss.backward()\nopt.step()\nprint(m.weight, loss.grad_fn.name())",
    T + "print(torch.tensor([1, 2]).dtype, torch.zeros(2, 2).shape, torch.tensor(0.1) + 0.2)",
    "import random\nimport collections\nprint(random.random(), random.randint(1, 6), collections.OrderedDict(a=1))",
]


def _answers() -> list[tuple[str, object]]:
    out = []
    for code in NORMAL:
        result = engine.run(code, seed=7)
        out.append((result.stdout, result.error))
    for lesson in LESSONS:
        result = engine.run(lesson.code, seed=7)
        out.append((result.stdout, result.error))
    return out


@pytest.mark.parametrize(("name", "code", "etype"), POISONS, ids=[p[0] for p in POISONS])
def test_each_poisoning_pattern_is_refused_or_stays_in_its_run(name: str, code: str, etype: str | None) -> None:
    result = engine.run(code, seed=1)
    if etype is None:
        assert result.error is None, result.error
    else:
        assert result.error is not None and result.error["type"] == etype, (name, result.error)


def test_after_24_runs_of_every_poisoning_pattern_normal_runs_and_lessons_answer_as_before() -> None:
    before = _answers()
    assert all(error is None for _, error in before), before
    assert "tensor([2., 4., 6.]) torch.float32" in before[0][0]
    for _ in range(24):
        for _, code, _ in POISONS:
            engine.run(code)
    for _ in range(16 // len(NORMAL) + 1):
        assert _answers() == before


def test_legitimate_super_and_subclassing_still_work() -> None:
    code = T + (
        "class Base(nn.Module):\n    def __init__(self, n):\n        super(Base, self).__init__()\n"
        "        self.fc = nn.Linear(n, 1)\n"
        "class Net(Base):\n    def __init__(self):\n        super().__init__(2)\n"
        "class Data(torch.utils.data.Dataset):\n    def size(self):\n        return 3\n"
        "class Stop(ValueError):\n    pass\n"
        "class Sched(torch.optim.lr_scheduler.StepLR):\n    pass\n"
        "class Plain(object):\n    pass\n"
        "import collections\nclass Point(collections.namedtuple('Point', 'x y')):\n    pass\n"
        "class Ordered(collections.OrderedDict):\n    pass\n"
        "net = Net()\nprint(net.fc)\n"
        "try:\n    raise Stop('no more')\nexcept ValueError as e:\n    print('caught', e)\n"
        "print(isinstance(Plain(), object), isinstance(3, object))\n"
        "init = super(Net, Net).__init__\ninit(net, 2)\nprint(net.fc)\n"
        "print(Point(1, 2).x, len(Ordered(a=1)))\n"
    )
    result = engine.run(code, seed=1)
    assert result.error is None, result.error
    assert result.stdout.splitlines() == [
        "Linear(in_features=2, out_features=1, bias=True)",
        "caught no more",
        "True True",
        "Linear(in_features=2, out_features=1, bias=True)",
        "1 1",
    ]


def test_shared_value_types_are_read_only_even_for_the_engine() -> None:
    from engine import dtypes
    from engine.size_device import CPU, Size

    with pytest.raises(AttributeError):
        dtypes.float32._np = dtypes.int8._np  # type: ignore[misc]
    with pytest.raises(AttributeError):
        CPU.type = "meta"  # type: ignore[misc]
    with pytest.raises(TypeError, match="cannot create 'torch.dtype' instances"):
        dtypes.dtype("float32", "int8", True)
    assert not hasattr(Size((1, 2)), "__dict__")

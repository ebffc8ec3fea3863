"""Issue 11, item 1: the Python that real course code uses runs as written, and prints what CPython (or CPython with
real PyTorch 2.13) prints for the same program: the learner's '_' names, dunder methods on their classes (called by
the interpreter and by the engine), generators and lazy generator expressions, ``type()``, class attributes,
``staticmethod``/``classmethod``, set methods, ``__future__``, ``id``/``hash``, ``dataclasses``."""

from __future__ import annotations

import pytest

import engine
from tests.oracle import torch_stdout
from tests.sandbox.helpers import cpython

PYTHON = {
    "underscore_names": (
        "_scale = 3\ndef _helper(_x, __y=2):\n    return _x * __y + _scale\n"
        "class _Box:\n    _count = 0\n    def __init__(self, _v):\n        self._v = _v\n        self.__hidden = _v * 2\n"
        "        _Box._count\n    def _twice(self):\n        return self._v * 2 + self.__hidden\n"
        "b = _Box(4)\nprint(_helper(1), _helper(_x=2, __y=5), b._v, b._twice(), _Box._count, _)\n"
        "for _ in range(2):\n    pass\nb._v += 1\nprint(b._v, [_i for _i in range(3)])"
    ).replace(", _)\n", ")\n"),
    "dunders": (
        "class Vec:\n    def __init__(self, *xs):\n        self.xs = list(xs)\n"
        "    def __len__(self):\n        return len(self.xs)\n    def __getitem__(self, i):\n        return self.xs[i]\n"
        "    def __setitem__(self, i, v):\n        self.xs[i] = v\n    def __delitem__(self, i):\n        del self.xs[i]\n"
        "    def __iter__(self):\n        return iter(self.xs)\n    def __repr__(self):\n        return f'Vec{tuple(self.xs)}'\n"
        "    def __str__(self):\n        return 'v' + str(self.xs)\n    def __eq__(self, o):\n        return isinstance(o, Vec) and self.xs == o.xs\n"
        "    def __lt__(self, o):\n        return sum(self.xs) < sum(o.xs)\n    def __hash__(self):\n        return hash(tuple(self.xs))\n"
        "    def __add__(self, o):\n        return Vec(*[a + b for a, b in zip(self, o)])\n"
        "    def __radd__(self, o):\n        return self if o == 0 else NotImplemented\n"
        "    def __mul__(self, k):\n        return Vec(*[a * k for a in self])\n    __rmul__ = __mul__\n"
        "    def __neg__(self):\n        return self * -1\n    def __abs__(self):\n        return sum(x * x for x in self) ** 0.5\n"
        "    def __contains__(self, x):\n        return x in self.xs\n    def __bool__(self):\n        return any(self.xs)\n"
        "    def __call__(self, k):\n        return self.xs[k]\n"
        "v = Vec(3, 4)\nprint(len(v), v[0], v[-1], v, str(v), repr(v), [v], f'{v}', f'{v!r}')\n"
        "v[0] = 6\ndel v[1]\nprint(v, v + Vec(1), 2 * v, v * 2, -v, abs(Vec(3, 4)), 6 in v, 7 in v)\n"
        "print(bool(Vec(0)), bool(v), v == Vec(6), v != Vec(6), sorted([Vec(5), Vec(1, 1)]), Vec(2) < Vec(3))\n"
        "print(sum([Vec(1), Vec(2)]), v(0), {Vec(1): 'one'}[Vec(1)], len({Vec(1), Vec(1)}), list(Vec(1, 2)))\n"
        "print(max([Vec(1), Vec(9), Vec(3)]), min(Vec(4), Vec(2)), list(reversed(Vec(1, 2, 3))))\n"
        "if Vec(0):\n    print('truthy')\nelse:\n    print('falsy')\n"
        "class Acc:\n    def __init__(self):\n        self.n = 0\n    def __iadd__(self, k):\n        self.n += k\n        return self\n"
        "a = Acc()\na += 5\na += 2\nprint(a.n)\n"
        "class It:\n    def __init__(self, n):\n        self.i, self.n = 0, n\n    def __iter__(self):\n        return self\n"
        "    def __next__(self):\n        if self.i >= self.n:\n            raise StopIteration\n        self.i += 1\n"
        "        return self.i\nprint(list(It(3)), next(iter(It(5))), [x * 2 for x in It(2)])"
    ),
    "context_managers": (
        "class Timer:\n    def __init__(self, name):\n        self.name = name\n    def __enter__(self):\n"
        "        print('enter', self.name)\n        return self\n    def __exit__(self, kind, value, tb):\n"
        "        print('exit', self.name, kind.__name__ if kind else None)\n        return kind is KeyError\n"
        "with Timer('a') as t, Timer('b'):\n    print('body', t.name)\n"
        "with Timer('c'):\n    raise KeyError('k')\nprint('swallowed')\n"
        "try:\n    with Timer('d'):\n        raise ValueError('v')\nexcept ValueError as e:\n    print('caught', e)\n"
        "def f():\n    for i in range(3):\n        with Timer(str(i)):\n            if i == 1:\n                return i\nprint(f())"
    ),
    "generators": (
        "def count_up(step):\n    i = 0\n    while True:\n        yield i\n        i += step\n"
        "for x in count_up(3):\n    if x > 10:\n        break\n    print(x)\n"
        "g = (i * i for i in range(5))\nprint(next(g), next(g), sum(g), list(g))\n"
        "def data_iter(batch_size, xs):\n    for i in range(0, len(xs), batch_size):\n        yield xs[i:i + batch_size]\n"
        "print(list(data_iter(2, [1, 2, 3, 4, 5])))\n"
        "def inner():\n    got = yield 1\n    print('got', got)\n    return 'done'\n"
        "def outer():\n    result = yield from inner()\n    print('inner returned', result)\n    yield from [8, 9]\n"
        "o = outer()\nprint(next(o), o.send('hi'), list(o))\n"
        "def guarded():\n    try:\n        yield 1\n        yield 2\n    finally:\n        print('cleanup')\n"
        "for v in guarded():\n    print(v)\n    break\nprint('after the loop')\n"
        "print(any(x > 3 for x in count_up(1)), all(x < 3 for x in count_up(1)))\n"
        "class Tree:\n    def __init__(self, v, kids=()):\n        self.v, self.kids = v, kids\n"
        "    def __iter__(self):\n        yield self.v\n        for k in self.kids:\n            yield from k\n"
        "print(list(Tree(1, [Tree(2, [Tree(3)]), Tree(4)])), sorted(Tree(5, [Tree(0)])))\n"
        "def bad():\n    yield 1\n    raise StopIteration\ntry:\n    list(bad())\nexcept RuntimeError as e:\n    print(e)\n"
        "def gen_with_return():\n    yield 1\n    return 5\ng = gen_with_return()\nnext(g)\ntry:\n    next(g)\n"
        "except StopIteration as e:\n    print('stopped', e.value)\n"
        "pairs = ((a, b) for a in range(3) for b in range(a) if (a + b) % 2)\nprint(list(pairs), dict((k, k * 2) for k in 'ab'))\n"
        "print(next((x for x in [4, 5, 6] if x > 4), None), max(len(w) for w in 'a bb ccc'.split()))\n"
        "print(''.join(c.upper() for c in 'abc'), tuple(x for x in range(3)), sorted(x % 3 for x in range(6)))\n"
        "def fib():\n    a, b = 0, 1\n    while True:\n        yield a\n        a, b = b, a + b\n"
        "import itertools\nprint(list(itertools.islice(fib(), 10)), list(zip(fib(), 'abc')))"
    ),
    "type_of_values": (
        "print(type(1.5), type(1), type('a'), type([]), type({}), type(()), type({1}), type(None), type(True))\n"
        "print(type(type(1)), type(range(3)), type(1.5).__name__, type([]).__name__, type(len).__name__)\n"
        "print(type(1) is int, type([]) is list, type({}) == dict, type('') == str, type(2) == float)\n"
        "print(isinstance(3, type(4)), isinstance([], type([])), type(3) in (int, float), int.__name__)\n"
        "def f():\n    pass\nclass A:\n    pass\nclass B(A):\n    pass\n"
        "print(type(A()), type(A()).__name__, type(B()) is B, type(B()) == A, isinstance(B(), type(A())), A.__name__)\n"
        "print(type(f).__name__, f.__name__, type(A), type(x for x in []).__name__, str(type(1)), repr(type('')))\n"
        "print(list, dict, str, int, float, bool, tuple, set, type)"
    ),
    "class_attributes_and_methods": (
        "class Config:\n    lr = 0.1\n    epochs = 3\n    names = ['a', 'b']\n"
        "class Net:\n    scale = 2.0\n    def __init__(self, w):\n        self.w = w\n"
        "    @staticmethod\n    def act(x):\n        return max(x, 0)\n"
        "    @classmethod\n    def default(cls):\n        return cls(Net.scale * 10)\n"
        "    def forward(self, x):\n        return Net.act(x * self.w * self.scale)\n"
        "class Small(Net):\n    scale = 0.5\n"
        "print(Config.lr, Config.epochs * 2, Config.names[1], Net.scale, Net.act(-3), Net(1).act(4))\n"
        "print(Net.default().w, Small.default().w, type(Small.default()).__name__, Small(2).forward(3), Net(2).forward(3))\n"
        "print(Net.forward(Net(1), 5), Small.scale, Net.act)\n".replace(", Net.act)", ")")
    ),
    "sets": (
        "s = {3, 1}\ns.add(2)\ns.update([5, 4], (6,))\ns.discard(9)\ns.remove(6)\nprint(sorted(s), len(s))\n"
        "t = set(range(4))\nprint(sorted(s | t), sorted(s & t), sorted(s - t), sorted(s ^ t), sorted(s.union([9])))\n"
        "print(sorted(s.intersection(t)), sorted(s.difference(t)), s.issuperset({1, 2}), {1}.issubset(s))\n"
        "print(s.isdisjoint({10}), sorted(s.symmetric_difference(t)), frozenset([1, 2]) == {1, 2})\n"
        "u = s.copy()\nu.clear()\nprint(u, s.pop() in range(10), sorted(frozenset('aba')))\n"
        "seen = set()\nfor w in 'the cat the hat'.split():\n    if w not in seen:\n        seen.add(w)\nprint(sorted(seen))"
    ),
    "future_id_hash": (
        "from __future__ import print_function, annotations, division\n"
        "a = [1]\nb = a\nc = [1]\nprint(id(a) == id(b), id(a) == id(c), id(a) != id(c), a is b)\n"
        "print(hash(3) == hash(3.0), hash((1, 2)) == hash((1, 2)), hash(7), hash(-1), hash(True))\n"
        "x = [1, 2]\nbefore = id(x)\nx += [3]\nprint(id(x) == before)\nx = x + [4]\nprint(id(x) == before)"
    ),
    "dataclasses": (
        "from dataclasses import dataclass, field, asdict, astuple\nimport dataclasses\nfrom typing import List\n"
        "@dataclass\nclass Config:\n    lr: float = 0.1\n    epochs: int = 3\n    layers: List[int] = field(default_factory=list)\n"
        "@dataclass(frozen=True, order=True)\nclass P:\n    x: int\n    y: int = 0\n"
        "c = Config(epochs=5)\nc.layers.append(4)\nprint(c, asdict(c), astuple(c), c == Config(0.1, 5, [4]), Config.lr)\n"
        "p = P(1)\nprint(p, p < P(2), P(1, 2) == P(1, 2), hash(p) == hash(P(1)), sorted([P(3), P(1, 5), P(1)]))\n"
        "try:\n    p.x = 3\nexcept dataclasses.FrozenInstanceError as e:\n    print('frozen', e)\n"
        "print([f.name for f in dataclasses.fields(c)], dataclasses.replace(p, y=9), dataclasses.is_dataclass(c))\n"
        "for bad in [(1, 2, 3, 4), ()]:\n    try:\n        P(*bad)\n    except TypeError as e:\n        print(e)\n"
        "@dataclass\nclass Q:\n    a: int\n    def __post_init__(self):\n        self.b = self.a * 2\nprint(Q(3).b, Q(3))\n"
        "try:\n    @dataclass\n    class Bad:\n        xs: list = []\nexcept ValueError as e:\n    print(e)"
    ),
    "standard_modules": (
        "import random, itertools, functools, collections, math, copy, string\nfrom pprint import pprint\n"
        "from itertools import count\nfrom collections import namedtuple, OrderedDict, defaultdict, deque, Counter\n"
        "random.seed(1)\nxs = list(range(10))\nrandom.shuffle(xs)\n"
        "print(random.random(), random.randint(1, 6), random.choice('abc'), xs, random.uniform(0, 1))\n"
        "print(random.gauss(0, 1), random.gauss(0, 1), random.sample(range(100), 4))\n"
        "for i in count(1):\n    if i > 3:\n        break\n    print('batch', i)\n"
        "P = namedtuple('P', 'x y')\nprint(P(1, 2), OrderedDict(a=1), defaultdict(list), deque([1, 2], maxlen=2))\n"
        "print(Counter('hello').most_common(2), functools.reduce(lambda a, b: a + b, [1, 2, 3]), math.pi)\n"
        "pprint({'lr': 0.1, 'layers': [64, 32], 'name': 'net'})\nprint(copy.deepcopy([[1], 2]), string.digits)"
    ),
}


@pytest.mark.parametrize("name", sorted(PYTHON))
def test_prints_what_cpython_prints(name: str) -> None:
    code = PYTHON[name]
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == cpython(code)


TORCH = {
    "dataset_and_loader": (
        "import torch\nfrom torch.utils.data import Dataset, DataLoader\ntorch.manual_seed(0)\n"
        "class XORDataset(Dataset):\n    def __init__(self, size):\n        super().__init__()\n"
        "        self.data = torch.randint(0, 2, (size, 2)).float()\n"
        "        self.label = (self.data.sum(dim=1) == 1).long()\n"
        "    def __len__(self):\n        return self.data.shape[0]\n"
        "    def __getitem__(self, idx):\n        return self.data[idx], self.label[idx]\n"
        "ds = XORDataset(size=10)\nprint('Size of dataset:', len(ds))\nprint('Data point 0:', ds[0])\n"
        "loader = DataLoader(ds, batch_size=4, shuffle=True)\nxb, yb = next(iter(loader))\nprint(xb, yb, len(loader))\n"
        "for inputs, labels in loader:\n    print(inputs.shape, labels)\n"
        "class Custom(torch.utils.data.Dataset):\n    def __init__(self):\n        self._xs = [float(i) for i in range(5)]\n"
        "    def __getitem__(self, index):\n        return torch.tensor([self._xs[index]]), index\n"
        "    def __len__(self):\n        return len(self._xs)\n"
        "for x, i in DataLoader(Custom(), batch_size=2):\n    print(x, i)"
    ),
    "type_of_torch_values": (
        "import torch\nimport torch.nn as nn\nt = torch.ones(2)\ns = t.sum()\nm = nn.Linear(2, 1)\n"
        "print(type(t), type(s.item()), type(t.tolist()), type(m), type(m.weight), type(t.shape))\n"
        "print(type(t).__name__, type(m) == nn.Linear, type(m) is nn.Linear, type(m) == nn.ReLU, type(t) is torch.Tensor)\n"
        "print(isinstance(m.weight, torch.Tensor), isinstance(m, type(nn.Linear(1, 1))), type(t.dtype), torch.__version__)\n"
        "print(type(torch.tensor(1).item()), type(torch.float32), torch.Tensor, nn.Linear, type(m).__name__)\n"
        "def init(layer):\n    if type(layer) == nn.Linear:\n        nn.init.zeros_(layer.weight)\n        print('init', type(layer).__name__)\n"
        "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\nnet.apply(init)"
    ),
    "module_with_private_helpers": (
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
        "class Net(nn.Module):\n    _width = 3\n    def __init__(self):\n        super().__init__()\n"
        "        self._fc = nn.Linear(2, Net._width)\n        self._calls = 0\n"
        "    def _act(self, x):\n        return torch.relu(x)\n"
        "    def forward(self, x):\n        self._calls += 1\n        return self._act(self._fc(x)).sum()\n"
        "    def __len__(self):\n        return self._calls\n"
        "net = Net()\nout = net(torch.ones(1, 2))\nout.backward()\nprint(out, len(net), net._calls, Net._width)\n"
        "print([n for n, _ in net.named_parameters()], net._fc.weight.grad)\nprint(net)"
    ),
    "generator_of_minibatches": (
        "import random\nimport torch\ntorch.manual_seed(0)\nrandom.seed(0)\n"
        "features = torch.arange(20.0).reshape(10, 2)\nlabels = torch.arange(10.0)\n"
        "def data_iter(batch_size, features, labels):\n    num_examples = len(features)\n"
        "    indices = list(range(num_examples))\n    random.shuffle(indices)\n"
        "    for i in range(0, num_examples, batch_size):\n"
        "        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])\n"
        "        yield features[batch_indices], labels[batch_indices]\n"
        "for X, y in data_iter(4, features, labels):\n    print(X, '\\n', y)\n    break\n"
        "w = torch.zeros(2, requires_grad=True)\n"
        "for epoch in range(2):\n    for X, y in data_iter(5, features, labels):\n"
        "        loss = ((X @ w - y) ** 2).mean()\n        loss.backward()\n"
        "        with torch.no_grad():\n            w -= 0.001 * w.grad\n            w.grad.zero_()\n    print(epoch, w)\n"
        "print(sum(p.numel() for p in torch.nn.Linear(3, 2).parameters()))"
    ),
    "names_of_functions_and_classes": "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nx = torch.tensor([-1.0, 2.0], requires_grad=True)\nfor act in [torch.relu, torch.sigmoid, torch.tanh, F.relu, F.softplus]:\n    print(act.__name__, act(x))\nprint(nn.ReLU.__name__, type(nn.ReLU()).__name__, type(x.sum().grad_fn).__name__, type(x.grad_fn))\ny = (x * 2).sum()\nprint(type(y.grad_fn), type(y.grad_fn).__name__, y.grad_fn.name())\nprint(type(torch.float32), type(x.shape), type(x.device), type(x.dtype).__name__)\nprint(type(torch.optim.SGD([x], lr=0.1)), type(nn.MSELoss()))\ndef f(a): return a\nprint(f.__name__, (lambda: 0).__name__, print.__name__, len.__name__)\n",
    "class_name_in_a_hook": (
        "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(2, 1)\n    def forward(self, x):\n        return self.fc(x)\n"
        "def printnorm(self, input, output):\n    print('Inside ' + self.__class__.__name__ + ' forward')\n"
        "    print('input: ', type(input), 'output: ', type(output), output.size())\n"
        "net = Net()\nnet.fc.register_forward_hook(printnorm)\nout = net(torch.ones(1, 2))\n"
        "print([].__class__.__name__, net.__class__.__name__, f'{net.fc.__class__.__name__}')"
    ),
    "decorated_methods": (
        "import torch\nclass Model:\n    def __init__(self):\n        self.w = torch.ones(2, requires_grad=True)\n"
        "    @torch.no_grad()\n    def predict(self, x):\n        return (self.w * x).sum()\n"
        "    @staticmethod\n    def loss(a, b):\n        return ((a - b) ** 2).mean()\n"
        "m = Model()\nprint(m.predict(torch.ones(2)), Model.predict(m, torch.ones(2)), Model.loss(m.w, torch.zeros(2)))"
    ),
    "callable_loss_and_operators": (
        "import torch\nclass MyLoss:\n    def __init__(self, scale):\n        self.scale = scale\n"
        "    def __call__(self, pred, target):\n        return self.scale * ((pred - target) ** 2).mean()\n"
        "    def __repr__(self):\n        return f'MyLoss(scale={self.scale})'\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\nloss_fn = MyLoss(0.5)\nloss = loss_fn(x, torch.zeros(2))\n"
        "loss.backward()\nprint(loss_fn, loss, x.grad)\n"
        "class Scalar:\n    def __init__(self, v):\n        self.v = v\n    def __mul__(self, t):\n        return t * self.v\n"
        "    def __rmul__(self, t):\n        return t * self.v\nprint(Scalar(3) * torch.ones(2), type(torch.ones(2) * 2))"
    ),
}


@pytest.mark.parametrize("name", sorted(TORCH))
def test_prints_what_pytorch_prints(name: str) -> None:
    code = TORCH[name]
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == torch_stdout(code)

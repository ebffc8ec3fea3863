"""The standard-module facades (engine/stdlib): what courses do with them prints what Python prints, and nothing
a facade hands out opens a door, holds more than the budget allows or outlives the run."""

from __future__ import annotations

import contextlib
import io

import pytest

import engine
from engine.sandbox.budget import Limits

PROGRAMS = [
    # random: Python's own stream for a seed
    "import random\nrandom.seed(0)\nprint(random.random(), random.randint(1, 10), random.uniform(2, 3))\n"
    "xs = list(range(10))\nrandom.shuffle(xs)\nprint(xs, random.choice(xs), random.sample(xs, 3))\n"
    "print(random.choices('abc', k=5), random.gauss(0, 1), random.randrange(0, 100, 5))",
    "import random\nr = random.Random(42)\nprint([r.randint(0, 9) for _ in range(8)], r.getrandbits(20))",
    "from random import shuffle, seed\nseed(3)\nd = list('abcdef')\nshuffle(d)\nprint(d)",
    # itertools
    "import itertools\nprint(list(itertools.islice(itertools.count(3, 2), 4)))\n"
    "print(list(itertools.product([1, 2], 'ab')), list(itertools.permutations(range(3), 2)))\n"
    "print(list(itertools.combinations(range(4), 2)), list(itertools.accumulate([1, 2, 3])))\n"
    "print(list(itertools.chain([1], (2, 3))), list(itertools.chain.from_iterable([[4], [5]])))\n"
    "print([(k, list(g)) for k, g in itertools.groupby('aabbbc')])\n"
    "print(list(itertools.zip_longest('ab', 'xyz', fillvalue='-')), list(itertools.pairwise([1, 2, 3])))\n"
    "for i, x in zip(range(5), itertools.cycle('ab')):\n    print(i, x)",
    "from itertools import repeat, starmap, takewhile\nprint(list(repeat('x', 3)), list(starmap(max, [(2, 3)])))\n"
    "print(list(takewhile(lambda v: v < 3, [1, 2, 3, 1])))",
    # functools
    "import functools\nfrom functools import reduce, partial\nprint(reduce(lambda a, b: a * b, [1, 2, 3, 4], 10))\n"
    "def power(b, e):\n    return b ** e\nsquare = partial(power, e=2)\nprint(square(7))\n"
    "@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
    "print(fib(60))\n@functools.cache\ndef sq(n):\n    return n * n\nprint(sq(12))",
    # pprint, string, typing
    "from pprint import pprint\nimport pprint as pp\npprint({'b': [1, 2], 'a': {'c': 3}, 'long': list(range(30))})\n"
    "print(pp.pformat([{'x': i} for i in range(3)], width=20))",
    "import string\nprint(string.ascii_lowercase, string.digits, len(string.punctuation))",
    "from typing import List, Dict, Optional\ndef f(xs: List[int], d: Optional[Dict[str, int]] = None) -> int:\n"
    "    return len(xs)\nprint(f([1, 2, 3]))",
]


def _python(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<case>", "exec"), {"__name__": "__main__"})  # the test's oracle: real Python
    return out.getvalue()


@pytest.mark.parametrize("code", PROGRAMS)
def test_prints_what_python_prints(code: str) -> None:
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == _python(code)


HOSTILE = [
    ("import itertools\nlist(itertools.count())", "(step limit)"),
    ("import itertools\nlist(itertools.repeat(0, 10**12))", "(step limit)"),
    ("import itertools\nsum(itertools.cycle([1]))", "(step limit)"),
    ("import itertools\nfor x in itertools.product(range(10**7), repeat=2):\n    pass", "limit"),
    ("import itertools\nitertools.tee([1], 10**9)", "copies"),
    ("import functools\nfunctools.reduce(lambda a, b: a, __import__('itertools').count())", "not"),
    ("import functools, itertools\nfunctools.reduce(lambda a, b: a, itertools.count())", "(step limit)"),
    ("import random\nrandom.getrandbits(10**9)", "over the limit"),
    ("import random\nrandom.sample(range(10**9), 10**8)", "limit"),
    ("import random\nrandom.choices([1], k=10**9)", "limit"),
    ("import random\nrandom.seed(10**100000 + 1)", "over the limit"),
    ("from pprint import pprint\npprint(list(range(10**6)))", "limit"),
]


@pytest.mark.parametrize(("code", "fragment"), HOSTILE)
def test_facades_stay_within_the_budget(code: str, fragment: str) -> None:
    result = engine.run(code, limits=Limits(max_seconds=30))
    assert result.error is not None and fragment in result.error["message"], result.error


DOORS = [
    "import random\nprint(random.seed.__self__)",
    "import random\nprint(random.Random(0)._rng)",
    "import functools\nprint(functools.partial(print).func)",
    "import functools\nprint(functools.reduce.__globals__)",
    "import typing\nprint(typing.List.__origin__)",
    "import itertools\nprint(itertools.chain._make)",
    "import random\nrandom.random = print",
    "import itertools\nitertools.count = None",
    "import random\nprint(type(random.Random(0)).__init__)",
]


@pytest.mark.parametrize("code", DOORS)
def test_nothing_a_facade_hands_out_opens_a_door(code: str) -> None:
    result = engine.run(code)
    assert result.error is not None and result.error["type"] in ("NotSupported", "AttributeError", "NameError"), (
        result.error
    )


def test_each_run_gets_its_own_modules() -> None:
    first = engine.run("import random\nrandom.seed(1)\nprint(random.random())")
    engine.run("import random\nrandom.seed(99)\nfor _ in range(5):\n    random.random()")
    again = engine.run("import random\nrandom.seed(1)\nprint(random.random())")
    assert first.stdout == again.stdout == _python("import random\nrandom.seed(1)\nprint(random.random())")


def test_random_before_any_seed_follows_the_runs_seed() -> None:
    code = "import random\nprint(random.random())"
    one, two = engine.run(code, seed=5), engine.run(code, seed=5)
    assert one.stdout == two.stdout and one.reproducible
    assert engine.run(code, seed=6).stdout != one.stdout
    assert not engine.run(code).reproducible  # a drawn seed: not kept


COLLECTIONS = [
    "from collections import OrderedDict, defaultdict, Counter, deque, namedtuple\nimport collections\n"
    "d = OrderedDict([('a', 1), ('b', 2)])\nd.move_to_end('a')\nprint(d, list(d.keys()))\n"
    "dd = defaultdict(list)\ndd['x'].append(1)\ndd['y']\nprint(dd, dict(dd), len(dd))\n"
    "di = defaultdict(int)\nfor w in 'a b a'.split():\n    di[w] += 1\nprint(di)\n"
    "c = Counter('abracadabra')\nprint(c.most_common(2), c['a'], c['z'])\nc.update('aaz')\nprint(c)\n"
    "q = deque([1, 2, 3], maxlen=3)\nq.append(4)\nq.appendleft(0)\nprint(q, q.popleft())\nq.rotate(1)\nprint(q)\n"
    "Point = namedtuple('Point', ['x', 'y'])\np = Point(1, y=2)\nprint(p, p.x, p[1])\nx, y = p\n"
    "print(x + y, isinstance(p, tuple))\nprint(collections.Counter([1, 1, 2]))\n"
    "Pair = namedtuple('Pair', 'a b', defaults=[0])\nprint(Pair(5), Pair(1, 2) == (1, 2))",
]


@pytest.mark.parametrize("code", COLLECTIONS)
def test_collections_print_what_python_prints(code: str) -> None:
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == _python(code)


COLLECTIONS_HOSTILE = [
    ("from collections import deque\nd = deque([1]) * 10**9", "over the limit"),
    ("from collections import deque\nd = deque()\nd.extend(iter(int, 1))", "limit"),
    ("from collections import Counter\nc = Counter({1: 10**12})\nlist(c.elements())", "over the limit"),
    ("from collections import namedtuple\nP = namedtuple('P', 'a b')\nP.a = 5", "cannot be assigned"),
    ("from collections import namedtuple\nP = namedtuple('P', ['__class__'])", "underscore"),
    ("from collections import namedtuple\nP = namedtuple('P', ['x%d' % i for i in range(10**4)])", "over the limit"),
    ("from collections import OrderedDict\nOrderedDict.update = print", "cannot be assigned"),
    ("import collections\ncollections.Counter = dict", "cannot be assigned"),
]


@pytest.mark.parametrize(("code", "fragment"), COLLECTIONS_HOSTILE)
def test_collections_stay_within_the_budget_and_closed(code: str, fragment: str) -> None:
    result = engine.run(code, limits=Limits(max_seconds=30))
    assert result.error is not None and fragment in result.error["message"], result.error


def test_each_run_gets_its_own_collections_classes() -> None:
    from engine.sandbox.budget import Budget
    from engine.stdlib import make_stdlib

    one, two = make_stdlib(print, Budget()), make_stdlib(print, Budget())
    assert one["collections"].Counter is not two["collections"].Counter


COPY = [
    "import torch\nimport torch.nn as nn\nimport copy\ntorch.manual_seed(0)\nclass Net(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 1)\n"
    "    def forward(self, x):\n        return self.fc(x)\nnet = Net()\nbest = copy.deepcopy(net)\n"
    "net.fc.weight.data.fill_(0.5)\nprint(best.fc.weight, net.fc.weight)\nprint(best(torch.ones(1, 2)))\n"
    "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\ny = copy.deepcopy(x)\nprint(y, y.grad, y is x)\n"
    "try:\n    copy.deepcopy(x * 2)\nexcept RuntimeError as e:\n    print(e)\n"
    "a = [[1], {'k': [2]}]\nb = copy.deepcopy(a)\nb[0].append(9)\nprint(a, b, copy.copy(a) is a, copy.copy(a) == a)\n"
    "sd = copy.deepcopy(net.state_dict())\nprint(list(sd.keys()), sd['fc.bias'])",
]


@pytest.mark.parametrize("code", COPY)
def test_copy_prints_what_pytorch_prints(code: str) -> None:
    result = engine.run(code)
    assert result.error is None, result.error
    assert result.stdout == _python(code)  # (real torch: the test's oracle)


def test_deepcopy_never_copies_the_host() -> None:
    code = (
        "import copy\nimport random\ndef f():\n    return 1\nclass A:\n    pass\na = A()\na.f = f\na.mod = random\n"
        "b = copy.deepcopy(a)\nprint(b.f is f, b.mod is random, b is a)"
    )
    result = engine.run(code)
    assert result.error is None and result.stdout == "True True False\n", result


def test_deepcopy_is_bounded_by_the_budget() -> None:
    code = "import copy\nimport torch\nxs = [torch.ones(1000, 1000)]\nys = [copy.deepcopy(xs) for _ in range(100)]"
    result = engine.run(code, limits=Limits(max_seconds=30))
    assert result.error is not None and "(memory limit)" in result.error["message"], result.error


def test_reading_the_clock_marks_the_run_not_reproducible() -> None:
    code = "import time\nstart = time.time()\nx = sum(range(1000))\nprint(x, time.time() - start >= 0)"
    result = engine.run(code, seed=1)
    assert result.error is None and result.stdout == "499500 True\n"
    assert not result.reproducible  # never kept: it read the machine
    assert engine.run("import time\nprint(1)", seed=1).reproducible  # importing alone reads nothing


def test_sleep_counts_against_the_time_limit_without_holding_the_worker() -> None:
    import time as real_time

    start = real_time.monotonic()
    result = engine.run("import time\nprint('a')\ntime.sleep(2)\nprint('b')\ntime.sleep(10)\nprint('c')")
    assert real_time.monotonic() - start < 2  # nobody waited
    assert result.stdout == "a\nb\n" and "(time limit)" in result.error["message"] and result.error["line"] == 5
    assert engine.run("import time\ntime.sleep(-1)").error["type"] == "ValueError"

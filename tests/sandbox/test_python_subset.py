"""The interpreter runs ordinary Python exactly like CPython (stdout compared)."""

from __future__ import annotations

import pytest

from tests.sandbox.helpers import cpython, sandbox

SNIPPETS = {
    "arithmetic": "print(7 // 2, 7 % 3, -7 // 2, 2 ** 10, -3 ** 2, 7 / 2, 1e-3, 10 ** -2, 5 & 3, 5 | 3, 5 ^ 3, ~5)",
    "compare_chain": "a = 3\nprint(1 < a < 5, 1 < a > 5, a == 3 != 4, a is None, a is not None, 3 in [1, 3])",
    "bool_ops": "print(0 or 'x', 1 and 2, not 0, None or [] or 'z', 0 and 1/0)",
    "strings": "s = 'Hello'\nprint(s.upper(), s.lower(), s[1:3], s[::-1], len(s), s * 2, s + '!', '-'.join(['a', 'b']))",
    "fstrings": "x = 3.14159\nn = 42\nprint(f'{x:.2f} {n:>5} {n:05d} {x!r} {\"a\"!s} {n:,} {x:10.3e}|')",
    "lists": "a = [3, 1, 2]\na.append(5)\na.sort()\nprint(a, a[-1], a[1:], sorted(a, reverse=True), a.index(3), list(reversed(a)))",
    "tuples_unpack": "a, b = 1, 2\na, b = b, a\n(c, d), e = (3, 4), 5\nf, *g, h = range(6)\nprint(a, b, c, d, e, f, g, h)",
    "dicts": "d = {'a': 1, 'b': 2}\nd['c'] = 3\nfor k, v in d.items():\n    print(k, v)\nprint(d.get('z', 0), list(d.keys()), {**d, 'a': 9})",
    "comprehensions": (
        "print([i * i for i in range(5) if i % 2 == 0], {i: i + 1 for i in range(3)}, {i % 2 for i in range(5)})\n"
        "print([(i, j) for i in range(3) for j in range(i)], sum(i for i in range(10)))"
    ),
    "loops": (
        "total = 0\nfor i in range(10):\n    if i == 7:\n        break\n    if i % 2:\n        continue\n    total += i\n"
        "else:\n    print('no break')\nprint(total)\nn = 0\nwhile n < 3:\n    n += 1\nelse:\n    print('done', n)"
    ),
    "enumerate_zip": "for i, (a, b) in enumerate(zip('abc', [1, 2, 3]), start=1):\n    print(i, a, b)",
    "functions": (
        "def f(a, b=2, *args, c=3, **kw):\n    return a + b + c + len(args) + len(kw)\n"
        "print(f(1), f(1, 5), f(1, 2, 3, 4), f(1, c=10, z=1))\n"
        "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nprint(fact(20))\n"
        "sq = lambda x: x * x\nprint(list(map(sq, [1, 2, 3])), list(filter(lambda v: v > 1, [1, 2, 3])))"
    ),
    "closures": "def outer(k):\n    def inner(x):\n        return x * k\n    return inner\nprint(outer(3)(4))",
    "builtins": (
        "print(min(3, 1, 2), max([4, 9]), abs(-2.5), round(2.567, 2), round(2.5), int('12') + 1, float('1.5'))\n"
        "print(str(12) + 'a', bool(0), isinstance(3, int), isinstance([], (list, tuple)), divmod(7, 2), sum([1, 2], 10))"
    ),
    "print_sep_end": "print('a', 'b', sep='-', end='!')\nprint()\nprint(1, 2, 3, sep='')\nprint('x', end='')",
    "slices": "a = list(range(10))\nprint(a[2:8:2], a[::-3], a[-3:])\na[1:3] = [9, 9, 9]\nprint(a)",
    "nested_data": "m = [[1, 2], [3, 4]]\nm[0][1] = 5\nprint(m, [row[1] for row in m], len(m[1]))",
    "conditional": "x = 5\nif x > 10:\n    print('big')\nelif x > 3:\n    print('mid')\nelse:\n    print('small')",
    "walrus_ifexp": "print([y for x in range(5) if (y := x * 2) > 4], 'yes' if 0 else 'no')",
    "str_format": "print('{} {:.2f} {name}|'.format(1, 2.5, name='x'), '{0}{1}{0}'.format('a', 'b'), '{:>6}|{:<4}|'.format('ab', 7), '{!r}'.format('q'))",
    "dict_subclass_methods": "d = dict(a=1)\nprint(sorted(d.items()), list(d.values()))",
    "try_except": (
        "def f(x):\n    try:\n        return 10 / x\n    except ZeroDivisionError as e:\n        print('caught', e)\n"
        "        return None\n    finally:\n        print('finally', x)\nprint(f(2), f(0))\n"
        "try:\n    [][1]\nexcept (KeyError, IndexError) as e:\n    print(type(e) is IndexError if False else 'index', e)\n"
        "else:\n    print('no')\ntry:\n    pass\nexcept Exception:\n    pass\nelse:\n    print('else ran')"
    ),
    "reraise": "try:\n    try:\n        {}['k']\n    except KeyError:\n        print('inner')\n        raise\nexcept LookupError as e:\n    print('outer', e)",
    "delete": "a = 1\nd = {'x': 1, 'y': 2}\nl = [1, 2, 3]\ndel a, d['x'], l[0]\nprint(d, l)",
    "main_guard": "def main():\n    print('main ran')\nif __name__ == '__main__':\n    main()",
    "global_nonlocal": (
        "count = 0\ndef bump():\n    global count\n    count += 1\nbump()\nbump()\nprint(count)\n"
        "def make():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 2\n        return n\n    return inc\n"
        "f = make()\nf()\nprint(f())"
    ),
    "assert_ok": "assert 1 + 1 == 2, 'math'\nprint('ok')",
    # qualified names, as Python prints a function and words its argument errors (Godoy's "Deep Learning with PyTorch
    # Step-by-Step", chapter 2, prints a function a higher-order function returned)
    "qualified_names": (
        "def builder(k):\n    def step(x):\n        return x * k\n    return step, lambda y: y\n"
        "class Net:\n    def forward(self, x):\n        def helper():\n            pass\n        return helper\n"
        "for f in (*builder(2), Net.forward, Net().forward(1), builder):\n    print(repr(f).split(' at ')[0])\n"
        "for call in (lambda: builder(2)[0](), lambda: Net().forward(), lambda: Net().forward(1, 2),\n"
        "             lambda: Net().forward(y=1), lambda: builder(2)[0](1, x=2)):\n"
        "    try:\n        call()\n    except TypeError as e:\n        print(e)"
    ),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_stdout_as_cpython(name: str) -> None:
    code = SNIPPETS[name]
    stdout, error = sandbox(code)
    assert error is None
    assert stdout == cpython(code)


@pytest.mark.parametrize(
    ("code", "etype", "message", "line"),
    [
        ("x = 1\nprint(foo)", "NameError", "name 'foo' is not defined", 2),
        ("a = 1\n\nb = 1 / 0", "ZeroDivisionError", "division by zero", 3),
        ("d = {}\nd['k']", "KeyError", "'k'", 2),
        ("[1, 2][5]", "IndexError", "list index out of range", 1),
        ("a, b = [1, 2, 3]", "ValueError", "too many values to unpack (expected 2)", 1),
        ("def f(a):\n    return a\nf()", "TypeError", "f() missing 1 required positional argument: 'a'", 3),
        ("assert 1 == 2, 'nope'", "AssertionError", "nope", 1),
        ("raise ValueError('bad value')", "ValueError", "bad value", 1),
        ("x = (\n  1 +\n  'a')", "TypeError", "unsupported operand type(s) for +: 'int' and 'str'", 2),
        ("break", "SyntaxError", "'break' outside loop", 1),
        ("print('a'\n", "SyntaxError", "'(' was never closed", 1),
    ],
)
def test_python_errors_keep_type_message_and_line(code: str, etype: str, message: str, line: int) -> None:
    _, error = sandbox(code)
    assert error == {"type": etype, "message": message, "line": line}


def test_stdout_before_an_error_is_kept() -> None:
    stdout, error = sandbox("print('before')\nx = undefined_name")
    assert stdout == "before\n"
    assert error is not None and error["line"] == 2


def test_recursion_is_bounded() -> None:
    _, error = sandbox("def f(n):\n    return f(n + 1)\nf(0)")
    assert error is not None and error["type"] == "RecursionError"
    assert error["line"] == 2


def test_deep_recursion_within_limit() -> None:
    stdout, error = sandbox("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(95))")
    assert error is None and stdout == "95\n"


def test_plain_user_class() -> None:
    code = (
        "class Counter:\n"
        "    step = 2\n"
        "    def __init__(self, start):\n"
        "        self.value = start\n"
        "    def bump(self, times=1):\n"
        "        for _ in range(times):\n"
        "            self.value += self.step\n"
        "        return self.value\n"
        "class Loud(Counter):\n"
        "    def bump(self, times=1):\n"
        "        v = super().bump(times)\n"
        "        print('bumped to', v)\n"
        "        return v\n"
        "c = Loud(10)\n"
        "c.bump(3)\n"
        "print(c.value, isinstance(c, Counter))\n"
    )
    stdout, error = sandbox(code)
    assert error is None
    assert stdout == cpython(code)


def test_object_base_is_accepted() -> None:
    code = "class P(object):\n    def __init__(self, v):\n        self.v = v\nprint(P(3).v, isinstance(P(1), object))"
    stdout, error = sandbox(code)
    assert error is None and stdout == cpython(code)


def test_user_class_dunders_are_refused() -> None:
    _, error = sandbox("class A:\n    def __getattr__(self, name):\n        return 'x'")
    assert error is not None and error["type"] == "NotSupported" and error["line"] == 2

"""The escape and resource corpus: hostile programs, each with the error it must end with.

Used by ``tests/sandbox/test_escapes.py`` (in-process, through ``engine.run``) and by
``tests/server/test_hostile_service.py`` (through the HTTP API: each within 5 s, then a normal run answers right).
Each case is ``(code, error type, a fragment of the message)``.
"""

from __future__ import annotations

NS, LE = "NotSupported", "LimitExceeded"
T = "import torch\n"

ATTRIBUTE_WALKS = [
    ("().__class__.__bases__[0].__subclasses__()", NS, "'__subclasses__' is not accessible"),
    ("x = [].__class__.__mro__", NS, "is not accessible"),
    (T + "t = torch.ones(1)\nt.__dict__", NS, "'__dict__' is not accessible"),
    (T + "f = torch.tensor\nprint(f.__globals__)", NS, "'__globals__' is not accessible"),
    (T + "g = (torch.ones(1, requires_grad=True) * 2).grad_fn\nprint(g.__class__.__mro__)", NS, "not accessible"),
    (T + "m = torch.nn.Linear(1, 1)\nf = m.forward\nprint(f.im_func)", NS, "of a method value is not accessible"),
    (T + "print(torch.nn.Module.__init__.__globals__)", NS, "not accessible"),
    (T + "print(torch.Tensor.add)", NS, "of a type value is not accessible"),
    # t.numpy() is our stand-in of numpy's array (engine/ndarray): numpy's own machinery is not on it
    (T + "x = torch.ones(2)\nprint(x.numpy().ctypes)", "AttributeError", "'ndarray' object has no attribute 'ctypes'"),
    (T + "x = torch.ones(2)\nprint(x.numpy()._a)", NS, "'_a' is not accessible"),
    (T + "m = torch.nn.Linear(1, 1)\nprint(m.state_dict().fromkeys)", NS, "'OrderedDict.fromkeys' is not available"),
    ("import math\nprint(math.sqrt.__self__)", NS, "'__self__' is not accessible"),
    ("print(print.__self__)", NS, "'__self__' is not accessible"),
    ("f = print\nf.x = 1", NS, "cannot be assigned"),
    ("print('a'.maketrans)", NS, "'str.maketrans' is not available"),
    ("print((1).to_bytes)", NS, "'int.to_bytes' is not available"),
    ("o = object\nprint(o.mro())", NS, "of a type value is not accessible"),
    (T + "print(torch.finfo(torch.float32))", "AttributeError", "module 'torch' has no attribute 'finfo'"),
    ("import math\nprint(math.comb(10**6, 5 * 10**5))", "AttributeError", "module 'math' has no attribute 'comb'"),
    (T + "class F(torch.autograd.Function):\n    pass\nprint(F._backward_cls.__mro__)", NS, "is not accessible"),
    (T + "class F(torch.autograd.Variable):\n    pass", NS, "a class can only derive from torch classes"),
    (
        T + "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\nprint(y.grad_fn.next_functions.__class__)",
        NS,
        "'__class__' is not accessible",
    ),
    (
        T + "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\nv = y.grad_fn.next_functions[0][0]\n"
        "print(v.next_functions[0][0].variable.grad_fn.name.__self__)",
        NS,
        "'__self__' is not accessible",
    ),
    (T + "m = torch.nn.Linear(1, 1)\nprint(m.modules().gi_frame)", "AttributeError", "has no attribute 'gi_frame'"),
    (
        T + "h = torch.ones(1, requires_grad=True).register_hook(print)\nprint(h.hooks_dict_ref)",
        "AttributeError",
        "'RemovableHandle' object has no attribute 'hooks_dict_ref'",
    ),
    (T + "print(torch.optim.SGD.step)", NS, "attribute 'step' of a type value is not accessible"),
    (
        "class A:\n    def f(self):\n        return super().f()\nA().f()",
        "AttributeError",
        "'super' object has no attribute 'f'",
    ),
    ("x = ()\nprint(x.𝐜𝐨𝐮𝐧𝐭.__self__)", NS, "'__self__' is not accessible"),
    ("print(()._\uff3fclass__)", NS, "attribute '__class__' is not accessible"),
    ("𝐞𝐯𝐚𝐥('1')", NS, "'eval' is not available"),
    ("ｅｘｅｃ('1')", NS, "'exec' is not available"),
]

FORMAT_STRINGS = [
    ("'{0.__class__.__bases__}'.format(())", NS, "attribute or index lookups inside format fields"),
    ("'{x.__class__}'.format(x=1)", NS, "attribute or index lookups inside format fields"),
    ("'{0[__class__]}'.format({})", NS, "attribute or index lookups inside format fields"),
    ("s = '{' + '0.__class__' + '}'\nprint(s.format(1))", NS, "attribute or index lookups inside format fields"),
    ("'{:{}}'.format(1, 10**9)", NS, "nested format fields are not available"),
    ("x = f'{1:>{10**9}}'", LE, "over the limit of 1,000,000"),
    ("format(1, '>' + str(10**8))", LE, "over the limit of 1,000,000"),
    ("'a'.format_map({})", NS, "'str.format_map' is not available"),
    ("x = '%*d' % (10**9, 1)", LE, "over the limit of 1,000,000"),
    ("x = '%(a)999999999s' % {'a': 1}", LE, "a string of 1,000,000,014 characters"),
    ("s = 'a' * 10**6\nx = '%s' * 100 % ((s,) * 100)", LE, "over the limit of 1,000,000"),
    ("s = 'a' * 600000\nx = '%(a)s%(a)s' % {'a': s}", LE, "a string of 1,200,010 characters"),
    ("s = 'a' * 10**6\nx = ('{0}' * 1000).format(s)", LE, "a string of 2,000,000 characters"),
    ("x = '{:>999999}{:>999999}'.format('a', 'b')", LE, "a string of 1,999,998 characters"),
    ("x = '{}'.format()", "IndexError", "Replacement index 0 out of range"),
    ("x = '{0.real}'.format(1)", NS, "attribute or index lookups inside format fields"),
    ("x = '%s' % [[['a' * 10**5] * 1000] * 1000]", LE, "over the limit of 1,000,000"),
]

GENERATORS_AND_FRAMES = [
    ("def f():\n    yield 1\nprint(f().gi_frame)", "AttributeError", "'generator' object has no attribute 'gi_frame'"),
    ("def f():\n    yield from [1]\ng = f()\nnext(g)\nprint(g.gi_yieldfrom)", "AttributeError", "has no attribute"),
    ("def f():\n    yield 1\nprint(f().__next__.__self__)", NS, "'__next__' is not accessible"),
    ("def f():\n    print((yield 1))", NS, "'yield' inside an expression is not supported here"),
    ("async def f():\n    pass", NS, "async code is not supported here"),
    ("g = (i for i in range(3))\nprint(g.gi_frame)", "AttributeError", "has no attribute 'gi_frame'"),
    ("m = map(abs, [1])\nprint(m.gi_frame)", NS, "is not accessible"),
    ("i = iter([1])\nprint(i.gi_code)", NS, "is not accessible"),
    ("f = lambda: 1\nprint(f.__code__)", NS, "'__code__' is not accessible"),
    ("f = lambda: 1\nprint(f.__closure__)", NS, "'__closure__' is not accessible"),
]

COMPUTED_NAMES = [
    ("getattr((), '__cla' + 'ss__')", NS, "'getattr' is not available"),
    ("setattr(print, 'x', 1)", NS, "'setattr' is not available"),
    ("name = '__class__'\nprint(vars()[name])", NS, "'vars' is not available"),
    ("print(globals())", NS, "'globals' is not available"),
    ("print(dir())", NS, "'dir' is not available"),
    ("__import__('os')", NS, "names starting with '_' are not allowed"),
    ("__builtins__", NS, "names starting with '_' are not allowed"),
    ("import os\nos.system('id')", NS, "module 'os' is not available"),
    ("import sys", NS, "module 'sys' is not available"),
    ("import builtins", NS, "module 'builtins' is not available"),
    ("from torch import _C", NS, "names starting with '_' are not allowed"),
    ("import torch.multiprocessing", NS, "module 'torch.multiprocessing' is not available"),
    ("eval('1')", NS, "'eval' is not available"),
    ("exec('x = 1')", NS, "'exec' is not available"),
    ("compile('1', 'f', 'eval')", NS, "'compile' is not available"),
    ("open('/etc/passwd').read()", NS, "'open' is not available"),
    ("breakpoint()", NS, "'breakpoint' is not available"),
    ("def f(**kw):\n    return kw\nf(**{'__x': 1})", NS, "keyword argument '__x' is not allowed"),
]

TYPE_CALLS = [
    ("type(1).__mro__", NS, "'__mro__' is not accessible"),
    ("print(type(None).mro())", NS, "of a type value is not accessible"),
    (T + "t = type(torch.ones(1).sum().grad_fn)\nprint(t())", NS, "cannot be called here"),
    (T + "class A(type(torch.float32)):\n    pass", NS, "a class can only derive from torch classes"),
    ("class A(type(None)):\n    pass", NS, "a class can only derive from torch classes"),
    ("type('X', (), {})", NS, "'type' is not available"),
    ("print(object.__subclasses__())", NS, "'__subclasses__' is not accessible"),
    ("print(object().__reduce__())", NS, "'__reduce__' is not accessible"),
    ("class A(type):\n    pass", NS, "'type' is not available"),
    ("class A(int):\n    pass", NS, "a class can only derive from torch classes"),
    ("class A(metaclass=print):\n    pass", NS, "class keywords and decorators are not supported here"),
]

DECORATORS = [
    (
        "class A:\n    @staticmethod\n    def f():\n        pass\nprint(A.f.__globals__)",
        NS,
        "'__globals__' is not accessible",
    ),
    (
        "class A:\n    @classmethod\n    def f(cls):\n        pass\nprint(A.f.__func__)",
        NS,
        "'__func__' is not accessible",
    ),
    ("def deco(fn):\n    return fn.__globals__\n@deco\ndef f():\n    pass", NS, "'__globals__' is not accessible"),
    (
        "def deco(fn):\n    return fn\n@deco\ndef f():\n    pass\nprint(f.name)",
        NS,
        "of a UserFunction value is not accessible",
    ),
    ("class A:\n    @property\n    def f(self):\n        return 1", NS, "'property' is not available"),
]

DEFAULT_ARGUMENTS = [
    ("def f(x=print):\n    return x\nprint(f().__self__)", NS, "'__self__' is not accessible"),
    ("def f(a=[]):\n    return a\nprint(f.__defaults__)", NS, "'__defaults__' is not accessible"),
    ("def f(*, k=print):\n    return k\nprint(f.__kwdefaults__)", NS, "'__kwdefaults__' is not accessible"),
    ("f = lambda x=lambda: 0: x\nprint(f().__code__)", NS, "'__code__' is not accessible"),
]

CLASS_BODIES = [
    ("class A:\n    __slots__ = ()", NS, "names starting with '_' are not allowed"),
    ("class A:\n    def __getattr__(self, n):\n        return 1", NS, "names starting with '_' are not allowed"),
    ("class A:\n    def __reduce__(self):\n        return 1", NS, "names starting with '_' are not allowed"),
    ("class A:\n    import os", NS, "a class body may hold only methods and attributes"),
    ("class A:\n    pass\nprint(A.__dict__)", NS, "'__dict__' is not accessible"),
    ("class A:\n    x = 1\nA.x = 2", NS, "of a type value cannot be assigned"),
    ("import torch\nclass A(torch.dtype):\n    pass", NS, "a class can only derive from torch classes"),
    ("class A:\n    pass\nprint(super(A, 1))", "TypeError", "obj must be an instance or subtype of type"),
]

TRACEBACKS = [
    ("try:\n    1/0\nexcept Exception as e:\n    print(e.__traceback__)", NS, "'__traceback__' is not accessible"),
    ("try:\n    1/0\nexcept Exception as e:\n    print(e.args)", NS, "of a ZeroDivisionError value is not accessible"),
    ("try:\n    1/0\nexcept Exception as e:\n    f = e\nprint(f.__context__)", NS, "'__context__' is not accessible"),
    (
        T + "try:\n    torch.ones(2).backward()\nexcept RuntimeError as e:\n    e.with_traceback(None)",
        NS,
        "of a RuntimeError value is not accessible",
    ),
    ("raise SystemExit", NS, "'SystemExit' is not available"),
    ("raise KeyboardInterrupt", NS, "'KeyboardInterrupt' is not available"),
    ("raise BaseException", NS, "'BaseException' is not available"),
]

MONKEYPATCHING = [
    (T + "torch.tensor = print", NS, "attribute 'tensor' of a module cannot be assigned"),
    (T + "torch.nn.Linear = None", NS, "attribute 'Linear' of a module cannot be assigned"),
    (T + "torch.Tensor.add = None", NS, "of a type value cannot be assigned"),
    (T + "torch.Tensor.__add__ = None", NS, "'__add__' is not accessible"),
    (T + "torch.nn.Module.forward = print", NS, "of a type value cannot be assigned"),
    (T + "torch.nn.functional.relu = print", NS, "attribute 'relu' of a module cannot be assigned"),
    (T + "x = torch.ones(1)\nx.add = print", NS, "of a tensor cannot be assigned"),
    (T + "torch.float32.itemsize = 8", NS, "of a dtype value cannot be assigned"),
    (T + "del torch.tensor", NS, "only names and list/dict items can be deleted"),
    ("import math\nmath.pi = 3", NS, "attribute 'pi' of a module cannot be assigned"),
]

RESOURCES = [
    ("while True:\n    pass", LE, "(step limit)"),
    ("try:\n    while True:\n        pass\nexcept BaseException:\n    print('caught')", LE, "(step limit)"),
    ("try:\n    while True:\n        pass\nfinally:\n    while True:\n        pass", LE, "(step limit)"),
    (
        "def f():\n    try:\n        while True:\n            pass\n    finally:\n        return 1\nprint(f())",
        LE,
        "(step limit)",
    ),
    ("def k(v):\n    while True:\n        pass\nsorted([3, 1, 2], key=k)", LE, "(step limit)"),
    ("x = 2 ** 10 ** 10", LE, "bits is over the limit of 100,000"),
    ("x = 1 << 10 ** 9", LE, "bits is over the limit of 100,000"),
    ("x = round(5, -10 ** 9)", LE, "bits is over the limit of 100,000"),
    ("x = 'a' * 10 ** 10", LE, "a string of 10,000,000,000 characters"),
    ("x = b'a' * 10 ** 9", LE, "over the limit of 1,000,000"),
    ("x = [0] * 10 ** 10", LE, "a sequence of 10,000,000,000 items"),
    ("x = sum(range(10 ** 12))", LE, "over the limit of 1,000,000"),
    ("x = 'a'.ljust(10 ** 9)", LE, "over the limit of 1,000,000"),
    ("for i in range(100000):\n    print('x' * 100)", LE, "(output limit)"),
    ("keep = [[0] * 10**6 for _ in range(1000)]", LE, "(memory limit)"),
    ("s = 'a' * 10**5\nrows = [[s] * 1000] * 1000\nraise ValueError(rows)", "ValueError", "[['aaaa"),
    ("s = 'a' * 10**5\nrows = [[s] * 1000] * 1000\nassert False, rows", "AssertionError", "[['aaaa"),
    (
        "s = 'a' * 10**5\nrows = [[s] * 1000] * 1000\ntry:\n    raise ValueError(rows)\nexcept ValueError as e:\n"
        "    print(e)",
        LE,
        "over the limit of 1,000,000",
    ),
    ("x = [1] * 10**6\nprint(*x, sep='a' * 10**5)", LE, "over the limit of 1,000,000"),
    ("def f():\n    return f()\nf()", "RecursionError", "maximum recursion depth exceeded"),
    # retrying on RecursionError explores 2**200 calls; the chain of caught exceptions must not pile up meanwhile
    ("def f():\n    try:\n        f()\n    except RecursionError:\n        f()\nf()", LE, "(step limit)"),
    ("def f():\n    try:\n        return f()\n    finally:\n        return f()\nf()", LE, "(step limit)"),
    ("def f():\n    try:\n        return f()\n    except Exception:\n        return f()\nf()", LE, "(step limit)"),
    ("def f(x):\n    return sorted([x, x], key=f)\nf(1)", "RecursionError", "(limit: 200 nested calls)"),
    ("def f(x):\n    return '{}'.format(f(x))\nf(1)", "RecursionError", "(limit: 200 nested calls)"),
    (
        T
        + "x = torch.ones(1, requires_grad=True)\ndef h(g):\n    (x * 2).backward()\n    return g\nx.register_hook(h)\n"
        "(x * 2).backward()",
        "RecursionError",
        "(limit: 200 nested calls)",
    ),
    (
        T + "m = torch.nn.Linear(1, 1)\nm.register_forward_hook(lambda mod, i, o: mod(i[0]))\nm(torch.ones(1))",
        "RecursionError",
        "(limit: 200 nested calls)",
    ),
    (
        T + "ps = [torch.zeros(1, requires_grad=True) for _ in range(50000)]\nopt = torch.optim.SGD(ps, lr=0.1)\n"
        "while True:\n    opt.zero_grad()",
        LE,
        "(step limit)",
    ),  # 50,000 parameters reset for one step: time limit
    # a module tree 5,000 deep: each assignment walked it all (4.5 s, time limit); its text grows quadratically
    (T + "m = torch.nn.Linear(1, 1)\nfor i in range(5000):\n    m = torch.nn.Sequential(m)", LE, "(step limit)"),
    (
        T + "m = torch.nn.Linear(1, 1)\nfor i in range(900):\n    m = torch.nn.Sequential(m)\nprint(len(str(m)))",
        LE,
        "(memory limit)",
    ),
    (
        T + "opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)\ndef c():\n    return opt.step(c)\n"
        "opt.step(c)",
        "RecursionError",
        "(limit: 200 nested calls)",
    ),
    ("print('a', foo=1)", "TypeError", "print() got an unexpected keyword argument 'foo'"),
    ("print('x', end='x' * 10**7)", LE, "a string of 10,000,000 characters"),
    ("print(*['a'] * 1000, sep='x' * 1000)", LE, "over the limit of 1,000,000"),
    ("s = 'é' * 40000\nprint(s)", LE, "(output limit)"),
    ("print(chr(0xd800) * 100000)", LE, "(output limit)"),
    ("x = b'%999999999s' % b'a'", LE, "over the limit of 1,000,000"),
    ("x = " + "-" * 10000 + "1", LE, "nested too deeply"),
    ("x = " + "1 + " * 500 + "1", LE, "(depth limit)"),
    (T + "x = torch.zeros(10**6, 10**6)", LE, "elements per tensor"),
    (T + "try:\n    x = torch.zeros(10**6, 10**6)\nexcept Exception:\n    print('caught')", LE, "elements per tensor"),
    (T + "x = torch.ones(10**6)\ny = x.view(1, -1) + x.view(-1, 1)", LE, "elements per tensor"),
    (T + "x = torch.ones(10**6, 1)\ny = x @ x.T", LE, "elements per tensor"),
    (T + "x = torch.stack([torch.ones(10**6)] * 1000)", LE, "elements per tensor"),
    (
        T + "a = torch.ones(10**6, 1)\nb = torch.ones(10**6)\nloss = torch.nn.functional.mse_loss(a, b)",
        LE,
        "elements per tensor",
    ),
    (T + "x = torch.cat([torch.ones(10**5)] * 100)", LE, "elements per tensor"),
    (T + "x = torch.arange(10**9)", LE, "elements per tensor"),
    (T + "x = torch.ones(1, 1000, 1000).expand(1000, 1000, 1000)", LE, "elements per tensor"),
    (T + "x = torch.ones(1000).repeat(1000, 1000)", LE, "elements per tensor"),
    (T + "x = torch.ones(1000, 1000)\ny = x[torch.zeros(10**6, dtype=torch.long)]", LE, "elements per tensor"),
    (T + "x = torch.ones(10**6)\nkeep = []\nfor i in range(60):\n    keep.append(x * 2)", LE, "(memory limit)"),
    # shapes whose element count wraps around in int64 (2**32 * 2**32 == 0 for np.prod)
    (T + "x = torch.ones(2).repeat(2**32, 2**32)", LE, "a tensor of 36893488147419103232 elements"),
    (T + "x = torch.ones(1, 1).expand(2**32, 2**32)\nprint(x.sum())", LE, "a tensor of 18446744073709551616 elements"),
    (T + "x = torch.Tensor(2**32, 2**32)", LE, "a tensor of 18446744073709551616 elements"),
    (T + "x = torch.ones(1, 1, 1).expand(2**21, 2**21, 2**22)", LE, "elements per tensor"),
    # empty tensors keep their other sizes: the next op would fill them
    (T + "x = torch.zeros(0, 10**18)\ny = x.sum(0)", LE, "a tensor of 1000000000000000000 elements"),
    (T + "x = torch.zeros(10**18, 0)\ny = x.t() @ x", LE, "elements per tensor"),
    (T + "x = torch.zeros(2, 0)\ny = x.repeat(10**9, 10**9)", LE, "elements per tensor"),
    (T + "x = torch.zeros(0)\ny = x.expand(10**18, 10**18, 0)\nprint(y.sum(0).shape)", LE, "elements per tensor"),
    (T + "x = torch.arange(0, 1, 1e-9)", LE, "a tensor of 1000000000 elements"),
    # printing with raised print options: refused before the text is built, not after seconds or gigabytes
    (
        T + "torch.set_printoptions(precision=10**9)\nprint(torch.tensor([0.5]))",
        LE,
        "a string of 1,000,000,003 characters",
    ),
    (
        T + "torch.set_printoptions(threshold=10**9)\nx = torch.rand(10**6)\nfor i in range(100):\n    s = str(x)",
        LE,
        "a string of 7,000,000 characters",
    ),
    (
        T + "torch.set_printoptions(edgeitems=10**9)\nx = torch.rand(1000, 1000)\nprint(x)",
        LE,
        "a string of 7,000,000 characters",
    ),
    (T + "x = torch.rand([2] * 19)\nprint(x)", LE, "a string of 3,670,016 characters"),  # 2 s of picking rows first
    # a tensor inside a printed list is printed in full each time: [x] * 1000 made 13 M characters in 2.4 s
    (T + "x = torch.rand(1000)\ns = str([x] * 1000)", LE, "a string of 1,002,718 characters"),
    (T + "x = torch.rand(1000)\nprint(*[x] * 1000)", LE, "over the limit of 1,000,000"),
    (T + "x = torch.rand(1000)\nwhile True:\n    s = str(x)", LE, "(step limit)"),  # was the 4.5 s time limit
    (T + "x = torch.linspace(0, 1, 10**9)", LE, "a tensor of 1000000000 elements"),
    (T + "x = torch.eye(10**3, 10**9)", LE, "elements per tensor"),
    (T + "x = torch.multinomial(torch.ones(10), 10**7, replacement=True)", LE, "elements per tensor"),
    (T + "x = torch.ones(10**6)\nz = torch.outer(x, x)", LE, "elements per tensor"),
    # numpy has no BLAS for float16 and ints: one 1000 x 1000 product was 5 s (float16) or 1.4 s (int64) of C
    (
        T + "a = torch.ones(1000, 1000, dtype=torch.float16)\nb = a @ a\nraise ValueError(b[0, 0].item())",
        "ValueError",
        "1000.0",
    ),
    (
        T + "a = torch.ones(1000, 1000, dtype=torch.long)\nfor i in range(3):\n    b = torch.mm(a, a)\n"
        "raise ValueError(b[0, 0].item())",
        "ValueError",
        "1000",
    ),
    (
        T + "a = torch.ones(1, 1000, 1000, dtype=torch.float16, requires_grad=True)\ntorch.bmm(a, a).sum().backward()\n"
        "raise ValueError(a.grad[0, 0, 0].item())",
        "ValueError",
        "2000.0",
    ),
    # one call making a tensor per element: each costs steps, so these end at the step limit (not ~5 s and 400 MB)
    (T + "x = torch.ones(10**6)\nprint(len(list(x)))", LE, "(step limit)"),
    (T + "x = torch.ones(10**6)\nprint(len(x.unbind()))", LE, "(step limit)"),
    (T + "x = torch.ones(10**6)\nprint(len(x.split(1)))", LE, "(step limit)"),
    (T + "x = torch.ones(10**6)\ny = sum(x)", LE, "(step limit)"),
    (T + "x = torch.ones(10**6)\nprint(0.5 in x)", LE, "(step limit)"),
    (
        T + "x = torch.ones(1, requires_grad=True)\ny = x\nfor i in range(200000):\n    y = y * 1.0001\ny.backward()",
        LE,
        "(step limit)",
    ),  # each tensor made costs steps: the step limit comes before 100,000 graph nodes
    (
        T + "x = torch.ones(1, requires_grad=True)\ny = x\nfor i in range(20000):\n    y = y * 1.0001\n"
        "for i in range(1000):\n    y.backward(retain_graph=True)",
        LE,
        "(step limit)",
    ),  # each node run costs steps
    ("x = float('inf')\nprint(int(x))", "OverflowError", "cannot convert float infinity to integer"),
    (T + "print(torch.tensor([2**64]))", "OverflowError", "Python int too large to convert"),
    (
        T + "x = torch.ones(1)\nfor i in range(100):\n    x = x.unsqueeze(0)",
        "ValueError",
        "maximum supported dimension",
    ),
    ("x = 10**10**10 % 7", LE, "bits is over the limit of 100,000"),
    ("x = 2**99999\ny = 2**49999 + 1\nwhile True:\n    z = x // y", LE, "(step limit)"),
    ("x = 2**99999 - 1\ny = 3**31000 + 7\nwhile True:\n    z = x % y", LE, "(step limit)"),
    ("x = str(10**100000)", LE, "bits is over the limit of 100,000"),
    ("x = 10**30000\nwhile True:\n    y = x // 3", LE, "(step limit)"),  # linear in C: was the time limit
    ("x = int('9' * 4000)\nwhile True:\n    y = f'{x}'", LE, "(step limit)"),  # quadratic in C: was the time limit
    ("x = int('9' * 4000)\nwhile True:\n    y = '{}'.format(x)", LE, "(step limit)"),
    ("x = int('9' * 4000)\ny = str([x] * 300)", LE, "a string of 1,001,743 characters"),  # 4 characters an int
    ("x = int('9' * 10**6)", "ValueError", "Exceeds the limit (4300 digits)"),
    ("import math\nx = math.factorial(10**6)", LE, "over the limit of 1000"),
    # a recurrent layer's time steps run in one engine call: each costs steps, and the clock is read between them
    (T + "m = torch.nn.LSTM(2, 2)\ny, _ = m(torch.ones(10**6, 1, 2))", LE, "(step limit)"),
    (T + "m = torch.nn.GRU(2, 2)\ny, _ = m(torch.ones(10**6, 1, 2))", LE, "elements per tensor"),
    (T + "m = torch.nn.RNN(2, 2)\ny, _ = m(torch.ones(200000, 1, 2))", LE, "(step limit)"),
    ("it = iter(lambda: 0, 1)\nx = sorted(it)", LE, "(step limit)"),
    ("x = [y for y in iter(lambda: 0, 1)]", LE, "(step limit)"),
    ("print(*range(10**6))", LE, "over the limit of 1,000,000"),
    ("x = enumerate(range(10**9))", LE, "a sequence of 1,000,000,000 items"),
    ("x = [1]\nfor i in range(40):\n    x[0:0] = x", LE, "a sequence of 1,048,576 items"),
    ("x = [1]\nfor i in range(40):\n    x[len(x):] = x", LE, "a sequence of 1,048,576 items"),
    ("x = [1, 2, 3]\nx[1:2] = range(10**9)", LE, "a sequence of 1,000,000,000 items"),
    ("x = [0] * 10**6\nkeep = []\nfor i in range(100):\n    keep.append(x[:])", LE, "(memory limit)"),
    ("x = 'a' * 10**6\nkeep = []\nfor i in range(100):\n    keep.append(x[1:])", LE, "(memory limit)"),
    ("x = list(range(10**6))\ny = [*x, *x]", LE, "a sequence of 2,000,000 items"),
    ("x = list(range(10**6))\ny = {*x, *x}", LE, "a sequence of 2,000,000 items"),
    ("a, *b = range(10**9)", LE, "a sequence of 1,000,000,000 items"),
    ("x = 'ab' * 500000\ny = x.replace('', 'aa')", LE, "a string of 3,000,004 characters"),
    ("x = 'a' * 999999\ny = x.zfill(10**9)", LE, "a string of 1,000,000,000 characters"),
    ("x = list(map(lambda x: x, range(10**6)))", LE, "(step limit)"),
    # sum() of lists or tuples copied the growing result at each piece: 17 s of C code (now linear, then refused)
    ("x = sum([[0] * 100] * 10**4, [])\ny = sum([x] * 2, [])", LE, "a sequence of 2,000,000 items"),
    ("x = sum([(0,) * 100] * 10**4, ())\ny = sum([x] * 2, ())", LE, "a sequence of 2,000,000 items"),
    # memory kept by numpy buffers that outlive the tensor counted for them (each was ~350 MB, MemoryError)
    (T + "keep = []\nfor i in range(100):\n    keep.append(torch.ones(10**6)[:1])", LE, "(memory limit)"),
    (
        T
        + "keep = []\nfor i in range(100):\n    t = torch.ones(1)\n    t.data = torch.ones(10**6)\n    keep.append(t)",
        LE,
        "(memory limit)",
    ),
    (
        T + "x = torch.ones(10**6, requires_grad=True)\ny = x\nfor i in range(200):\n    y = y.relu()",
        LE,
        "(memory limit)",
    ),  # each node keeps its result, the tensor itself is gone
    (
        T + "x = torch.ones(1000, 1000, requires_grad=True)\ny = x\nfor i in range(200):\n    y = y.softmax(1)",
        LE,
        "(memory limit)",
    ),
    (T + "keep = [torch.arange(10**6) for _ in range(49)]", LE, "(memory limit)"),  # int64: 8 bytes an element
    (
        T + "ps = [torch.zeros(10**6, requires_grad=True) for _ in range(24)]\nopt = torch.optim.Adam(ps)\n"
        "sum((p * 1.0).sum() for p in ps).backward()\nopt.step()",
        LE,
        "(memory limit)",
    ),  # grads and Adam's state
    # values just under the size the built budget counts from: ~800 MB in 0.4 s (the resident-memory backstop)
    ("x = [[0] * 9999 for i in range(10**5)]", LE, "(memory limit)"),
    ("x = ['a' * 9999 for i in range(10**5)]", LE, "(memory limit)"),
    # containers built in C hold more than their slots: fresh ints, floats, strings, hash tables (each ~350 MB)
    ("keep = [list(range(10**6)) for _ in range(19)]", LE, "(memory limit)"),
    ("keep = [set(range(10**6)) for _ in range(19)]", LE, "(memory limit)"),
    ("x = [0] * 10**6\nkeep = []\nfor i in range(100):\n    keep.append(tuple(x))", LE, "(memory limit)"),
    (
        T + "x = torch.rand(1000, 1000)\nkeep = []\nfor i in range(30):\n    keep.append(x.tolist())",
        LE,
        "(memory limit)",
    ),
    ("s = 'ab ' * 333333\nkeep = []\nfor i in range(60):\n    keep.append(s.split())", LE, "(memory limit)"),
    ("s = '\\U0001F600' * 10**6\nkeep = []\nfor i in range(30):\n    keep.append(list(s))", LE, "(memory limit)"),
    (
        "d = dict(zip(range(300000), range(300000)))\nkeep = []\nfor i in range(100):\n    keep.append(d.copy())",
        LE,
        "(memory limit)",
    ),
    ("s = set(range(10**6))\nkeep = []\nfor i in range(30):\n    keep.append(s | s)", LE, "(memory limit)"),
    ("x = list(range(10**6))\nkeep = []\nfor i in range(100):\n    keep.append({*x})", LE, "(memory limit)"),
]

# Sharing makes small values huge: C code (==, hash, str, numpy's conversion) would walk every occurrence.
A3 = "a = [1] * 1000\nb = [a] * 1000\nc = [b] * 1000\n"
T3 = "t = (0,) * 1000\nu = (t,) * 1000\nv = (u,) * 1000\n"
TWOS = "a = []\nb = []\nfor i in range(60):\n    a = [a, a]\n    b = [b, b]\n"
NESTED_VALUES = [
    (TWOS + "print(a == b)", LE, "items (nested lists, tuples and dicts, unfolded) is over the limit"),
    ("a = ()\nfor i in range(60):\n    a = (a, a)\nd = {a: 1}", LE, "unfolded) is over the limit"),
    (T3 + "s = {v}", LE, "unfolded) is over the limit"),
    (T3 + "d = {}\nd[v] = 1", LE, "unfolded) is over the limit"),
    (T3 + "d = {}\nprint(d.get(v))", LE, "unfolded) is over the limit"),
    (T3 + "print(v in {1: 2})", LE, "unfolded) is over the limit"),
    (T3 + "print(set([v]))", LE, "unfolded) is over the limit"),
    (T3 + "d = {1: 2}\ndel d[v]", LE, "unfolded) is over the limit"),
    (A3 + "print(c in [c[:]])", LE, "unfolded) is over the limit"),
    (A3 + "print([c[:]].index(c))", LE, "unfolded) is over the limit"),
    (A3 + "print(max(c, c[:]))", LE, "unfolded) is over the limit"),
    ("t = (int,) * 1000\nu = (t,) * 1000\nv = (u,) * 1000\nprint(isinstance(1.0, v))", LE, "unfolded) is over"),
    (T + A3 + "x = torch.tensor(c)", LE, "unfolded) is over the limit"),
    (T + "a = [0.0] * 100\nfor i in range(40):\n    a = [a, a]\nx = torch.tensor(a)", LE, "unfolded) is over"),
    (T + A3 + "torch.nn.functional.mse_loss(torch.ones(2), torch.ones(2), reduction=c)", LE, "unfolded) is over"),
    (T + A3 + "torch.nn.init.calculate_gain(c)", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.zeros(-1, c)", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.ones(2)[c]", LE, "unfolded) is over the limit"),
    (T + A3 + "x = torch.ones(2)\nx[0] = c", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.ones(2).repeat(c)", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.nn.functional.one_hot(torch.tensor([1]), c)", LE, "unfolded) is over the limit"),
    (T + A3 + "print(torch.nn.GELU(approximate=c))", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.cat(c)", LE, "unfolded) is over the limit"),
    (T + A3 + "torch.ones(2, requires_grad=True).sum().backward(c)", LE, "unfolded) is over the limit"),
    (
        T + A3 + "opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1)\nopt.param_groups[0]['x'] = c\n"
        "print(opt)\nraise ValueError('printed')",
        "ValueError",
        "printed",
    ),
    (
        T + "s = 'a' * 10**5\nsd = torch.nn.Linear(1, 1).state_dict()\nsd['x'] = [[s] * 1000] * 1000\nprint(sd)",
        LE,
        "over the limit of 1,000,000",
    ),
    ("a = []\nfor i in range(10000):\n    a = [a]\nprint(a)", "RecursionError", "maximum recursion depth exceeded"),
    (T + "a = []\nfor i in range(5900):\n    a = [a]\nx = torch.tensor(a)", "ValueError", "too many dimensions 'list'"),
    (T + "a = []\nfor i in range(5900):\n    a = [a]\nx = torch.Tensor(a)", "ValueError", "too many dimensions 'list'"),
    ("a = []\na.append(a)\nb = []\nb.append(b)\nprint(a == b)", "RecursionError", "in comparison"),
    # a million references to one big int or string: C hashes, adds or compares it whole each time (a big one
    # counts an item per 4 KB); `x in y` in a loop ran 49 s, the clock being read every 256 steps
    ("x = 2**99999\ny = [x + 1] * 10**6\nwhile True:\n    z = x in y", LE, "unfolded) is over the limit"),
    ("x = 2**99999\ns = set([x] * 10**6)", LE, "unfolded) is over the limit"),  # 5.8 s
    ("x = 2**99999\ny = sum([x] * 10**6)", LE, "unfolded) is over the limit"),  # 3 s
    ("x = 'a' * 10**5\ny = [x[:-1] + 'b'] * 10**6\nprint(x in y)", LE, "unfolded) is over the limit"),  # 1.9 s
]

ESCAPES = (
    ATTRIBUTE_WALKS
    + FORMAT_STRINGS
    + GENERATORS_AND_FRAMES
    + COMPUTED_NAMES
    + TYPE_CALLS
    + DECORATORS
    + DEFAULT_ARGUMENTS
    + CLASS_BODIES
    + TRACEBACKS
    + MONKEYPATCHING
)
CORPUS = ESCAPES + RESOURCES + NESTED_VALUES

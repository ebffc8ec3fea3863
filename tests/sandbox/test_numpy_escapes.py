"""numpy in user code cannot reach real numpy or pass the run's budgets: each attempt ends with a clear error
naming its line (engine/ndarray, engine/stdlib/numpy_*.py, engine/ops/numpy_bridge.py)."""

from __future__ import annotations

import time

import pytest

import engine

NS, AE, TE, LE = "NotSupported", "AttributeError", "TypeError", "LimitExceeded"
PER_ARRAY = "over the limit of 4,194,304 elements per tensor"

# (code after `import numpy as np` on line 1, error type, fragment of the message, line of the error)
CASES = [
    # numpy's own machinery: not in the module, not on the array, not behind an underscore
    ("np.load('x.npy')", AE, "module 'numpy' has no attribute 'load'", 2),
    ("np.lib.format", AE, "module 'numpy' has no attribute 'lib'", 2),
    ("np.frombuffer(b'abcd')", AE, "has no attribute 'frombuffer'", 2),
    ("np.fromfile('/etc/passwd')", AE, "has no attribute 'fromfile'", 2),
    ("np.set_printoptions(formatter={'float': print})", TE, "unexpected keyword argument 'formatter'", 2),
    ("np.set_printoptions(precision=10**9)", "ValueError", "must be a non-negative integer", 2),
    ("np.set_printoptions(legacy='1.13')", TE, "unexpected keyword argument 'legacy'", 2),
    ("np.ctypeslib", AE, "has no attribute 'ctypeslib'", 2),
    ("np.vectorize(print)", AE, "has no attribute 'vectorize'", 2),
    ("a = np.ones(3)\na.ctypes", AE, "'ndarray' object has no attribute 'ctypes'", 3),
    ("a = np.ones(3)\nprint(a.base)", AE, "has no attribute 'base'", 3),
    ("a = np.ones(3)\na.tofile('x')", AE, "has no attribute 'tofile'", 3),
    ("a = np.ones(3)\na.data", AE, "has no attribute 'data'", 3),
    ("a = np.ones(3)\na.view(np.int64)", AE, "has no attribute 'view'", 3),
    ("a = np.ones(3)\na.__array_interface__", NS, "'__array_interface__' is not accessible", 3),
    ("a = np.ones(3)\na.__array__()", NS, "'__array__' is not accessible", 3),
    ("a = np.ones(3)\nx = a._a", NS, "'_a' is not accessible", 3),
    ("a = np.ones(3)\na.__class__.__mro__", NS, "'__class__' is not accessible", 3),
    ("s = np.float32(1)\ns._v", NS, "'_v' is not accessible", 3),
    ("s = np.ones(3).sum()\ns.__reduce__()", NS, "'__reduce__' is not accessible", 3),
    ("np.float32._t", NS, "'_t' is not accessible", 2),
    ("np.ones(2).dtype._d", NS, "'_d' is not accessible", 2),
    ("r = np.random.RandomState(1)\nr._gen()", NS, "'_gen' is not accessible", 3),
    ("np.random.seed.__self__", NS, "'__self__' is not accessible", 2),
    ("np.sin.__globals__", NS, "'__globals__' is not accessible", 2),
    ("import torch\nt = torch.ones(2)\nt.numpy()._a", NS, "'_a' is not accessible", 4),
    # no object, string, void or complex arrays: numpy would hold Python objects or bytes
    ("np.array([print])", TE, "numpy here takes numbers, lists, tuples and arrays, not 'function'", 2),
    ("np.array(['a', 'b'])", TE, "not 'str'", 2),
    ("np.array([{}])", TE, "not 'dict'", 2),
    ("np.zeros(3, dtype='O')", TE, "numpy dtype 'object' is not supported here", 2),
    ("np.zeros(3, dtype=object)", TE, "as a data type", 2),
    ("np.ones(3).astype('O')", TE, "numpy dtype 'object' is not supported here", 2),
    ("np.array(2**100)", TE, "numpy dtype 'object' is not supported here", 2),
    ("np.zeros(3, dtype='V8')", TE, "is not supported here", 2),
    ("np.zeros(3, dtype='complex128')", TE, "numpy dtype 'complex128' is not supported here", 2),
    ("np.ones(2, dtype='S5')", TE, "is not supported here", 2),
    ("np.sqrt(np.ones(2), out=[0.0, 0.0])", TE, "return arrays must be of ArrayType", 2),
    ("np.sqrt(np.ones(2), out=np.float64(1))", TE, "return arrays must be of ArrayType", 2),
    # nothing of the module, its types or its arrays' types can be changed (they are shared or per run)
    ("np.pi = 3", NS, "of a module cannot be assigned", 2),
    ("np.random.rand = print", NS, "of a module cannot be assigned", 2),
    ("np.float32.x = 1", NS, "cannot be assigned", 2),
    ("np.ones(2).dtype.name = 'x'", NS, "cannot be assigned", 2),
    ("np.sin.x = 1", NS, "cannot be assigned", 2),
    ("a = np.ones(3)\na.x = 1", NS, "cannot be assigned", 3),
    ("np.ndarray(3)", TE, "np.ndarray(...) is not available here", 2),
    ("class A(np.ndarray):\n    pass", NS, "a class can only derive from", 2),
    # sizes are asked of the budget before numpy allocates
    ("x = 1\nnp.zeros(10**10)", LE, "a tensor of 10000000000 elements is " + PER_ARRAY, 3),
    ("np.ones((10**5, 10**5))", LE, PER_ARRAY, 2),
    ("np.empty((10**6, 10**6))", LE, PER_ARRAY, 2),
    ("np.full((10**6, 10**6), 1.0)", LE, PER_ARRAY, 2),
    ("np.zeros_like(np.ones(3), shape=(10**6, 10**6))", LE, PER_ARRAY, 2),
    ("np.arange(10**10)", LE, PER_ARRAY, 2),
    ("np.arange(0, 1, 1e-12)", LE, PER_ARRAY, 2),
    ("np.linspace(0, 1, 10**9)", LE, PER_ARRAY, 2),
    ("np.eye(10**5)", LE, PER_ARRAY, 2),
    ("np.diag(np.ones(10**4))", LE, PER_ARRAY, 2),
    ("np.tile(np.ones(1000), 10**6)", LE, PER_ARRAY, 2),
    ("np.tile(np.ones(1000), (1000, 1000))", LE, PER_ARRAY, 2),
    ("np.repeat(np.ones(1000), 10**6)", LE, PER_ARRAY, 2),
    ("a = np.ones(1000)\nb = a.repeat(10**6)", LE, PER_ARRAY, 3),
    ("np.broadcast_to(np.ones(1), (10**6, 10**6))", LE, PER_ARRAY, 2),
    ("np.meshgrid(np.ones(10**4), np.ones(10**4))", LE, PER_ARRAY, 2),
    ("np.outer(np.ones(10**5), np.ones(10**5))", LE, PER_ARRAY, 2),
    ("a = np.ones(10000)\nb = a * a.reshape(-1, 1)", LE, "a tensor of 100000000 elements", 3),
    ("a = np.ones(10000)\nb = np.add(a, a[:, None])", LE, PER_ARRAY, 3),
    ("np.ones((3, 1)) @ np.ones((1, 10**7))", LE, PER_ARRAY, 2),
    ("np.ones((1000, 1)).dot(np.ones((1, 10**4)))", LE, PER_ARRAY, 2),
    ("m = np.ones((1000, 1000))\nm[np.zeros(10**4, dtype=np.int64)]", LE, PER_ARRAY, 3),
    ("m = np.ones((1000, 1000))\nm[[0] * 10**4]", LE, PER_ARRAY, 3),
    ("b = np.ones(10**6)\nnp.array([b] * 1000)", LE, "a tensor of 1000000000 elements", 3),
    ("b = np.ones(10**6)\nnp.concatenate([b] * 100)", LE, PER_ARRAY, 3),
    ("b = np.ones(10**6)\nnp.stack([b] * 100)", LE, PER_ARRAY, 3),
    ("np.float32([np.ones(10**6)] * 100)", LE, PER_ARRAY, 2),
    ("np.random.rand(10**5, 10**5)", LE, PER_ARRAY, 2),
    ("np.random.randn(10**9)", LE, PER_ARRAY, 2),
    ("np.random.uniform(0, 1, size=(10**6, 10**6))", LE, PER_ARRAY, 2),
    ("np.random.normal(size=10**9)", LE, PER_ARRAY, 2),
    ("np.random.randint(0, 10, size=10**9)", LE, PER_ARRAY, 2),
    ("np.random.choice(10, size=10**9)", LE, PER_ARRAY, 2),
    ("np.random.permutation(10**9)", LE, PER_ARRAY, 2),
    ("np.random.default_rng(0).normal(size=10**9)", LE, PER_ARRAY, 2),
    # what is alive at once, and what is done, are bounded too
    # numpy has no BLAS for ints and float16: a product that would be seconds of one C call ends at the step limit
    ("a = np.ones((1000, 1000), dtype=np.float16)\nb = a @ a", LE, "(step limit)", 3),
    ("a = np.ones((1000, 1000), dtype=np.int64)\nb = np.dot(a, a)", LE, "(step limit)", 3),
    ("a = np.ones((1000, 1000), dtype=np.int32)\nb = a.dot(a)", LE, "(step limit)", 3),
    ("a = np.ones((1000, 1000), dtype=np.int8)\nb = np.matmul(a, a)", LE, "(step limit)", 3),
    ("np.percentile(np.ones((10, 10**5)), np.linspace(0, 100, 10**5), axis=0)", AE, "no attribute 'percentile'", 2),
    ("np.broadcast_to(np.ones(1), 10**9)", LE, PER_ARRAY, 2),
    ("xs = [np.ones(10**6) for _ in range(100)]", LE, "tensor elements at once (memory limit)", 2),
    ("xs = []\nfor i in range(100):\n    xs.append(np.ones(10**6).copy())", LE, "(memory limit)", 4),
    ("while True:\n    a = np.ones(3) + 1", LE, "(step limit)", 3),
    # np.convolve of two long vectors is one C call of len(a) * len(v) multiply-adds: charged before it runs
    ("a = np.ones(3_000_000)\nb = np.convolve(a, a)", LE, "(step limit)", 3),
    ("a = np.ones(3_000_000)\nb = np.correlate(a, a, 'full')", LE, "(step limit)", 3),
    # iterating in C (list, sorted, max) costs steps per item: the step limit, or the clock on a loaded machine
    ("x = list(np.ones(10**6))", LE, " limit)", 2),
    ("x = sorted(np.arange(10**6))", LE, " limit)", 2),
    ("x = max(np.ones((1000, 1000)).ravel())", LE, " limit)", 2),
    ("m = np.ones((1000, 1000))\nwhile True:\n    m = m @ m / 1000", LE, "seconds (time limit)", 4),
    # a numpy integer (or a 0-d integer tensor) sizes what it repeats or pads as an int would: checked the same
    ("s = 'ab'.center(np.int64(10**10))", LE, "a string of 10,000,000,000 characters", 2),
    ("s = 'ab'.zfill(np.int64(10**10))", LE, "a string of", 2),
    ("import math\nx = math.factorial(np.int64(10**6))", LE, "math.factorial", 3),
    ("import torch\nx = [0] * torch.tensor(10**9)", LE, "a sequence of 1,000,000,000 items", 3),
    ("import torch\nx = 'a' * torch.tensor(10**10)", LE, "a string of", 3),
    ("from collections import deque\nd = deque([1]) * np.int64(10**9)", LE, "a sequence of", 3),
    ("import itertools\nx = itertools.product(range(10), repeat=np.int64(10**6))", LE, "itertools.product", 3),
    ("import itertools\nx = itertools.tee([1], np.int64(10**6))", LE, "itertools.tee", 3),
    # the bridge to torch keeps PyTorch's refusals
    ("import torch\nt = torch.ones(2, requires_grad=True)\nt.numpy()", "RuntimeError", "Use tensor.detach", 4),
    ("import torch\ntorch.from_numpy([1, 2])", TE, "expected np.ndarray (got list)", 3),
    ("import torch\ntorch.from_numpy(np.ones(3)[::-1])", "ValueError", "negative", 3),
    ("import torch\ntorch.from_numpy(np.ones(3, dtype=np.uint32))", TE, "can't convert np.ndarray", 3),
]


@pytest.mark.parametrize(("code", "etype", "fragment", "line"), CASES)
def test_each_attempt_is_refused_naming_its_line(code: str, etype: str, fragment: str, line: int) -> None:
    start = time.monotonic()
    result = engine.run("import numpy as np\n" + code, seed=0)
    assert time.monotonic() - start < 6
    assert result.error is not None, result.stdout
    assert result.error["type"] == etype and fragment in result.error["message"], result.error
    assert result.error["line"] == line, result.error


def test_a_limit_hit_inside_numpy_cannot_be_caught() -> None:
    code = "import numpy as np\ntry:\n    np.zeros(10**10)\nexcept BaseException:\n    print('caught')\n"
    result = engine.run(code, seed=0)
    assert result.error is not None and result.error["type"] == LE and result.error["line"] == 3
    assert "caught" not in result.stdout


def test_arrays_as_big_as_allowed_work_together() -> None:
    """Two arrays of 600,000 elements each: their sum, product and comparison are each within the budget."""
    code = "import numpy as np\na = np.ones(600000)\nb = np.add(a, a) * a\nprint(np.allclose(a, b), np.dot(a, a))"
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == "False 600000.0\n"


def test_freed_arrays_stop_counting() -> None:
    """The memory budget bounds arrays alive, not all ever made: a loop making big arrays it drops runs."""
    code = "import numpy as np\nfor i in range(200):\n    a = np.ones(10**6) * i\nprint(a[:2])"
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == "[199. 199.]\n"

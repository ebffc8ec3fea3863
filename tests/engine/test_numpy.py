"""numpy in user code (engine/ndarray, engine/stdlib/numpy_*.py, engine/ops/numpy_bridge.py): programs written the
way public PyTorch courses use numpy beside torch, run by the sandbox and by real Python with real numpy 2 and
PyTorch 2.13; stdout must be identical, byte for byte.

The patterns come from: the PyTorch tutorials' "Learning PyTorch with Examples" (its numpy warm-up fitting sin(x)
with a polynomial, pytorch/tutorials beginner_source/examples_tensor/polynomial_numpy.py), Justin Johnson's
two-layer numpy network (jcjohnson/pytorch-examples), MorvanZhou's torch/numpy comparison (PyTorch-Tutorial,
201_torch_numpy.py), yunjey's linear regression (pytorch-tutorial, 01-basics/linear_regression/main.py) and
course notebooks that convert with ``torch.from_numpy``/``.numpy()``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import engine
from engine.sandbox import Limits
from tests.oracle import torch_stdout

# The default budget but the clock: these compare numbers, and the test machine is shared (the warm-up uses ~1 s
# of CPU, twice what real Python takes)
SLOW_MACHINE = Limits(max_seconds=60)

POLYNOMIAL_WARMUP = """
import numpy as np
import math

x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)
np.random.seed(0)
a = np.random.randn()
b = np.random.randn()
c = np.random.randn()
d = np.random.randn()

learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')
"""

TWO_LAYER_NET = """
import numpy as np
np.random.seed(1)
N, D_in, H, D_out = 64, 100, 50, 10  # the tutorial has D_in = 1000, H = 100: smaller for the test
x = np.random.randn(N, D_in)
y = np.random.randn(N, D_out)
w1 = np.random.randn(D_in, H)
w2 = np.random.randn(H, D_out)
learning_rate = 1e-6
for t in range(100):
    h = x.dot(w1)
    h_relu = np.maximum(h, 0)
    y_pred = h_relu.dot(w2)
    loss = np.square(y_pred - y).sum()
    if t % 10 == 0:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.T.dot(grad_y_pred)
    grad_h_relu = grad_y_pred.dot(w2.T)
    grad_h = grad_h_relu.copy()
    grad_h[h < 0] = 0
    grad_w1 = x.T.dot(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2
print(w1.shape, w2.dtype, w2[:2, :3])
"""

TORCH_NUMPY = """
import torch
import numpy as np

np_data = np.arange(6).reshape((2, 3))
torch_data = torch.from_numpy(np_data)
tensor2array = torch_data.numpy()
print('\\nnumpy array:', np_data, '\\ntorch tensor:', torch_data, '\\ntensor to array:', tensor2array)

data = [-1, -2, 1, 2]
tensor = torch.FloatTensor(data)
print('\\nabs', '\\nnumpy: ', np.abs(data), '\\ntorch: ', torch.abs(tensor))
print('\\nsin', '\\nnumpy: ', np.sin(data), '\\ntorch: ', torch.sin(tensor))
print('\\nmean', '\\nnumpy: ', np.mean(data), '\\ntorch: ', torch.mean(tensor))
data = [[1, 2], [3, 4]]
tensor = torch.FloatTensor(data)
print('\\nmatmul', '\\nnumpy: ', np.matmul(data, data), '\\ntorch: ', torch.mm(tensor, tensor))
data = np.array(data)
print('\\ndot', '\\nnumpy: ', data.dot(data))
"""

LINEAR_REGRESSION = """
import torch
import torch.nn as nn
import numpy as np

input_size, output_size, num_epochs, learning_rate = 1, 1, 60, 0.001
x_train = np.array([[3.3], [4.4], [5.5], [6.71], [6.93], [4.168], [9.779], [6.182], [7.59], [2.167],
                    [7.042], [10.791], [5.313], [7.997], [3.1]], dtype=np.float32)
y_train = np.array([[1.7], [2.76], [2.09], [3.19], [1.694], [1.573], [3.366], [2.596], [2.53], [1.221],
                    [2.827], [3.465], [1.65], [2.904], [1.3]], dtype=np.float32)
torch.manual_seed(0)
model = nn.Linear(input_size, output_size)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for epoch in range(num_epochs):
    inputs = torch.from_numpy(x_train)
    targets = torch.from_numpy(y_train)
    outputs = model(inputs)
    loss = criterion(outputs, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print('Epoch [{}/{}], Loss: {:.4f}'.format(epoch + 1, num_epochs, loss.item()))
predicted = model(torch.from_numpy(x_train)).detach().numpy()
print(predicted[:4])
print(predicted.dtype, predicted.shape, predicted.max(), repr(predicted.min()), f"{predicted.mean():.3f}")
print(x_train.mean(), x_train.std(), np.float32, x_train.dtype == np.float32)
"""

SHARED_MEMORY = """
import torch
import numpy as np

t = torch.ones(3)
a = t.numpy()
t.add_(1)
print(a)
a += 1
print(t)
a[0] = 10
print(t, t.sum())
n = np.ones(5)
tn = torch.from_numpy(n)
r = np.add(n, 1, out=n)
print(tn, n, r is n)
b = np.zeros((2, 2))
tb = torch.from_numpy(b)
b[1, 1] = 5
print(tb)
tb.mul_(2)
print(b)
tb[0] = 7
print(b, b.dtype)
c = torch.tensor(b)
b[0, 0] = -1
print(c)
print(torch.Tensor(np.array([1, 2])), torch.tensor(np.arange(3)), torch.tensor(np.ones(2), dtype=torch.float32))
w = torch.tensor([1.0, 2.0], requires_grad=True)
print(w.detach().numpy(), (w * 2).detach().numpy().max())
"""

PRINTING = """
import numpy as np
print(np.array([1.0, 2.5, 3.0]), repr(np.array([1.0, 2.5, 3.0])))
print(np.array([1, 2, 3], dtype=np.float32), repr(np.array([1, 2, 3], dtype=np.float32)))
print(repr(np.arange(12).reshape(3, 4)), np.arange(12).reshape(3, 4).shape)
print(np.array([True, False]), repr(np.array([0.1, 1e-9, 1e9])), np.zeros((2, 0)))
print(repr(np.linspace(0, 1, 2000)))
print(np.ones(3, dtype=np.int32), repr(np.ones(3, dtype=np.int32)), np.ones(3, dtype=np.int32).dtype)
s = np.float32(1.0) / 3
print(s, repr(s), f"{s:.3f}", f"{s}", [s, np.float64(2.5), np.int64(3)], float(s), int(np.int64(7)))
print(np.array(3.5), repr(np.array(3.5)), np.array([[1.5, -2.0], [3.25, 4.0]]).T)
print(np.float32, np.float64, np.int64, repr(np.array([1, 2]).dtype), str(np.array([1.0]).dtype))
x = np.arange(10)
print(x[2:5], x[::-1], x[x % 2 == 0], x[[1, 3, 5]], x.reshape(2, 5)[:, 1], len(x), 3 in x)
print(x.sum(), x.mean(), x.max(), x.argmax(), x.std(), x.cumsum(), x.tolist(), x.astype(np.float32))
m = np.arange(6.0).reshape(2, 3)
print(m.sum(axis=0), m.mean(axis=1), m @ m.T, np.dot(m, m.T), np.matmul(m, m.T), np.exp(m), np.abs(-m))
print(np.maximum(m, 2), np.clip(m, 1, 4), np.where(m > 2, m, 0), np.concatenate([m, m]), np.stack([m, m]).shape)
print(np.zeros(3), np.ones((2, 2)), np.full((2,), 7.0), np.eye(2), np.zeros_like(m), np.ones_like(x))
print(np.arange(0, 1, 0.1), np.arange(5, dtype=np.float32), np.linspace(0, 1, 5), np.pi, np.e)
print(np.sqrt(2.0), repr(np.sqrt(2.0)), np.mean([1, 2, 3, 4]), np.sum([[1, 2], [3, 4]]), np.round(np.pi, 2))
for row in m:
    print(row, row.sum())
"""

RANDOM = """
import numpy as np
np.random.seed(42)
print(np.random.rand(), np.random.rand(3), np.random.rand(2, 2))
print(np.random.randn(), np.random.randn(4))
print(np.random.randint(10), np.random.randint(0, 100, size=5), np.random.randint(5, size=(2, 3)))
print(np.random.uniform(-1, 1, 3), np.random.normal(0, 0.1, size=(2, 2)), np.random.random((2,)))
print(np.random.permutation(10), np.random.permutation(np.arange(5)), np.random.choice(5, 3))
print(np.random.choice([10, 20, 30], size=4, p=[0.2, 0.3, 0.5]), np.random.choice(10, 3, replace=False))
from numpy.random import randn, seed as np_seed
import numpy.random as npr
from numpy.linalg import norm
np_seed(3)
print(randn(2), npr.rand(2), norm(np.array([3.0, 4.0])), np.linalg.norm(np.ones((2, 2)), axis=1))
a = np.arange(8)
np.random.shuffle(a)
print(a)
np.random.seed(0)
print(np.random.rand(3))
r = np.random.RandomState(7)
print(r.randn(3), r.randint(0, 5, size=4))
g = np.random.default_rng(3)
print(g.normal(size=3), g.integers(0, 10, size=4), g.random(2))
"""

INTERPLAY = """
import torch
import numpy as np
t = torch.ones(2)
a = np.array([1.0, 2.0])
print(t + np.float64(1.5), np.float32(2.0) * t, t * np.float32(2.0), t * a, t - np.int64(3))
print(torch.tensor(np.float32(1.5)), torch.tensor(np.float64(2.5)), torch.tensor(np.arange(3)))
print(torch.tensor([np.float32(1.0), np.float32(2.5)]), torch.tensor([[np.int64(1), 2]]))
print(torch.from_numpy(a).float(), torch.tensor(a, dtype=torch.float32), torch.as_tensor(a))
losses = [0.5, 0.25, 0.125]
print(np.mean(losses), np.array(losses), np.round(t.numpy(), 3))
x = torch.tensor([1.5, 2.5])
print(np.sum(x.numpy()), x.numpy().tolist(), np.float32, np.bool_, isinstance(a, np.ndarray))
X = torch.from_numpy(np.arange(6.0).reshape(3, 2))
ds = torch.utils.data.TensorDataset(X, torch.from_numpy(np.arange(3)))
print(ds[1], X[np.int64(1)], X[np.array([2, 0])], X[np.array([True, False, True])])
np.random.seed(0)
idx = np.random.permutation(3)
print(idx, X[idx[:2]], float(np.float32(2.5)), int(np.int64(3)), list(range(np.int64(3))))
print(a.dtype == np.float64, np.float64 == a.dtype, np.float32(2).dtype, a.astype(np.float32).dtype.name)
print(type(a), type(a.sum()), type(np.float32(1)), type(a.dtype), type(t.numpy()), type(t.numpy().max()))
print(type(a) == np.ndarray, type(np.int64(1)) is np.int64, type(a).__name__, type(np.float32(1)).__name__)
"""

COURSE_IDIOMS = """
import torch
import numpy as np
np.random.seed(42)
torch.manual_seed(42)
X = np.random.rand(100, 2).astype(np.float32)
y = (X[:, 0] + X[:, 1] > 1).astype(np.int64)
model = torch.nn.Linear(2, 2)
out = model(torch.from_numpy(X))
pred = np.argmax(out.detach().numpy(), axis=1)
correct = (pred == y).sum()
acc = correct / len(y)
print(correct, acc, f"{acc:.2%}", 100 * correct / len(y), '%.4f' % acc, round(acc, 3), np.mean(pred == y))
print('acc: {:.3f}'.format(acc), str(acc), [acc], (pred == y)[:5], y[:10], y.dtype)
losses = []
for i in range(3):
    loss = torch.nn.functional.cross_entropy(out, torch.from_numpy(y))
    losses.append(loss.item())
print(np.array(losses), np.mean(losses), np.std(losses), np.array([torch.tensor(1.5), torch.tensor(2.5)]))
x = np.linspace(-1, 1, 5)[:, np.newaxis]
print(x.shape, x, np.hstack([x, x ** 2]), np.vstack([x.T, x.T]))
noise = np.random.normal(0, 0.1, (5, 1))
print(noise, np.random.normal(0, 0.1, size=x.shape).shape)
t = torch.from_numpy(x).float()
print(t, t.dtype, torch.from_numpy(x).type(), x.sum(axis=0, keepdims=True))
a = np.array([[1, 2], [3, 4]])
print(a * 2, a / 2, a ** 2, a // 3, a % 3, -a, a.T @ a, a.mean(), a.max(axis=1), a.argmax(axis=0), a.flatten(), a.ravel())
print(np.zeros((2, 3), dtype=np.int64), np.ones(2, dtype=bool), np.full((2, 2), np.nan), np.array([np.inf, -np.inf]))
print(np.exp(np.array([0.0, 1.0], dtype=np.float32)), np.float32(0.1) + np.float32(0.2), np.float64(0.1) + 0.2)
print(np.int64(7) // 2, np.int64(7) / 2, np.float32(3.0) ** 2, abs(np.float32(-1.5)), max(np.float32(1), 2.0))
print(a.reshape(-1), a.reshape(4, 1).shape, a[0], a[0, 1], a[:, 0], a[a > 1], a.tolist(), a.size, a.ndim, len(a))
b = a.copy()
b[b > 2] = 0
print(b, a, a.astype(np.float32) / 3, np.sqrt(a), np.log(a), np.abs(a - 3), np.sum(a, axis=1))
print(np.unique(np.array([3, 1, 2, 3, 1])), np.sort(np.array([3, 1, 2])), np.argsort(np.array([3, 1, 2])), np.cumsum(a))
print(np.allclose(a, a + 1e-9), np.array_equal(a, a), np.isclose(1.0, 1.0 + 1e-10), np.concatenate([a, a], axis=1))
pred_y = torch.max(torch.from_numpy(b), 1)[1].data.numpy()  # Morvan's accuracy: .astype(int) with Python's int
print(float((pred_y == a[:, 0]).astype(int).sum()) / float(a[:, 0].size), (a > 2).astype(float), a.astype(bool))
"""

# Python's own int, float and bool as dtypes (MorvanZhou's classification: `(pred_y == target_y).astype(int).sum()`)
PYTHON_TYPES_AS_DTYPES = """
import numpy as np
a = np.array([1.5, -2.5, 3.0])
print(a.astype(int), a.astype(float), a.astype(bool), (a > 0).astype(int).sum())
print(np.zeros(2, dtype=int), np.array([1, 2], dtype=float), np.ones(3, int), np.array([0, 2], dtype=bool))
"""

# Python's own types as numpy dtypes (MorvanZhou's classifier: `(pred_y == target_y).astype(int).sum()`), and a
# tensor that requires grad read by numpy under no_grad (a custom Function's forward runs so, as the docs' mark_dirty)
PYTHON_TYPES = """
import numpy as np
import torch
pred, target = np.array([1, 0, 1, 1]), np.array([1, 1, 1, 0])
print((pred == target).astype(int), (pred == target).astype(int).sum(), (pred == target).astype(float).dtype)
print(np.array([1.7, -2.2], int), np.array([0, 2], bool), np.zeros(2, dtype=int).dtype, np.ones(2, float).dtype)
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    print(w.numpy(), np.array(w), np.asarray(w * 2))
"""

# Raschka's chapter 14 (rasbt/machine-learning-book): a 1-D convolution by hand beside np.convolve, and the version
CONVOLUTION = """
import numpy as np
x, w = [1, 3, 2, 4, 5, 6, 1, 3], [1, 0, 3, 1, 2]
print(np.convolve(x, w, mode='same'), np.convolve(x, w), np.convolve(np.array(x, dtype=np.float32), w, 'valid'))
print(np.correlate([1.0, 2.0, 3.0], [0.0, 1.0, 0.5]), np.correlate(x, w, 'full'))
print(type(np.__version__).__name__, np.__version__ == '.'.join(np.__version__.split('.')))
"""

# torch.as_tensor over a numpy array shares its buffer when no conversion is needed (Godoy's "Deep Learning with
# PyTorch Step-by-Step", chapter 1: "Modifies the numpy array ... Tensor gets modified too")
AS_TENSOR = """
import torch, numpy as np
a = np.array([1, 2, 3]); t = torch.as_tensor(a); a[1] = 0; print(t)
b = np.array([1., 2.]); t2 = torch.as_tensor(b, dtype=torch.float32); b[0] = 9; print(t2)
t3 = torch.as_tensor(b, dtype=torch.float64); b[1] = 7; print(t3)
t3.add_(1); print(b)
try:
    print(torch.as_tensor(np.array([1, 2, 3])[::-1]))
except ValueError as e:
    print(e)
print(torch.as_tensor(np.float64(2.5)), torch.as_tensor(np.array(3.0)))
"""

PROGRAMS = {
    "as_tensor": AS_TENSOR,
    "convolution": CONVOLUTION,
    "python_types": PYTHON_TYPES,
    "python_types_as_dtypes": PYTHON_TYPES_AS_DTYPES,
    "polynomial_warmup": POLYNOMIAL_WARMUP,
    "two_layer_net": TWO_LAYER_NET,
    "torch_numpy": TORCH_NUMPY,
    "linear_regression": LINEAR_REGRESSION,
    "shared_memory": SHARED_MEMORY,
    "printing": PRINTING,
    "random": RANDOM,
    "interplay": INTERPLAY,
    "course_idioms": COURSE_IDIOMS,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_prints_what_real_numpy_and_torch_print(name: str) -> None:
    code = PROGRAMS[name]
    result = engine.run(code, seed=0, limits=SLOW_MACHINE)
    assert result.error is None, result.error
    with warnings.catch_warnings():  # real torch warns on `tensor * array` (its __array_wrap__ and numpy 2)
        warnings.simplefilter("ignore", DeprecationWarning)
        want = torch_stdout(code)
    assert result.stdout == want


def test_small_products_without_blas_run() -> None:
    """Int products (np.arange(6).reshape(2, 3) @ ...) cost steps by their work, and courses' sizes stay cheap."""
    code = "import numpy as np\nm = np.arange(10000).reshape(100, 100)\nfor i in range(50):\n    p = m @ m\nprint(p[0, :3])"
    result = engine.run(code, seed=0, limits=SLOW_MACHINE)
    assert result.error is None and result.stdout == "[32835000 32839950 32844900]\n"


def test_np_random_is_seeded_from_the_run_when_the_program_sets_no_seed() -> None:
    code = "import numpy as np\nprint(np.random.rand(3), np.random.randint(100))"
    first, again, other = engine.run(code, seed=5), engine.run(code, seed=5), engine.run(code, seed=6)
    assert first.stdout == again.stdout != other.stdout
    assert first.error is None


def test_each_run_gets_its_own_numpy() -> None:
    """One run's seed, and what it did to the module, never reach the next (issue 9)."""
    engine.run("import numpy as np\nnp.random.seed(1)\nnp.random.rand(5)\nnp.x = 1", seed=0)
    code = "import numpy as np\nprint(np.random.rand())"
    assert engine.run(code, seed=0).stdout == engine.run(code, seed=0).stdout
    assert engine.run("import numpy as np\nprint(np.x)", seed=0).error["type"] == "AttributeError"


PRINT_OPTIONS = """
import numpy as np
x = np.array([1e-9, 1 / 3, 2.0, 1234.5678])
print(x)
np.set_printoptions(precision=3, suppress=True)
print(x, repr(x), np.linspace(0, 1, 7))
np.set_printoptions(threshold=5, edgeitems=2)
print(np.arange(10.0), np.get_printoptions()["precision"], np.get_printoptions()["threshold"])
np.set_printoptions(linewidth=30, sign="+")
print(np.arange(12.0).reshape(2, 6))
"""


def test_set_printoptions_prints_as_numpy_and_stays_in_its_run() -> None:
    result = engine.run(PRINT_OPTIONS, seed=0)
    assert result.error is None, result.error
    with np.printoptions():  # the oracle's np.set_printoptions is numpy's own: put the options back after it
        want = torch_stdout(PRINT_OPTIONS)
    assert result.stdout == want
    after = engine.run("import numpy as np\nprint(np.array([1 / 3]), np.arange(2000.0))", seed=0)
    assert after.stdout == f"{np.array([1 / 3])} {np.arange(2000.0)}\n"  # numpy's defaults again, here and in the run
    bad = engine.run("import numpy as np\nnp.set_printoptions(formatter={'float': print})", seed=0)
    assert bad.error is not None and bad.error["type"] == "TypeError" and bad.error["line"] == 2
    huge = engine.run("import numpy as np\nnp.set_printoptions(threshold=np.inf)\nprint(np.ones(10**6))", seed=0)
    assert huge.error is not None and huge.error["type"] == "LimitExceeded" and huge.error["line"] == 3


def test_sets_and_dicts_of_numpy_scalars_keep_the_run_reproducible() -> None:
    """numpy's scalars hash as their numbers (and dtypes by number): a set of them orders the same everywhere."""
    code = "import numpy as np\nlabels = np.array([3, 1, 2, 3])\nprint(set(labels), {x.dtype for x in labels})"
    result = engine.run(code, seed=0)
    assert result.error is None and result.reproducible, result.why_not_reproducible
    assert result.stdout == torch_stdout(code)

# %% for_loop_grad
import torch
x = torch.tensor(1.0, requires_grad=True)
for i in range(3):
    y = x * (i + 1)
    y.backward()
    print(i, x.grad)
# %% while_descent
import torch
x = torch.tensor(5.0, requires_grad=True)
steps = 0
while x.item() > 1.0:
    loss = x ** 2
    loss.backward()
    with torch.no_grad():
        x -= 0.25 * x.grad
    x.grad.zero_()
    steps += 1
print(steps, x)
# %% if_else_branch
import torch
def f(x):
    if x.sum() > 0:
        return x * 2
    else:
        return x ** 2
a = torch.tensor([1.0, -0.5], requires_grad=True)
y = f(a)
y.sum().backward()
print(y.grad_fn)
print(a.grad)
# %% function_def
import torch
def square(t):
    return t * t
x = torch.tensor([1.0, 3.0], requires_grad=True)
y = square(x).sum()
y.backward()
print(x.grad)
# %% lambda_map
import torch
f = lambda t: (t ** 2).sum()
x = torch.tensor([0.5, 1.5], requires_grad=True)
f(x).backward()
print(x.grad)
# %% list_comprehension
import torch
xs = [torch.tensor(float(i), requires_grad=True) for i in range(4)]
total = sum(x ** 2 for x in xs)
total.backward()
print(total)
print([x.grad.item() for x in xs])
# %% enumerate_zip
import torch
ws = [torch.tensor(1.0), torch.tensor(2.0)]
xs = [3.0, 4.0]
for i, (w, x) in enumerate(zip(ws, xs)):
    print(i, w * x)
# %% dict_loop
import torch
params = {"w": torch.tensor(2.0, requires_grad=True), "b": torch.tensor(0.5, requires_grad=True)}
y = params["w"] * 3 + params["b"]
y.backward()
for name, p in params.items():
    print(name, p.grad)
# %% break_continue
import torch
x = torch.arange(10.0)
for v in x:
    if v.item() % 2 == 1:
        continue
    if v > 6:
        break
    print(v)
# %% nested_function_closure
import torch
def make_poly(a, b):
    def poly(x):
        return a * x ** 2 + b * x
    return poly
p = make_poly(2.0, -1.0)
x = torch.tensor(3.0, requires_grad=True)
y = p(x)
y.backward()
print(y, x.grad)
# %% iterate_tensor_rows
import torch
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for row in m:
    print(row, row.sum())
# %% tuple_unpack_shape
import torch
x = torch.zeros(3, 5)
rows, cols = x.shape
print(rows, cols)
n, = torch.ones(4).shape
print(n)
# %% builtins_on_tensors
import torch
x = torch.tensor([3.0, 1.0, 2.0])
print(len(x))
print(max(x.tolist()), min(x.tolist()))
print(sorted(x.tolist()))
print(round(x.mean().item(), 3))
print(abs(torch.tensor(-2.0)))
print(float(x[0]), int(x[1]))
# %% isinstance_checks
import torch
import torch.nn as nn
x = torch.tensor(1.0)
print(isinstance(x, torch.Tensor))
print(isinstance(nn.Linear(1, 1), nn.Module))
print(torch.is_tensor(x))
# %% try_except_else
import torch
try:
    torch.ones(2) + torch.ones(3)
except RuntimeError as e:
    print("error!")
else:
    print("fine")
# %% class_plain
import torch
class Counter:
    def __init__(self):
        self.n = 0
    def add(self, t):
        self.n += int(t.sum().item())
        return self.n
c = Counter()
print(c.add(torch.ones(3)))
print(c.add(torch.ones(2, 2)))
# %% enable_grad_inside_no_grad
import torch
x = torch.tensor(1.0, requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
    z = x * 2
print(y.requires_grad, z.requires_grad)
# %% no_grad_decorator
import torch
@torch.no_grad()
def evaluate(x):
    return x * 2
x = torch.tensor(1.0, requires_grad=True)
print(evaluate(x).requires_grad)
# %% math_module
import math
import torch
x = torch.tensor(math.pi / 2, requires_grad=True)
y = torch.sin(x)
y.backward()
print(round(y.item(), 4), x.grad)
print(math.sqrt(16), math.exp(0))
# %% fstring_loop_table
import torch
x = torch.tensor(0.0, requires_grad=True)
for step in range(4):
    loss = (x - 3) ** 2
    loss.backward()
    with torch.no_grad():
        x -= 0.1 * x.grad
    print(f"step {step}: x={x.item():.4f} loss={loss.item():.4f} grad={x.grad.item():+.3f}")
    x.grad.zero_()
# %% reversed_range_list
import torch
vals = [torch.tensor(float(i)) for i in reversed(range(3))]
print(vals)
print(torch.stack(vals))
# %% grad_accumulate_loop
import torch
w = torch.tensor(1.0, requires_grad=True)
for x in [1.0, 2.0, 3.0]:
    (w * x).backward()
print(w.grad)
# %% newton_method
import torch
x = torch.tensor(1.0, requires_grad=True)
for _ in range(5):
    f = x ** 2 - 2
    df, = torch.autograd.grad(f, x)
    with torch.no_grad():
        x -= f / df
print(f"{x.item():.6f}")
# %% set_grad_enabled_ctx
import torch
x = torch.tensor(2.0, requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
# %% string_methods
import torch
name = "weight"
x = torch.tensor(1.0)
print(name.upper(), name.startswith("w"), "-".join(["a", "b"]))
print(f"{name:>10}|{x.item():<6}|")
# %% while_with_break_grad
import torch
x = torch.tensor(10.0, requires_grad=True)
lr = 0.1
i = 0
while True:
    loss = (x - 2) ** 2
    if loss.item() < 0.01:
        break
    loss.backward()
    with torch.no_grad():
        x -= lr * x.grad
        x.grad.zero_()
    i += 1
print(i, round(x.item(), 3))
# %% dict_comprehension
import torch
names = ["a", "b", "c"]
vals = {n: torch.tensor(float(i + 1), requires_grad=True) for i, n in enumerate(names)}
out = vals["a"] * vals["b"] + vals["c"]
out.backward()
print({k: v.grad.item() for k, v in vals.items()})
# %% global_counter_function
import torch
calls = 0
def f(x):
    global calls
    calls += 1
    return x.exp()
x = torch.tensor(0.0, requires_grad=True)
f(f(x)).backward()
print(calls, x.grad)
# %% star_args_kwargs
import torch
def combine(*tensors, scale=1.0):
    return scale * sum(tensors)
a = torch.tensor(1.0, requires_grad=True)
out = combine(a, a * 2, a * 3, scale=0.5)
out.backward()
print(out, a.grad)
# %% exception_message_text
import torch
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
# %% for_else_and_ternary
import torch
vals = torch.tensor([1.0, 3.0, 5.0])
for v in vals:
    if v > 10:
        print("found")
        break
else:
    print("none above 10")
sign = "pos" if vals.sum() > 0 else "neg"
print(sign)
# %% recursion_power
import torch
def power(x, n):
    if n == 0:
        return torch.ones_like(x)
    return x * power(x, n - 1)
x = torch.tensor(2.0, requires_grad=True)
y = power(x, 4)
y.backward()
print(y, x.grad)
# %% sorted_key_lambda
import torch
params = [("b", torch.tensor(3.0)), ("a", torch.tensor(1.0)), ("c", torch.tensor(2.0))]
for name, t in sorted(params, key=lambda p: p[1].item()):
    print(name, t.item())
print(sorted(params)[0][0])
# %% percent_and_format
import torch
loss = torch.tensor(0.123456)
print("loss: %.3f" % loss.item())
print("loss: {:.2f}, step {}".format(loss.item(), 5))
print("{0} and {1}".format(torch.tensor([1, 2]), "x"))
print("%d items" % len([1, 2, 3]))
# %% list_ops
import torch
history = []
for i in range(5):
    history.append(torch.tensor(float(i)) ** 2)
print(history[-1], history[1:3])
print(len(history), history.pop().item())
values = [h.item() for h in history]
values.extend([10.0])
print(values, 4.0 in values, sum(values) / len(values))
# %% walrus_and_chained
import torch
x = torch.tensor([0.5, 1.5, 2.5])
if (n := x.numel()) > 2:
    print(n)
print(0 < x[0].item() < 1, 1 < x[0] < 2)
# %% enumerate_start_zip3
import torch
a, b, c = torch.ones(2), torch.zeros(2), torch.full((2,), 2.0)
for i, (p, q, r) in enumerate(zip(a, b, c), start=1):
    print(i, (p + q + r).item())
# %% raise_uncaught
import torch
x = torch.tensor(-1.0)
if x < 0:
    raise ValueError(f"x must be positive, got {x.item()}")
# %% nested_try
import torch
def risky(t):
    try:
        return t.view(5)
    except RuntimeError as e:
        print("inner:", str(e)[:30])
        raise
try:
    risky(torch.ones(4))
except RuntimeError:
    print("outer caught")
# %% dict_methods
import torch
metrics = {}
for epoch in range(3):
    metrics.setdefault("loss", []).append(round(1.0 / (epoch + 1), 3))
print(metrics)
print(metrics.get("acc", "n/a"), list(metrics.keys()))
# %% math_functions
import math
import torch
x = torch.tensor(math.e)
print(round(x.item(), 4), math.log(math.e), math.floor(2.7), math.ceil(2.1))
print(math.isclose(0.1 + 0.2, 0.3), math.inf > 1e308, math.pi)
print(round(math.sqrt(2), 5), math.pow(2, 10), math.tanh(0.5))
# %% while_else_counter
import torch
x = torch.tensor(100.0)
count = 0
while x > 1:
    x = x / 2
    count += 1
print(count, x)
# %% multiple_assignment_swap
import torch
a = torch.tensor(1.0)
b = torch.tensor(2.0)
a, b = b, a
print(a, b)
x = y = torch.zeros(2)
x += 1
print(y)
# %% class_with_method_calls
import torch
class LinearModel:
    def __init__(self, w, b):
        self.w = torch.tensor(w, requires_grad=True)
        self.b = torch.tensor(b, requires_grad=True)
    def predict(self, x):
        return self.w * x + self.b
    def params(self):
        return [self.w, self.b]
m = LinearModel(2.0, 1.0)
loss = (m.predict(torch.tensor(3.0)) - 5) ** 2
loss.backward()
print([p.grad for p in m.params()])
# %% python_builtins_on_tensors
import math
import torch
x = torch.tensor([3.0, 1.0, 2.0])
s = torch.tensor(2.567)
print(round(s.item(), 2), float(s), int(s), bool(s), math.sqrt(s))
print(abs(torch.tensor(-1.5)), max(x), min(x), sum(x))
print(list(x), sorted(x), len(x))
print(round(s, 1), round(s))
print(f"{s:.2f}", f"{s:>8.3f}|", "{:.1e}".format(s))
print([f"{v:.1f}" for v in x])
# %% format_nonscalar_error
import torch
x = torch.tensor([1.0, 2.0])
print(f"{x:.2f}")
# %% print_forms_and_strings
import torch
vals = [torch.tensor(1.5), torch.tensor(2.5)]
print(*vals)
print(*vals, sep=" | ", end="!\n")
print("-" * 20)
pairs = [(1, "a"), (2, "b")]
nums, letters = zip(*pairs)
print(nums, letters, dict(zip(letters, nums)))
grid = [[i * j for j in range(3)] for i in range(3)]
print(grid)
print(f"{'loss':<10}|{1.5:>8.2f}|{7:03d}|{1234567:,}|{0.25:.1%}")
print(", ".join(str(v.item()) for v in vals))
print("epoch %3d loss %.4f" % (5, vals[0].item()))
# %% class_inheritance_chain
import torch
import torch.nn as nn
class Base(nn.Module):
    scale = 2.0
    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, 1)
    def forward(self, x):
        return self.lin(x) * self.scale
class Child(Base):
    def __init__(self, n, bias):
        super().__init__(n)
        self.extra = nn.Parameter(torch.tensor(bias))
    def forward(self, x):
        return super().forward(x) + self.extra
torch.manual_seed(0)
m = Child(3, 0.5)
print(m)
out = m(torch.ones(2, 3))
print(out)
out.sum().backward()
print(m.extra.grad, isinstance(m, Base), m.scale)
# %% decorator_wrapper
import torch
def batches(t, size):
    return [t[i:i + size] for i in range(0, len(t), size)]
def logged(fn):
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        print("called", out.shape)
        return out
    return wrapper
@logged
def double(t):
    return t * 2
for b in batches(torch.arange(5.0), 2):
    print(double(b))

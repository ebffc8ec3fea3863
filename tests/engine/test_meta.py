"""The meta device against PyTorch 2.13: tensors with a shape and a dtype and no elements, made by the factories,
the layers and ``with torch.device("meta")``, through the ops courses use (each by its meta rule, with the grad_fn
PyTorch makes), printed as PyTorch prints them, and PyTorch's own errors for reading their values. A meta tensor
allocates nothing: 10^13 elements cost no memory, while the sandbox's limits still count what is really allocated."""

from __future__ import annotations

import resource

import pytest

import engine
from tests.engine.helpers import run_ours, run_torch

FACTORIES = """
import torch
torch.manual_seed(0)
print(torch.rand(2, 3, device="meta"), torch.randn(4, device="meta", requires_grad=True))
print(torch.zeros(3, dtype=torch.int64, device="meta"), torch.ones((2, 2), device="meta", dtype=torch.float64))
print(torch.empty(0, device="meta"), torch.full((2,), 7, device="meta"), torch.rand((), device="meta"))
print(torch.tensor([[1., 2.], [3., 4.]], device="meta"), torch.tensor(3, device="meta"))
print(torch.arange(5, device="meta"), torch.arange(0., 1., 0.25, device="meta"), torch.linspace(0, 1, 7, device="meta"))
print(torch.eye(3, device="meta"), torch.randint(0, 10, (2, 5), device="meta"))
m = torch.rand(2, 3, device="meta")
print(torch.zeros_like(m), torch.ones_like(m, dtype=torch.float16), torch.rand_like(m), torch.empty_like(m))
print(m.device, m.is_meta, torch.ones(2).is_meta, m.shape, m.size(1), m.dim(), m.numel(), m.nbytes, m.dtype)
print(m.stride(), m.is_contiguous(), m.element_size(), len(m), m.requires_grad, m.is_leaf)
print(torch.rand(2), "(the generator is untouched by meta draws)")
print(torch.ones(3).to("meta"), torch.ones(3, requires_grad=True).to("meta"), m.to(torch.float64))
print(torch.rand(3, device="meta", requires_grad=True) * 2)
print(torch.rand(200, 300, 400, 500, 600, 700, device="meta", dtype=torch.int32))
print(torch.rand(1024, 5, 65535, 65535, device="meta", requires_grad=True).sum(dim=(2, 3)))
"""

OPS = """
import torch
import torch.nn.functional as F
x = torch.rand(4, 3, device="meta", requires_grad=True)
w = torch.rand(3, 2, device="meta")
print(x + 1, 2 * x, x - x, x / 3, -x, x ** 2, 2 ** x, x + torch.tensor(1.))
print(x.exp(), x.log(), torch.sigmoid(x), torch.tanh(x), F.relu(x), x.relu(), x.abs(), x.sqrt(), x.clamp(0, 1))
print(x @ w, torch.mm(x, w), torch.matmul(x, w), x.matmul(w[:, 0]), x[0] @ w[:, 1])
print(x.sum(), x.sum(dim=0), x.sum(1, keepdim=True), x.mean(), x.mean(dim=-1), x.max(), x.prod())
print(x.view(12), x.reshape(2, -1), x.t(), x.T, x.transpose(0, 1), x.permute(1, 0), x.flatten())
print(x.unsqueeze(0), x[None].squeeze(0), x[:, :1].squeeze(1), x.expand(2, 4, 3), x[0], x[:, 1:3], x[1, 2])
print(torch.cat([x, x]), torch.stack([x, x], dim=1), torch.cat([x, x], dim=1))
print(F.softmax(x, dim=1), F.log_softmax(x, dim=-1), F.leaky_relu(x), F.gelu(x), F.elu(x))
print(x > 0, x == x, (x < 0.5).dtype, x.float(), x.double(), x.long(), x.bool(), x.half())
print(torch.where(x > 0, x, torch.zeros(4, 3, device="meta")), torch.maximum(x, x))
t = torch.rand(4, 3, device="meta")
print(F.mse_loss(x, t), F.mse_loss(x, t, reduction="none"), F.l1_loss(x, t), F.binary_cross_entropy(x, t))
print(F.cross_entropy(x, torch.tensor([0, 1, 2, 0], device="meta")))
print(F.nll_loss(x, torch.tensor([0, 1, 2, 0], device="meta"), reduction="none"))
y = (x @ w).relu().mean()
y.backward()
print(y, x.grad, x.grad.device)
print(F.dropout(x, 0.5), x.var(), x.std(dim=0), x.norm(), x.argmax(dim=1), x.argmin(), x.max(dim=1), x.min(0, True))
print(x.repeat(2, 1, 3), x.split(3), x.chunk(2, dim=1), x.unbind(1), x.clone(), x.detach(), torch.outer(x[0], x[1]))
print(torch.bmm(torch.rand(2, 3, 4, device="meta"), torch.rand(2, 4, 5, device="meta")), x.sum(dim=(0, 1), keepdim=True))
z = torch.rand(3, device="meta")
print(z.add_(1), z.mul_(2), z.zero_(), z.fill_(1.), z.normal_(), z.uniform_(), z.exp_(), z.bernoulli_(), z.clamp_(0, 1))
print(torch.nn.BCEWithLogitsLoss()(x, t), torch.ones(3, dtype=torch.int64, device="meta").sum())
try:
    F.cross_entropy(x, torch.tensor([0, 1, 2, 0]))
except RuntimeError as e:
    print(e)
model = torch.nn.Linear(3, 2, device="meta")
for opt in (torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), torch.optim.Adam(model.parameters())):
    model(torch.rand(5, 3, device="meta")).pow(2).mean().backward()
    opt.step()
    opt.zero_grad()
    print(model.weight, model.weight.grad, model.bias)
"""

LAYERS = """
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
t = torch.rand(2, 3, 10, 10, device="meta")
conv = nn.Conv2d(3, 5, 2, device="meta")
print(conv.weight, conv.bias)
print(conv(t), F.max_pool2d(conv(t), 2), F.avg_pool2d(t, 3, stride=2, padding=1), nn.AdaptiveAvgPool2d((2, 3))(t))
print(nn.Conv2d(3, 4, 3, stride=2, padding=1, dilation=2, device="meta")(t))
print(nn.Conv1d(3, 2, 4, device="meta")(torch.rand(5, 3, 9, device="meta")))
print(conv(torch.rand(2**10, 3, 2**16, 2**16, device="meta")))
lin = nn.Linear(6, 2, device="meta")
print(lin(torch.rand(7, 6, device="meta")), lin(torch.rand(6, device="meta")), lin(torch.rand(2, 3, 6, device="meta")))
bn = nn.BatchNorm2d(3, device="meta")
print(bn(t), bn.running_mean, bn.num_batches_tracked, nn.LayerNorm(10, device="meta")(t))
emb = nn.Embedding(10, 4, device="meta")
print(emb(torch.tensor([[1, 2], [3, 4]])), emb(torch.tensor([1, 2], device="meta")))
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).to("meta")
print(model[0].weight, model(torch.rand(5, 3, device="meta")))
with torch.device("meta"):
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
    inp = torch.randn((8, 3))
    print(torch.get_default_device(), torch.ones(2), torch.tensor([1., 2.]), torch.ones(2, device="cpu"))
print(torch.get_default_device(), net(inp), net[0].bias, torch.ones(2))
torch.set_default_device("meta")
print(torch.zeros(3), nn.Linear(2, 2).weight, torch.get_default_device())
torch.set_default_device("cpu")
print(torch.zeros(3), torch.rand(2))
"""

INDEXING = """
import torch
x = torch.rand(4, 5, 6, device="meta", requires_grad=True)
i = torch.tensor([0, 2, 1])
for f in [lambda: x[[0, 1]], lambda: x[i], lambda: x[:, i], lambda: x[:, :, i], lambda: x[i, :, i], lambda: x[i, i],
          lambda: x[:, i, i], lambda: x[1, i], lambda: x[..., i], lambda: x[None, i], lambda: x[i, None], lambda: x[i, 1:3, [[0], [1]]],
          lambda: x[torch.tensor([[0, 1], [2, 3]])], lambda: x[i.to("meta")], lambda: x[x > 0], lambda: x[torch.tensor([True, False, True, True])],
          lambda: x[:, 1, i], lambda: x[0, :, [0, 1]], lambda: torch.rand(10**6, 10**6, device="meta")[torch.tensor([5, 7])]]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e)[:80])
"""

ERRORS = [
    'torch.rand(2, 3, device="meta").item()',
    'torch.rand((), device="meta").item()',
    'torch.rand(1, device="meta").item()',
    'torch.rand(2, device="meta").tolist()',
    'torch.rand(2, device="meta").numpy()',
    'bool(torch.rand((), device="meta"))',
    'bool(torch.rand(2, device="meta"))',
    'float(torch.rand((), device="meta"))',
    'int(torch.rand((), device="meta"))',
    'torch.rand(2, device="meta").cpu()',
    'torch.rand(2, device="meta").to("cpu")',
    'torch.rand(3, device="meta") + torch.ones(3)',
    'torch.ones(3) + torch.rand(3, device="meta")',
    "f'{torch.rand((), device=\"meta\"):.3f}'",
    'torch.nn.Linear(2, 2).to("meta").to("cpu")',
    'torch.rand(2, 3, device="meta") @ torch.rand(2, 3, device="meta")',
    'torch.rand(3, device="meta", dtype=torch.int64)',
    'torch.rand(2, device="cuda")',
]


def test_meta_factories_print_like_torch() -> None:
    assert run_ours(FACTORIES) == run_torch(FACTORIES)


def test_ops_on_meta_tensors_give_torch_shapes_dtypes_and_grad_fns() -> None:
    assert run_ours(OPS) == run_torch(OPS)


def test_layers_on_the_meta_device_and_the_default_device() -> None:
    import torch

    try:
        want = run_torch(LAYERS)
    finally:
        torch.set_default_device(None)  # (the process's own default, whatever the program did)
    assert run_ours(LAYERS) == want


def test_advanced_indexing_of_meta_tensors_by_pytorchs_rule() -> None:
    assert run_ours(INDEXING) == run_torch(INDEXING)


def _error(code: str) -> str:
    return f"import torch\ntry:\n    print({code})\nexcept Exception as e:\n    print(type(e).__name__, e)\n"


@pytest.mark.parametrize("code", ERRORS)
def test_reading_values_of_a_meta_tensor_raises_torch_errors(code: str) -> None:
    program = _error(code)
    want = run_torch(program)
    assert run_ours(program) == want


def test_the_recipe_shapes_in_the_sandbox_and_no_values_in_the_trace() -> None:
    code = (
        "import torch\nt = torch.rand(2, 3, 10, 10, device='meta')\nconv = torch.nn.Conv2d(3, 5, 2, device='meta')\n"
        "out = conv(t)\nprint(out)\nprint(conv(torch.rand(2**10, 3, 2**16, 2**16, device='meta')).shape)\n"
    )
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == run_torch(code)
    tensors = [e for e in result.events if e["type"] == "tensor"]
    assert tensors and all(e["values"] is None for e in tensors)
    assert tensors[-1]["shape"] == [1024, 5, 65535, 65535] and tensors[-1]["op"] == "ConvolutionBackward0"


def test_a_meta_tensor_of_ten_to_the_thirteen_elements_costs_no_memory() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    code = (
        "import torch\nx = torch.rand(10**6, 10**7, device='meta', requires_grad=True)\n"
        "y = (x * 2 + 1).relu().sum(dim=1)\nz = y.mean()\nz.backward()\nprint(y, z, x.grad)\n"
        "print(x.view(10, -1), x.t(), x.permute(1, 0)[0], x[:, 1:], x.unsqueeze(1).squeeze(1), x[None].expand(3, -1, -1))\n"
        "print(x.flip(0), x.triu(), x.reshape(-1).sum(), torch.cat([x, x]), x.to(torch.float64), x.clone())\n"
    )
    result = engine.run(code, seed=0)
    assert result.error is None, result.error
    assert result.stdout == run_torch(code)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KiB: nothing like 4·10^13 bytes


def test_the_limits_still_count_what_is_really_allocated() -> None:
    code = "import torch\nx = torch.rand(10**6, 10**6, device='meta')\nprint(x.shape)\ny = torch.zeros(10**6, 10**6)\n"
    result = engine.run(code, seed=0)
    assert result.stdout == "torch.Size([1000000, 1000000])\n"
    assert result.error is not None and result.error["type"] == "LimitExceeded" and result.error["line"] == 4


def test_an_op_without_a_meta_rule_says_so() -> None:
    result = engine.run("import torch\nx = torch.rand(3, device='meta')\nprint(x.diag())\n")
    assert result.error is not None and result.error["type"] == "NotImplementedError"
    assert "Meta tensors" in result.error["message"] and result.error["line"] == 3


def test_a_meta_array_never_becomes_a_numpy_array() -> None:
    import numpy as np

    from engine.meta import NO_DATA, MetaArray

    a = MetaArray((10**7, 10**7), np.float32)
    with pytest.raises(NotImplementedError, match=NO_DATA.split(";")[0]):
        np.asarray(a)
    with pytest.raises(NotImplementedError):
        np.add(a, 1)
    assert a.nbytes == 4 * 10**14 and a.reshape(10**7, 10, -1).shape == (10**7, 10, 10**6)


@pytest.mark.parametrize(
    "code",
    [
        "x = torch.rand(10**12, device='meta')\nwhile True:\n    x = x * 2 + 1\n",
        "x = torch.rand(10**12, device='meta', requires_grad=True)\nwhile True:\n    x = x * 2 + 1\n",
        "x = torch.rand(10**9, 3, device='meta')\nfor row in x:\n    pass\n",
        "x = torch.rand(10**6, device='meta')\nys = [x.view(1000, 1000)[0] for _ in range(10**9)]\n",
        "with torch.device('meta'):\n    while True:\n        m = torch.nn.Linear(10**6, 10**6)\n",
    ],
)
def test_runaway_loops_over_meta_tensors_still_end_at_a_limit(code: str) -> None:
    result = engine.run("import torch\n" + code, seed=0)
    assert result.error is not None and result.error["type"] == "LimitExceeded", result.error
    assert result.limit_hit


def test_the_default_device_is_the_runs_own() -> None:
    first = engine.run("import torch\ntorch.set_default_device('meta')\nprint(torch.ones(1))\n", seed=0)
    assert first.stdout == "tensor(..., device='meta', size=(1,))\n"
    inside = engine.run("import torch\nwith torch.device('meta'):\n    raise ValueError('out')\n", seed=0)
    assert inside.error is not None and inside.error["type"] == "ValueError"
    after = engine.run("import torch\nprint(torch.ones(1), torch.get_default_device())\n", seed=0)
    assert after.stdout == "tensor([1.]) cpu\n"

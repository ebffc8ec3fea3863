"""engine/ops/conv.py and engine/ops/pooling.py (and their layers in engine/nn/conv.py) against PyTorch 2.13:
values, printing, grad_fn names and next_functions, gradients, module printing after a seed, and PyTorch's errors.

What is asserted how:
- convolutions: values and gradients ``allclose`` with a tight tolerance (PyTorch's oneDNN kernels block their
  sums their own way; the engine sums in float64 and rounds once), and printing equal exactly: at PyTorch's
  default precision on random inputs (``CASES``, via test_ops), and ``print(out)`` of integer-valued inputs
  whatever the precision (no rounding can differ there);
- pooling: values and gradients bit for bit (max is exact; the average's window sums are taken in PyTorch's order).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from engine.run_state import RunState, use_state
from tests.engine.helpers import namespaces, node_names, run_ours, run_torch
from tests.engine.test_create_graph import test_second_derivatives_match_torch as check_second_derivatives
from tests.engine.test_ops import test_op_matches_torch as check_op

# on test_ops's inputs: t3 is (2, 3, 4), m is (2, 3), n is (3, 4), b is (4,)
CASES = [
    "F.conv2d(t3.view(1, 2, 3, 4), n.view(1, 1, 3, 4).expand(2, 2, 3, 4) * 0.5)",
    "F.conv2d(t3.unsqueeze(0), torch.ones(3, 2, 2, 2), b[:3])",
    "F.conv2d(t3, torch.ones(1, 2, 2, 3), padding=1, stride=(2, 1))",
    "F.conv2d(t3.unsqueeze(0), (n[:2, :2] * 1).reshape(2, 1, 1, 2), groups=2, dilation=2, padding='same')",
    "F.pad(t3, (1, 2))",
    "F.pad(m, (0, 1, 2, 0), value=-1.5)",
    "F.conv2d(t3.unsqueeze(0).expand(2, 2, 3, 4), m.view(1, 2, 3, 1), padding='valid')",
    "F.conv1d(t3, t3[:, :, :2] * 1, stride=2)",
    "F.conv1d(m, n[:, :2].reshape(3, 1, 2).expand(3, 2, 2) * 1)",
    "F.conv1d(t3, torch.ones(4, 3, 3), b, padding=2, dilation=2)",
    "F.max_pool2d(t3, 2)",
    "F.max_pool2d(t3.unsqueeze(0), (2, 3), stride=1, padding=1)",
    "F.max_pool2d(t3, 2, ceil_mode=True)",
    "F.max_pool2d(t3, 2, 1, dilation=(1, 2))",
    "F.avg_pool2d(t3, 2)",
    "F.avg_pool2d(t3.unsqueeze(0), 3, stride=2, padding=1)",
    "F.avg_pool2d(t3, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
    "F.avg_pool2d(t3, 2, 1, divisor_override=3)",
    "F.max_pool1d(t3, 2)",
    "F.max_pool1d(m, 2, 1, 1)",
    "F.avg_pool1d(t3, 3, 2, 1)",
    "F.avg_pool1d(m, 2, ceil_mode=True)",
    "F.adaptive_avg_pool2d(t3, (2, 3))",
    "F.adaptive_avg_pool2d(t3.unsqueeze(0), 1)",
    "F.adaptive_avg_pool2d(t3, (None, 2))",
]


@pytest.mark.parametrize("expr", CASES)
def test_conv_and_pooling_match_torch(expr: str) -> None:
    check_op(expr)


def test_same_padding_of_an_even_kernel_pads_the_input_first_as_torch_does() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's note that the input is copied
        check_op("F.conv2d(t3, (n[:2, :2] * 1).reshape(2, 1, 1, 2), groups=2, padding='same')")


def _both(code: str, names: tuple[str, ...]) -> tuple[dict, dict]:
    """Run ``code`` on torch and on the engine (same seedless inputs from numpy), returning both environments."""
    rng = np.random.default_rng(7)
    arrays = {
        "x": rng.standard_normal((2, 3, 9, 8)).astype(np.float32),
        "w": rng.standard_normal((4, 3, 3, 2)).astype(np.float32),
        "wg": rng.standard_normal((6, 1, 3, 3)).astype(np.float32),
        "bias": rng.standard_normal(4).astype(np.float32),
        "g": rng.standard_normal((2, 3, 9, 8)).astype(np.float32),
    }
    tns, ons = namespaces()
    theirs = {**tns, **{k: torch.tensor(v, requires_grad=k != "g") for k, v in arrays.items()}}
    with use_state(RunState()):
        T = ons["torch"]
        ours = {**ons, **{k: T.tensor(v.tolist(), requires_grad=k != "g") for k, v in arrays.items()}}
        exec(code, theirs)
        exec(code, ours)
    return theirs, ours


CONV_PROGRAMS = [
    "y = F.conv2d(x, w, bias, stride=(2, 1), padding=(1, 2), dilation=(2, 1))",
    "y = F.conv2d(x, wg, None, padding='same', groups=3, dilation=2)",
    "y = F.conv2d(x[0], w, bias, stride=3)",
    "y = F.conv1d(x[:, :, 0], w[:, :, :, 0], bias, padding=1)",
]


@pytest.mark.parametrize("code", CONV_PROGRAMS)
def test_conv_values_and_gradients_are_close_to_torch(code: str) -> None:
    """allclose, tight: rtol 1e-5, atol 1e-6 (the engine's sums are float64, rounded once)."""
    theirs, ours = _both(code + "\n(y * y).sum().backward()", ("x", "w", "wg", "bias"))
    with use_state(RunState()):
        assert node_names(ours["y"]) == node_names(theirs["y"])
        np.testing.assert_allclose(ours["y"]._data, theirs["y"].detach().numpy(), rtol=1e-5, atol=1e-6)
        for name in ("x", "w", "wg", "bias"):
            tg, og = theirs[name].grad, ours[name]._grad
            assert (tg is None) == (og is None), name
            if tg is not None:
                np.testing.assert_allclose(og._data, tg.numpy(), rtol=1e-5, atol=1e-5, err_msg=name)


POOL_PROGRAMS = [
    "y = F.max_pool2d(x, 2)",
    "y = F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)",
    "y = F.max_pool2d(x, (2, 3), stride=1, dilation=(2, 1))",
    "y = F.avg_pool2d(x, 2)",
    "y = F.avg_pool2d(x, 3, stride=2, padding=1)",
    "y = F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
    "y = F.adaptive_avg_pool2d(x, (4, 3))",
    "y = F.max_pool2d(x.round(), 2)",  # ties: the first maximum wins
]


@pytest.mark.parametrize("code", POOL_PROGRAMS)
def test_pooling_is_bit_exact(code: str) -> None:
    theirs, ours = _both(code + "\ny.backward(g[:, :, :y.shape[2], :y.shape[3]] * 3)", ("x",))
    assert node_names(ours["y"]) == node_names(theirs["y"])
    assert np.array_equal(ours["y"]._data, theirs["y"].detach().numpy())
    assert np.array_equal(ours["x"]._grad._data, theirs["x"].grad.numpy())


HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

PROGRAMS = [
    # integer-valued inputs: every printed digit is the same whatever the order of the sums
    "x = torch.arange(32.).view(1, 2, 4, 4).requires_grad_()\nw = torch.arange(-4., 14.).view(1, 2, 3, 3)\n"
    "y = F.conv2d(x, w, torch.tensor([1.]), padding=1)\nprint(y)\ny.sum().backward()\nprint(x.grad)\n"
    "torch.set_printoptions(precision=10)\nprint(F.conv1d(x[0, :, 0], w[:, :, 0] * 0.5))\n"
    "torch.set_printoptions(precision=4)",
    "torch.manual_seed(0)\nprint(nn.Conv2d(1, 6, 5))\n"
    "print(nn.Conv2d(1, 6, 3, stride=2, padding=1, bias=False, dilation=2))\n"
    "print(nn.Conv2d(4, 4, (3, 2), padding='same', groups=2))\nprint(nn.Conv1d(2, 3, 3, padding='valid'))\n"
    "c = nn.Conv2d(2, 3, 2)\nprint(c.weight)\nprint(c.bias)\nprint(c(torch.randn(1, 2, 3, 3)))",
    "print(nn.MaxPool2d(2), nn.MaxPool2d((2, 2), 1, 1), nn.AvgPool2d(2))\n"
    "print(nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False), nn.AdaptiveAvgPool2d((1, 1)))\n"
    "x = torch.arange(16.).view(1, 1, 4, 4).requires_grad_()\ny, i = F.max_pool2d(x, 2, return_indices=True)\n"
    "print(y, i)\nprint(nn.MaxPool2d(2, return_indices=True)(x)[1])\nprint(nn.MaxPool1d(2), nn.AvgPool1d(3, 2, 1))\n"
    "print(nn.MaxPool1d(3, return_indices=True)(x[0]), nn.AvgPool1d(2)(x[0, 0]))\n"
    "print(nn.AvgPool2d(2)(x), nn.AdaptiveAvgPool2d(1)(x))",
    "torch.manual_seed(1)\n"
    "net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 8, 3, padding=1),"
    " nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(8, 3))\nprint(net)\n"
    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nx = torch.randn(4, 1, 10, 10)\nt = torch.tensor([0, 1, 2, 1])\n"
    "for i in range(3):\n    opt.zero_grad()\n    loss = F.cross_entropy(net(x), t)\n    loss.backward()\n"
    "    opt.step()\n"
    "    print(i, round(loss.item(), 5))\nprint(net[0].bias.grad.shape, net(x).grad_fn.name())",
]


DROPOUT = """torch.manual_seed(0)
x = torch.ones(2, 3, 2, 2, requires_grad=True)
y = F.dropout2d(x, 0.5)
print(y[:, :, 0, 0], y.grad_fn.name())
y.sum().backward()
print(x.grad[:, :, 0, 0])
d = nn.Dropout2d(0.25)
print(d, nn.Dropout1d())
print(d(torch.ones(3, 4, 1, 1)).view(3, 4))
print(F.dropout1d(torch.ones(4, 5), 0.5))
print(nn.Dropout1d(0.3)(torch.ones(2, 4, 3))[:, :, 0])
d.eval()
print(d(torch.ones(1, 2, 1, 1)).view(-1))
print(F.dropout2d(torch.ones(2, 3, 1, 1), p=1.0).view(-1), F.dropout2d(torch.ones(2, 3, 1, 1), training=False).view(-1))
"""


def test_channel_dropout_draws_torchs_masks() -> None:
    """nn.Dropout1d/Dropout2d and their F. forms: one draw per (sample, channel), PyTorch's mask for the seed."""
    assert run_ours(HEADER + DROPOUT) == run_torch(HEADER + DROPOUT)


SAVED = """x = torch.ones(1, 2, 5, 5, requires_grad=True)
y = F.conv2d(x, torch.ones(3, 2, 3, 3), stride=2, padding=1)
f = y.grad_fn
print(f._saved_stride, f._saved_padding, f._saved_dilation, f._saved_groups, f._saved_transposed)
print(f._saved_output_padding, f._saved_bias_sym_sizes_opt)
print(f._saved_input.shape, f._saved_weight.shape)
p = F.max_pool2d(x, 2)
print(p.grad_fn._saved_kernel_size, p.grad_fn._saved_stride, p.grad_fn._saved_padding, p.grad_fn._saved_dilation)
print(p.grad_fn._saved_ceil_mode, p.grad_fn._saved_result1)
a = F.avg_pool2d(x, 3, 1, 1)
print(a.grad_fn._saved_kernel_size, a.grad_fn._saved_count_include_pad, a.grad_fn._saved_divisor_override)
bn = nn.BatchNorm1d(2)
o = bn(torch.tensor([[1., 2.], [3., 5.]], requires_grad=True))
print(o.grad_fn._saved_eps, o.grad_fn._saved_training, o.grad_fn._saved_result1, o.grad_fn._saved_result2)
print(bn.state_dict())
e = F.embedding(torch.tensor([1, 0]), torch.ones(3, 2, requires_grad=True))
print(e.grad_fn._saved_indices, e.grad_fn._saved_padding_idx, e.grad_fn._saved_weight_sym_argsize_0)
ln = F.layer_norm(torch.tensor([[1., 2., 4.]], requires_grad=True), (3,))
print(ln.grad_fn._saved_normalized_shape, ln.grad_fn._saved_result1, ln.grad_fn._saved_result2)
s = torch.zeros(3, requires_grad=True).scatter_add(0, torch.tensor([0, 0]), torch.ones(2))
print(s.grad_fn._saved_dim, s.grad_fn._saved_index)
i = torch.zeros(3, requires_grad=True).index_add(0, torch.tensor([0, 2]), torch.ones(2), alpha=2)
print(i.grad_fn._saved_alpha, i.grad_fn._saved_dim, i.grad_fn._saved_source_dim)
l = F.smooth_l1_loss(torch.ones(2, requires_grad=True), torch.zeros(2), beta=0.5)
print(l.grad_fn._saved_beta, l.grad_fn._saved_reduction)
"""


def test_saved_values_of_the_new_nodes_print_like_torch() -> None:
    """``y.grad_fn._saved_*`` of every node added with the conv-net layers (PyTorch's spellings: bias sizes (0,)
    without a bias, a default stride (), the reduction as its enum's int, a missing padding_idx as -1 unsigned)."""
    assert run_ours(HEADER + SAVED) == run_torch(HEADER + SAVED)


@pytest.mark.parametrize("code", PROGRAMS)
def test_conv_programs_print_like_torch(code: str) -> None:
    assert run_ours(HEADER + code) == run_torch(HEADER + code)


def test_the_neural_networks_tutorial_prints_like_torch() -> None:
    """The official "Neural Networks" tutorial (LeNet), its printing, its loss and one manual and three SGD steps."""
    code = HEADER + TUTORIAL
    address = re.compile(r" at 0x[0-9a-f]+")
    assert address.sub("", run_ours(code)) == address.sub("", run_torch(code))


TUTORIAL = """torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        return self.fc3(f6)

net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
output = net(input)
target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print(net.conv1.bias.grad)
loss.backward()
print(net.conv1.bias.grad)
for f in net.parameters():
    f.data.sub_(f.grad.data * 0.01)
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
for i in range(3):
    optimizer.zero_grad()
    loss = criterion(net(input), target)
    loss.backward()
    optimizer.step()
    print(loss)
"""

ERRORS = [
    "F.conv2d(torch.randn(3, 3), torch.randn(6, 1, 5, 5))",
    "F.conv2d(torch.randn(1, 3, 32, 32), torch.randn(6, 1, 5, 5))",
    "F.conv2d(torch.randn(1, 1, 4, 4), torch.randn(6, 1, 5, 5))",
    "F.conv2d(torch.randn(1, 4, 8, 8), torch.randn(6, 2, 3, 3), groups=3)",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), stride=2, padding='same')",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), padding='foo')",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), torch.randn(5))",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), stride=0)",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), padding=-1)",
    "F.conv2d(torch.randn(1, 1, 8, 8).double(), torch.randn(6, 1, 5, 5))",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5).double())",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), stride=(1, 1, 1))",
    "F.conv2d(torch.randn(1, 1, 8, 8), torch.randn(6, 5, 5))",
    "F.conv1d(torch.randn(1, 2, 8), torch.randn(3, 2, 9))",
    "F.conv1d(torch.randn(1, 2, 8, 8), torch.randn(3, 2, 2))",
    "nn.Conv2d(1, 6, 5)(torch.randn(3, 32, 32))",
    "nn.Conv2d(4, 6, 5, groups=3)",
    "nn.Conv2d(4, 6, 5, padding='same', stride=2)",
    "F.max_pool2d(torch.randn(1, 1, 4, 4), 2, padding=2)",
    "F.max_pool2d(torch.randn(1, 1, 1, 1), 2)",
    "F.max_pool2d(torch.randn(4, 4), 2)",
    "F.avg_pool2d(torch.randn(4, 4), 2)",
    "F.avg_pool2d(torch.randn(1, 1, 1, 1), 2)",
    "F.avg_pool2d(torch.randn(1, 1, 4, 4), 2, padding=2)",
    "nn.MaxPool2d(2)([1.])",
    "F.dropout1d(torch.ones(1, 2, 3, 4))",
    "nn.Dropout2d(1.5)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_match_torch(expr: str) -> None:
    tns, ons = namespaces()
    with pytest.raises(Exception) as want:
        eval(expr, {**tns, "nn": torch.nn})
    with use_state(RunState()), pytest.raises(Exception) as got:
        eval(expr, {**ons, "nn": ons["torch"].nn})
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


def test_create_graph_through_a_convolution_is_refused_in_words() -> None:
    _, ons = namespaces()
    with use_state(RunState()):
        T = ons["torch"]
        x = T.ones(1, 1, 3, 3, requires_grad=True)
        y = ons["F"].conv2d(x, T.ones(1, 1, 2, 2)).sum()
        with pytest.raises(NotImplementedError, match="create_graph=True through ConvolutionBackward0"):
            T.autograd.grad(y, x, create_graph=True)


@pytest.mark.parametrize(
    "expr",
    [
        "F.max_pool2d((x * x).view(1, 1, 1, 3).expand(1, 2, 2, 3), (2, 2), 1).sum()",
        "(F.max_pool2d(x.view(1, 1, 3) ** 3, (1, 2), 1) * x[:2]).sum()",
    ],
)
def test_max_pool_has_second_derivatives_like_torch(expr: str) -> None:
    check_second_derivatives(expr)


@pytest.mark.parametrize("chunk", [1 << 20, 300, 1])  # whole batches, a few samples, one tap at a time
def test_every_kernel_path_gives_torchs_values(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.ops import conv_kernels

    monkeypatch.setattr(conv_kernels, "CHUNK", chunk)
    for code in CONV_PROGRAMS[:2]:
        test_conv_values_and_gradients_are_close_to_torch(code)


def test_a_convolution_too_big_for_the_budget_is_refused_before_it_runs() -> None:
    import engine

    code = (
        "import torch\nx = torch.ones(1, 1, 1000, 2000)\nw = torch.ones(3, 1, 1, 1)\n"
        "y = torch.nn.functional.conv2d(x, w)\n"
    )
    result = engine.run(code)  # the input is allowed, the output (6,000,000 elements) is not
    assert result.error is not None and result.error["type"] == "LimitExceeded" and result.error["line"] == 4
    assert "a tensor of 6000000 elements" in result.error["message"]
    ok = engine.run(
        "import torch\ny = torch.nn.functional.conv2d(torch.ones(2, 3, 64, 64), torch.ones(8, 3, 3, 3))\n"
        "print(y.shape, y[0, 0, 0, 0])"
    )
    assert ok.error is None and ok.stdout == "torch.Size([2, 8, 62, 62]) tensor(27.)\n"


@pytest.mark.parametrize(
    "call",
    [
        "F.max_pool2d(torch.ones(1, 1, 1000, 1000), 1000)",
        "F.avg_pool2d(torch.ones(1, 1, 1000, 1000), 999, 1)",
        "F.adaptive_avg_pool2d(torch.ones(1, 1, 1000, 1000), (999, 999))",
        "F.conv2d(torch.ones(1, 1, 1000, 1000), torch.ones(1, 1, 1000, 1000))",
        "F.conv2d(torch.ones(1, 1, 1000, 1000), torch.ones(1, 1, 300, 300))",
    ],
)
def test_kernels_whose_work_is_huge_are_refused_before_they_run(call: str) -> None:
    """A million taps or 10¹⁰ multiply-adds are charged to the step budget up front: refused at once, not after
    minutes of work (each finishes well under the run's time limit)."""
    import time

    import engine

    started = time.monotonic()
    result = engine.run(f"import torch\nimport torch.nn.functional as F\ny = {call}\nprint(y.shape)")
    assert result.error is not None and "step limit" in result.error["message"] and result.error["line"] == 3
    assert time.monotonic() - started < 3.0

# %% second_backward
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)
y.backward()
# %% second_backward_caught
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
# %% leaf_inplace
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
x += 1
# %% leaf_inplace_method
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.add_(1.0)
# %% leaf_inplace_caught
import torch
w = torch.ones(3, requires_grad=True)
try:
    w.mul_(2)
except RuntimeError as err:
    print("caught:", err)
# %% int_requires_grad
import torch
x = torch.tensor([1, 2, 3], requires_grad=True)
# %% int_requires_grad_method
import torch
x = torch.arange(3)
x.requires_grad_()
# %% no_grad_backward
import torch
x = torch.tensor([1.0, 2.0])
y = (x * 2).sum()
y.backward()
# %% no_grad_ctx_backward
import torch
x = torch.tensor(1.0, requires_grad=True)
with torch.no_grad():
    y = x * 2
y.backward()
# %% detached_backward
import torch
x = torch.tensor(1.0, requires_grad=True)
y = (x * 2).detach()
y.backward()
# %% nonscalar_backward
import torch
x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward()
# %% shape_mismatch_add
import torch
a = torch.ones(2, 3)
b = torch.ones(3, 2)
c = a + b
# %% matmul_mismatch
import torch
a = torch.ones(2, 3)
b = torch.ones(2, 3)
c = a @ b
# %% mm_mismatch_caught
import torch
a = torch.randn(4, 5)
b = torch.randn(4, 5)
try:
    a.mm(b)
except RuntimeError as e:
    print(e)
# %% view_invalid
import torch
x = torch.arange(6)
y = x.view(4, 2)
# %% index_out_of_range
import torch
x = torch.tensor([1.0, 2.0, 3.0])
print(x[3])
# %% item_multi
import torch
x = torch.tensor([1.0, 2.0])
v = x.item()
# %% version_counter
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.exp()
y.add_(1)
z.sum().backward()
# %% version_counter_sigmoid
import torch
a = torch.tensor([0.5, -0.5], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
b.sum().backward()
# %% inplace_on_view_ok_then_error
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.clone()
y[0] = 5.0
y.sum().backward()
print(x.grad)
z = x ** 2
z.sum().backward()
z.sum().backward()
# %% grad_non_leaf_warning_none
import torch
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad is None)
print(x.grad)
# %% autograd_grad_unused
import torch
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
y = a * 2
g = torch.autograd.grad(y, [a, b])
# %% autograd_grad_allow_unused
import torch
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
y = a * 2
g = torch.autograd.grad(y, [a, b], allow_unused=True)
print(g)
# %% autograd_grad_twice
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
torch.autograd.grad(y, x)
torch.autograd.grad(y, x)
# %% dtype_mismatch_matmul
import torch
a = torch.ones(2, 2)
b = torch.ones(2, 2, dtype=torch.float64)
print(a @ b)
# %% cat_dim_mismatch
import torch
a = torch.ones(2, 3)
b = torch.ones(2, 2)
c = torch.cat([a, b], dim=0)
# %% linear_shape_error
import torch
import torch.nn as nn
layer = nn.Linear(3, 2)
x = torch.ones(4, 5)
out = layer(x)
# %% unsupported_numpy_on_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
n = x.numpy()
# %% try_finally_prints
import torch
x = torch.tensor(3.0, requires_grad=True)
try:
    y = x ** 2
    y.backward()
    y.backward()
except RuntimeError:
    print("second backward refused")
finally:
    print("grad:", x.grad)
# %% python_error_in_loop
import torch
values = [torch.tensor(1.0), torch.tensor(2.0)]
for i in range(3):
    print(values[i])
# %% assert_fails
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
assert y.shape == (3,), "wrong shape"
# %% key_error
import torch
d = {"a": torch.tensor(1.0)}
print(d["b"])
# %% zero_dim_index
import torch
x = torch.tensor(5.0)
print(x[0])
# %% requires_grad_nonleaf_set
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x * 2
y.requires_grad = False
# %% optimizer_empty
import torch
opt = torch.optim.SGD([], lr=0.1)
# %% cross_entropy_bad_target
import torch
import torch.nn.functional as F
logits = torch.randn(2, 3)
target = torch.tensor([0.0, 1.0])
loss = F.cross_entropy(logits, target)
# %% mean_of_long
import torch
x = torch.tensor([1, 2, 3])
print(x.mean())
# %% grad_after_no_grad_inplace
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
with torch.no_grad():
    y *= 2
y.sum().backward()
# %% backward_on_int
import torch
x = torch.tensor(2.0, requires_grad=True)
y = (x * 2).long()
y.backward()
# %% call_nonexistent_method
import torch
x = torch.tensor([1.0])
x.foo()
# %% stack_mismatch
import torch
a = torch.ones(2)
b = torch.ones(3)
s = torch.stack([a, b])
# %% reshape_invalid
import torch
x = torch.arange(10)
y = x.reshape(3, -1)
# %% optimizer_step_noop
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
opt.step()
print(w)
loss = w.sum()
loss.backward()
loss.backward()
opt.step()
print(w)
x = w * w
x.backward()
x.backward()
# %% unsqueeze_out_of_range
import torch
x = torch.ones(3)
y = x.unsqueeze(2)
# %% sum_dim_out_of_range
import torch
x = torch.ones(2, 3)
print(x.sum(dim=2))
# %% cross_entropy_wrong_shape
import torch
import torch.nn as nn
loss = nn.CrossEntropyLoss()
out = loss(torch.randn(3, 5), torch.tensor([1, 2]))
# %% mse_shape_warning_then_error
import torch
import torch.nn.functional as F
a = torch.ones(2, 3)
b = torch.ones(3, 2)
loss = F.mse_loss(a, b)
# %% linear_int_input
import torch
import torch.nn as nn
layer = nn.Linear(2, 1)
out = layer(torch.tensor([[1, 2]]))
# %% requires_grad_on_nonleaf_ok
import torch
x = torch.tensor(1.0)
y = x * 2
y.requires_grad_()
z = y * 3
z.backward()
print(y.grad, x.grad)
# %% grad_none_zero
import torch
x = torch.tensor([1.0], requires_grad=True)
x.grad.zero_()
# %% error_inside_function
import torch
def forward(x):
    h = x * 2
    return h @ torch.ones(3)
x = torch.ones(2)
out = forward(x)
# %% view_after_transpose
import torch
x = torch.arange(6.0).view(2, 3)
y = x.t()
z = y.view(6)
# %% cat_ndim_mismatch
import torch
a = torch.ones(2, 2)
b = torch.ones(2)
c = torch.cat([a, b])
# %% too_many_indices
import torch
x = torch.ones(2, 2)
print(x[0, 0, 0])
# %% linear_1d_mismatch
import torch
import torch.nn as nn
layer = nn.Linear(2, 3)
print(layer(torch.ones(3)))
# %% autograd_grad_no_grad_output
import torch
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0)
torch.autograd.grad(y, x)
# %% python_type_error
import torch
x = torch.tensor(1.0)
print("value: " + x)
# %% zero_division
import torch
x = torch.tensor(0.0)
print(1 / x)
print(1 / x.item())
# %% hook_error_line
import torch
x = torch.tensor(1.0, requires_grad=True)
def bad_hook(g):
    return g.view(2)
x.register_hook(bad_hook)
(x * 2).backward()
# %% inplace_exp_saved_result
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.exp(x)
y += 1
y.sum().backward()
# %% leaf_view_inplace
import torch
x = torch.ones(3, requires_grad=True)
x[0] = 5.0
# %% bool_ambiguous
import torch
x = torch.tensor([1.0, 2.0])
if x > 1:
    print("yes")
# %% float_requires_grad_kw
import torch
x = torch.zeros(3, dtype=torch.long, requires_grad=True)
# %% backward_twice_sigmoid
import torch
x = torch.tensor([0.5], requires_grad=True)
y = torch.sigmoid(x).sum()
y.backward()
y.backward()
# %% softmax_no_dim_then_error
import torch
x = torch.tensor([[1.0, 2.0]])
print(torch.softmax(x, dim=2))
# %% mse_loss_shape_broadcast_warning
import torch
import torch.nn as nn
loss_fn = nn.MSELoss()
pred = torch.ones(4, 1)
target = torch.zeros(4)
print(loss_fn(pred, target))
# %% randint_bad_range
import torch
print(torch.randint(5, 3, (2,)))
# %% error_messages_catalog
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 3, requires_grad=True)
i = torch.tensor([1, 2])
cases = [
    lambda: x + torch.ones(3, 2),
    lambda: x @ x,
    lambda: x.view(4),
    lambda: x.reshape(5),
    lambda: x[2],
    lambda: x[:, 5],
    lambda: x.sum(dim=3),
    lambda: x.mean(dim=-3),
    lambda: x.transpose(0, 2),
    lambda: x.permute(0),
    lambda: x.squeeze(4),
    lambda: x.unsqueeze(5),
    lambda: x.expand(3, 3),
    lambda: torch.cat([x, torch.ones(2, 2)]),
    lambda: torch.stack([x, torch.ones(2, 2)]),
    lambda: torch.tensor([1, 2], requires_grad=True),
    lambda: i.float().requires_grad_().long().requires_grad_(),
    lambda: x.item(),
    lambda: x.backward(),
    lambda: torch.ones(2).backward(),
    lambda: x.add_(1),
    lambda: x.zero_(),
    lambda: x.mean(dim=0).backward(torch.ones(3, 1)),
    lambda: i.mean(),
    lambda: F.softmax(x, dim=3),
    lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])),
    lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0])),
    lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([0.0, 1.0])),
    lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0, 0.0])),
    lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])),
    lambda: nn.Linear(3, 2)(torch.ones(4, 2)),
    lambda: nn.Linear(3, 2)(torch.ones(3, dtype=torch.float64)),
    lambda: torch.optim.SGD([x], lr=-1),
    lambda: torch.optim.SGD([i.float()], lr=0.1, momentum=-1),
    lambda: torch.optim.Adam([x], lr=0.1, betas=(1.5, 0.9)),
    lambda: torch.randint(3, 3, (2,)),
    lambda: torch.randn(-1),
    lambda: torch.zeros(2, 3).view(-1, -1),
    lambda: torch.arange(0, 10, 0),
    lambda: torch.tensor([[1, 2], [3]]),
    lambda: x.grad.zero_(),
    lambda: torch.autograd.grad(x.sum(), torch.ones(2)),
    lambda: torch.autograd.grad(x.sum() * 0 + torch.ones(1).sum(), x),
    lambda: x.numpy(),
    lambda: x.sum().item() + "a",
    lambda: torch.matmul(torch.ones(3), torch.ones(4)),
    lambda: torch.dot(torch.ones(2, 2), torch.ones(2)),
    lambda: torch.mm(torch.ones(2), torch.ones(2)),
    lambda: i / 0,
    lambda: i // 0,
    lambda: torch.tensor(1.0) / 0,
    lambda: i.float().pow(i),
    lambda: x.max(dim=4),
    lambda: x.gather(1, torch.tensor([[5]])),
    lambda: torch.where(x > 0, x, torch.ones(5)),
    lambda: x.masked_fill(torch.ones(3, 3, dtype=torch.bool), 0.0),
    lambda: torch.zeros(2, 2)[torch.tensor([0.5])],
    lambda: x.split([1, 1, 1]),
    lambda: torch.empty(2).normal_(0, -1),
    lambda: nn.MSELoss()(torch.ones(2), torch.ones(3)),
    lambda: nn.Sequential(nn.Linear(2, 2))[3],
    lambda: x.repeat(2),
    lambda: torch.full((2,), 1.0).bool() + 1.5 - torch.tensor([True]) ,
    lambda: ~torch.ones(2),
]
for k, c in enumerate(cases):
    try:
        c()
        print(k, "ok")
    except RuntimeError as e:
        print(k, "RuntimeError", str(e).split("\n")[0])
    except IndexError as e:
        print(k, "IndexError", str(e).split("\n")[0])
    except ValueError as e:
        print(k, "ValueError", str(e).split("\n")[0])
    except TypeError as e:
        print(k, "TypeError", str(e).split("\n")[0])
    except AttributeError as e:
        print(k, "AttributeError", str(e).split("\n")[0])
    except ZeroDivisionError as e:
        print(k, "ZeroDivisionError", str(e).split("\n")[0])
    except Exception as e:
        print(k, "Exception", str(e).split("\n")[0])
# %% multiline_call_error
import torch
a = torch.ones(2, 3)
b = torch.ones(4, 5)
c = torch.cat(
    [a,
     b],
    dim=0,
)
# %% error_in_forward
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        h = self.fc(x)
        return h.view(3)
net = Net()
out = net(torch.ones(1, 4))
# %% error_in_lambda
import torch
f = lambda t: t @ t
print(f(torch.ones(2)))
print(f(torch.ones(2, 3)))
# %% error_in_with_block
import torch
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
    z = y.view(3)
# %% error_in_loop_iteration
import torch
shapes = [(2,), (3,), (4,)]
total = torch.zeros(3)
for s in shapes:
    total = total + torch.ones(s)
    print(total)
# %% multiline_expression_error
import torch
x = torch.ones(3)
y = (x * 2
     + torch.ones(2)
     - 1)
# %% error_in_training_loop
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    pred = model(torch.randn(4, 3))
    loss = ((pred - torch.randn(4)) ** 2).mean()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
    loss.backward()
# %% error_messages_catalog_2
import torch
import torch.nn as nn
import torch.nn.functional as F
p = torch.tensor([[0.2, 0.8], [0.6, 0.4]], requires_grad=True)
cases = [
    lambda: nn.CrossEntropyLoss()(p, torch.tensor([[1], [0]])),
    lambda: nn.MSELoss()(p, torch.tensor([[1, 0], [0, 1]])).backward(),
    lambda: nn.BCELoss()(p, torch.tensor([[1, 0], [0, 1]])),
    lambda: nn.CrossEntropyLoss()(p, torch.tensor([1.0, 0.0])),
    lambda: nn.NLLLoss()(p, torch.tensor([2, 0])),
    lambda: F.softmax(p),
    lambda: nn.Linear(2, 1)(torch.tensor([1, 2])),
    lambda: torch.optim.SGD(p, lr=0.1),
    lambda: torch.optim.SGD([p]),
    lambda: nn.Sequential(nn.Linear(2, 3), nn.Linear(2, 1))(p),
    lambda: p.view(-1, 3),
    lambda: torch.tensor([1.0, 2.0]) @ torch.tensor([1.0, 2.0, 3.0]),
    lambda: p.grad.data,
    lambda: (p * 2).backward(torch.ones(2)),
    lambda: torch.autograd.grad(p.sum(), p, retain_graph=False)[0].backward(),
    lambda: p.detach().requires_grad_(True).add_(1).backward(),
    lambda: torch.no_grad()(lambda: 1)(),
    lambda: nn.MSELoss(reduction="avg")(p, p),
    lambda: F.mse_loss(p, p, reduction="max"),
    lambda: torch.randn(2, 3)[:, 3],
    lambda: torch.zeros(3)[torch.tensor([True, False])],
    lambda: p.T.view(4),
    lambda: p.expand(3, 2),
    lambda: torch.ones(2, 2).masked_fill(torch.tensor([1, 0]), 1.0),
    lambda: torch.tensor([1, 2, 3]).float().requires_grad_().long().sum().backward(),
]
for k, c in enumerate(cases):
    try:
        c()
        print(k, "ok")
    except RuntimeError as e:
        print(k, "RuntimeError", str(e).split("\n")[0])
    except IndexError as e:
        print(k, "IndexError", str(e).split("\n")[0])
    except ValueError as e:
        print(k, "ValueError", str(e).split("\n")[0])
    except TypeError as e:
        print(k, "TypeError", str(e).split("\n")[0])
    except AttributeError as e:
        print(k, "AttributeError", str(e).split("\n")[0])
    except Exception as e:
        print(k, "Exception", str(e).split("\n")[0])
# %% load_state_dict_mismatch
import torch
import torch.nn as nn
a = nn.Linear(2, 2)
b = nn.Sequential(nn.Linear(2, 2))
print(b.load_state_dict({"0." + k: v for k, v in a.state_dict().items()}))
b.load_state_dict(a.state_dict())
# %% saved_tensor_after_free
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
print(y.grad_fn._saved_self)
y.backward()
print(y.grad_fn._saved_self)
# %% leaf_moved_requires_grad_false
import torch
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    x.add_(1)
print(x)
x.requires_grad = False
x.add_(1)
print(x, x.is_leaf)
y = torch.ones(2)
y.requires_grad = True
print(y)
z = y * 2
z.requires_grad = True
# %% data_assign_not_tensor
import torch
x = torch.ones(2)
for value in ([1], 3, None):
    try:
        x.data = value
    except TypeError as e:
        print("TypeError", e)
m = torch.nn.Linear(2, 2)
try:
    m.weight.data = [1, 2]
except TypeError as e:
    print("TypeError", e)
m.weight.data = torch.ones(3)
print(m.weight)
# %% grad_assign_wrong_size_type_dtype
import torch
x = torch.ones(2, 3, requires_grad=True)
for g in (torch.ones(3, 2), [1.0, 2.0], torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 3, dtype=torch.long)):
    try:
        x.grad = g
    except (TypeError, RuntimeError) as e:
        print(e)
s = torch.tensor(1.0, requires_grad=True)
try:
    s.grad = torch.ones(1)
except RuntimeError as e:
    print(e)
x.grad = None
print(x.grad)
# %% requires_grad_assign_checks
import torch
for make, value in ((lambda: torch.ones(2, dtype=torch.long), True), (lambda: torch.ones(2), "yes"),
                    (lambda: torch.ones(2), 1), (lambda: torch.ones(2), None)):
    x = make()
    try:
        x.requires_grad = value
    except RuntimeError as e:
        print(e)
n = torch.arange(3)
n.requires_grad = False
print(n.requires_grad)
# %% read_only_tensor_attributes
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
for name in ("shape", "dtype", "device", "grad_fn", "is_leaf"):
    try:
        if name == "shape":
            y.shape = (1, 2)
        elif name == "dtype":
            y.dtype = torch.float64
        elif name == "device":
            y.device = "cpu"
        elif name == "grad_fn":
            y.grad_fn = None
        else:
            y.is_leaf = True
    except AttributeError as e:
        print(e)
# %% cuda_not_compiled
import torch
from torch import nn
x = torch.ones(2)
for attempt in (lambda: torch.ones(1, device="cuda"), lambda: torch.zeros(2, device="cuda:0"),
                lambda: torch.tensor([1.0], device=torch.device("cuda")), lambda: x.to("cuda"),
                lambda: x.to(device="cuda"), lambda: x.cuda(), lambda: nn.Linear(2, 2).to("cuda"),
                lambda: nn.Linear(2, 2).cuda(), lambda: nn.Linear(2, 2, device="cuda"),
                lambda: torch.randn(2, device="cuda")):
    try:
        attempt()
    except AssertionError as e:
        print("AssertionError", e)
print(torch.ones(2, device="cpu").to("cpu").device, x.cpu().device, torch.ones(1, device=torch.device("cpu")))
print(torch.device("cuda"), repr(torch.device("cuda:1")), repr(torch.device("cuda", 0)), torch.device("cpu") == x.device)
print(torch.device("cpu") == "cpu", torch.device("cuda") == torch.device("cuda"))
# %% cudnn_flags
import torch
# A course's reproducibility cell sets cuDNN's flags even on a CPU-only machine; they take a bool only
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark, torch.backends.cudnn.enabled)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
try:
    torch.backends.cudnn.benchmark = 1
except RuntimeError as e:
    print(e)
try:
    torch.backends.cudnn.enabled = None
except RuntimeError as e:
    print(e)
torch.backends.cudnn.deterministic = False
print(torch.backends.cudnn.deterministic)
# %% unknown_device_string
import torch
try:
    torch.zeros(2, device="foo")
except RuntimeError as e:
    print(e)
try:
    torch.ones(2).to("gpu")
except RuntimeError as e:
    print(e)
# %% module_parameter_assign_plain_tensor
import torch
m = torch.nn.Linear(2, 2)
for value in (torch.ones(2), torch.ones(2, dtype=torch.long), 3):
    try:
        m.weight = value
    except TypeError as e:
        print(e)
m.weight = torch.nn.Parameter(torch.ones(2, 2))
print(m.weight)
# %% optimizer_param_group_checks
import torch
x = torch.ones(2, requires_grad=True)
y = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([x], lr=0.1)
for group in ({"params": [y, x]}, {"params": {y}}, [y]):
    try:
        opt.add_param_group(group)
    except TypeError as e:
        print("TypeError", e)
    except ValueError as e:
        print("ValueError", e)
try:
    torch.optim.SGD([{"params": [x]}, {"params": [x]}], lr=0.1)
except ValueError as e:
    print(e)
opt.add_param_group({"params": [y], "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[1]["lr"])
opt.param_groups[0]["params"] = [3]
try:
    opt.zero_grad()
except AttributeError as e:
    print(e)
# %% backward_gradient_not_tensor
import torch
x = torch.ones(2, requires_grad=True)
for g in ([1.0, 1.0], 3.0, (3,)):
    try:
        (x * 2).backward(g)
    except TypeError as e:
        print(e)
try:
    torch.autograd.grad([(x * 2).sum()], [x], grad_outputs=1.0)
except TypeError as e:
    print(e)
try:
    torch.autograd.grad([(x * 2).sum()], [x], grad_outputs=[1.0])
except TypeError as e:
    print(e)
try:
    (x * 2).sum().backward(inputs=[])
except RuntimeError as e:
    print(e)
(x * 2).backward((torch.ones(2),))
(x * 2).sum().backward(torch.tensor(2.0))
print(x.grad)
# %% module_registration_checks
import torch
from torch import nn
m = nn.Linear(2, 2)
for attempt in (lambda: nn.Sequential(3), lambda: nn.ModuleList([3]), lambda: m.add_module("x", 3),
                lambda: m.register_parameter("w", torch.ones(2)), lambda: m.register_parameter("w", 3),
                lambda: m.add_module(3, nn.ReLU())):
    try:
        attempt()
    except TypeError as e:
        print(e)
m.register_parameter("w", None)
m.add_module("act", None)
print(m, list(dict(m.named_parameters())))
# %% parameter_of_non_tensor_or_int
import torch
for attempt in (lambda: torch.nn.Parameter([1.0, 2.0]), lambda: torch.nn.Parameter(3)):
    try:
        attempt()
    except AttributeError as e:
        print(e)
try:
    torch.nn.Parameter(torch.arange(3))
except RuntimeError as e:
    print(e)
print(torch.nn.Parameter(torch.arange(3), requires_grad=False))
# %% hook_changes_size_type_or_returns_non_tensor
import torch
def grow(g):
    return torch.ones(3)
for hook in (grow, lambda g: torch.ones(3), lambda g: 3, lambda g: g.double()):
    x = torch.ones(2, requires_grad=True)
    z = x * 2
    z.register_hook(hook)
    try:
        z.sum().backward()
    except TypeError as e:
        print("TypeError", e)
    except RuntimeError as e:
        print("RuntimeError", e)
# %% empty_cat_stack_and_expand_type
import torch
try:
    torch.cat([])
except ValueError as e:
    print("ValueError", e)
try:
    torch.stack([])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(2, 3, dtype=torch.long).expand(2)
except RuntimeError as e:
    print(e)
# %% optimizer_step_non_tensor_param
import torch
x = torch.ones(2, requires_grad=True)
for opt in (torch.optim.SGD([x], lr=0.1), torch.optim.Adam([x], lr=0.1)):
    opt.param_groups[0]["params"] = [3]
    try:
        opt.step()
    except AttributeError as e:
        print(e)
# %% load_state_dict_bad_values
import torch
from torch import nn
m = nn.Linear(2, 2)
for sd in ({"weight": torch.ones(2, 2), "bias": torch.ones(3)},
           {"weight": torch.ones(3, 2), "bias": torch.ones(3), "extra": torch.ones(1)},
           {"weight": 3, "bias": torch.ones(2)}):
    try:
        m.load_state_dict(sd)
    except RuntimeError as e:
        print(e)
print(m.weight)
try:
    m.load_state_dict([1])
except TypeError as e:
    print(e)
print(m.load_state_dict({"weight": torch.zeros(2, 2)}, strict=False))
print(m.weight)
# %% invalid_device_strings
import torch
for spec in ("float32", "cuda:x", "gpu"):
    try:
        torch.ones(2).to(spec)
    except RuntimeError as e:
        print(e)
print(torch.ones(2).to("cpu:0"), torch.device("cpu", 0), repr(torch.device("cpu:0")))
# %% setitem_value_shape_errors
import torch
x = torch.ones(2, 2)
try:
    x[0] = torch.ones(3)
except RuntimeError as e:
    print(e)
try:
    x[0, 0] = torch.ones(3)
except RuntimeError as e:
    print(e)
try:
    x[:, 0] = torch.ones(2, 2)
except RuntimeError as e:
    print(e)
try:
    x[0:1] = torch.ones(3, 2)
except RuntimeError as e:
    print(e)
try:
    x[0] = torch.ones(3, dtype=torch.long)
except RuntimeError as e:
    print(e)
try:
    x[torch.tensor([0, 1])] = torch.ones(3)
except RuntimeError as e:
    print(e)
y = torch.ones(2)
y[0] = torch.full((1, 1), 4.0)
x[0] = torch.full((1, 2), 3.0)
x[[0, 1]] = torch.full((1, 2, 2), 5.0)
print(y, x)
# %% setitem_leading_ones_gradient
import torch
w = torch.ones(2, 3, requires_grad=True)
v = torch.full((1, 3), 2.0, requires_grad=True)
s = torch.full((1, 1, 1), 3.0, requires_grad=True)
y = w * 1
y[1] = v
y[0, 2] = s
(y * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(y, y.grad_fn.name())
print(v.grad, s.grad, w.grad)
# %% torch_function_of_non_tensor
import torch
for fn, value in ((torch.exp, 3), (torch.sum, [1, 2]), (torch.max, 3.0), (torch.relu, [1.0]), (torch.numel, 3),
                  (torch.t, (1, 2)), (torch.softmax, 2)):
    try:
        fn(value)
    except TypeError as e:
        print(e)
print(torch.exp(torch.ones(2)), torch.sum(torch.ones(2), dim=0), torch.max(torch.ones(2, 2), dim=1).values)
# %% sampling_and_loader_argument_checks
import torch
from torch.utils.data import DataLoader, TensorDataset
for attempt in (lambda: torch.normal(0.0, -1.5, (2,)), lambda: torch.normal(0.0, -1, (2,)),
                lambda: torch.normal(torch.zeros(2), torch.tensor([-1.0, 1.0])), lambda: torch.randperm(-3),
                lambda: torch.autograd.grad([], [])):
    try:
        attempt()
    except RuntimeError as e:
        print(e)
for size in (0, -1, 2.5):
    try:
        DataLoader(TensorDataset(torch.ones(3)), batch_size=size)
    except ValueError as e:
        print(e)
print(len(DataLoader(TensorDataset(torch.ones(3)), batch_size=2)), torch.randperm(0))
# %% shuffled_loader_of_an_empty_dataset
import torch
from torch.utils.data import DataLoader, TensorDataset
class Empty(torch.utils.data.Dataset):
    def __getitem__(self, index):
        pass
    def __len__(self):
        return 0
print(len(DataLoader(Empty(), batch_size=4)), list(DataLoader(TensorDataset(torch.ones(0)), batch_size=2)))
for data in (Empty(), TensorDataset(torch.ones(0))):
    try:
        DataLoader(dataset=data, batch_size=64, shuffle=True)
    except ValueError as e:
        print(e)
DataLoader(Empty(), batch_size=64, shuffle=True)
# %% layer_called_on_non_tensor
import torch
from torch import nn
for m in (nn.Linear(2, 2), nn.ReLU(), nn.ELU(), nn.SiLU(), nn.Softplus(), nn.LeakyReLU(), nn.GELU(), nn.Dropout(),
          nn.Tanh(), nn.Sigmoid()):
    try:
        m([1.0, 2.0])
    except TypeError as e:
        print(e)
try:
    nn.Sequential(nn.Linear(2, 2), nn.ReLU())(3)
except TypeError as e:
    print(e)
# %% autograd_functional_bad_inputs_outputs
import torch
from torch.autograd.functional import vjp, hessian, jacobian
for attempt in (lambda: hessian(lambda x: 3, torch.ones(2)), lambda: hessian(lambda x: x.sum(), [1.]),
                lambda: vjp(lambda x: 3, torch.ones(2)), lambda: vjp(lambda x: x, [1.]),
                lambda: jacobian(lambda t: (t, 3), torch.ones(2)), lambda: jacobian(lambda t: t, (torch.ones(2), 3)),
                lambda: jacobian(lambda t: 3, torch.ones(2)), lambda: jacobian(lambda t: t * 2, [1.0]),
                lambda: jacobian(lambda t: t * 2, [torch.ones(2)])):
    try:
        attempt()
    except TypeError as e:
        print(e)
x = torch.tensor([1.0, 2.0])
print(jacobian(lambda t: t ** 2, x), hessian(lambda t: (t ** 3).sum(), x))
print(jacobian(lambda a, b: (a * b, a + b), (x, x)), hessian(lambda a, b: (a * b).sum(), (x, x)))
print(vjp(lambda t: t ** 2, x, torch.ones(2)))
# %% cat_stack_non_tensor_element
import torch
for attempt in (lambda: torch.stack([3, torch.ones(2)]), lambda: torch.cat((torch.ones(2), [1.0])),
                lambda: torch.cat([torch.ones(2), 3])):
    try:
        attempt()
    except TypeError as e:
        print(e)
print(torch.cat([torch.ones(2), torch.zeros(1)]), torch.stack((torch.ones(2), torch.zeros(2))))
# %% loss_of_non_tensor
import torch
from torch import nn
import torch.nn.functional as F
x = torch.full((2,), 0.5)
for loss in (F.mse_loss, F.l1_loss, F.binary_cross_entropy, F.binary_cross_entropy_with_logits, nn.MSELoss(), nn.BCELoss()):
    for a, b in ((3, x), (x, [1.0, 2.0])):
        try:
            loss(a, b)
        except AttributeError as e:
            print(e)
for loss in (F.cross_entropy, F.nll_loss, nn.CrossEntropyLoss()):
    for a, b in ((3, torch.tensor([0])), (torch.ones(1, 2), [0])):
        try:
            loss(a, b)
        except TypeError as e:
            print(e)
print(F.mse_loss(x, torch.ones(2)), F.cross_entropy(torch.ones(1, 2), torch.tensor([0])))
# %% tensor_method_non_number_other
import torch
x = torch.ones(2)
for attempt in (lambda: x.add("a"), lambda: x.mul([1, 2]), lambda: x.mul(None), lambda: x.sub("a"),
                lambda: x.div("a"), lambda: x.add_("a"), lambda: x.mul_([1.0, 2.0]), lambda: x.sub_(None),
                lambda: x.div_("a")):
    try:
        attempt()
    except TypeError as e:
        print(e)
try:
    x + "a"
except TypeError as e:
    print(e)
print(x.add(1), x.mul(torch.full((2,), 3.0)), x.sub(1), x.div(2.0), x.add_(1), x.mul_(2), x.div_(4), x.sub_(0.5))
print(x.add(torch.ones(2), alpha=2), x.sub(1, alpha=3))
# %% bool_subtraction_and_negation
import torch
x = torch.ones(2)
m = torch.tensor([True, False])
for attempt in (lambda: x - True, lambda: True - x, lambda: m - m, lambda: -m, lambda: x.sub(True),
                lambda: torch.arange(3) - True, lambda: m - True, lambda: m - 1, lambda: torch.neg(m)):
    try:
        attempt()
    except RuntimeError as e:
        print(e)
try:
    x -= True
except RuntimeError as e:
    print(e)
print(x - 1, 1 - x, -x, torch.arange(3) - 1, x.sub(2, alpha=2), ~m, m ^ m)
# %% index_array_out_of_bounds
import torch
x = torch.ones(2, 3, 4)
for attempt in (lambda: x[[0, 1], [0, 7]], lambda: x[[0, 1], :, [0, 7]], lambda: x[:, :, [0, 7]], lambda: x[0, :, [0, 7]],
                lambda: x[[5, 0], [7, 0]], lambda: x[[0, 9, 5]], lambda: x[torch.tensor([True, False]), [0, 7]],
                lambda: x[..., [0, 4]], lambda: x[None, [0, 2]], lambda: x[torch.tensor([[0, 5]])], lambda: x[[0, -3]]):
    try:
        attempt()
    except IndexError as e:
        print(e)
print(x[[0, -1], [2, -3]].shape, x[..., [0, -4]].shape, x[[1]].shape)
for key in ([0, 5], [-3]):
    try:
        x[key] = 1.0
    except IndexError as e:
        print(e)
try:
    x[:, torch.tensor([4])] = 1.0
except IndexError as e:
    print(e)
x[[1, -2], 0] = 7.0
print(x[:, 0])
# %% multinomial_and_uniform_argument_checks
import torch
for attempt in (lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1),
                lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1),
                lambda: torch.multinomial(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), 1),
                lambda: torch.multinomial(torch.tensor([1.0, float("nan")]), 1),
                lambda: torch.multinomial(torch.tensor([1, 2]), 1),
                lambda: torch.multinomial(torch.ones(10), 0), lambda: torch.multinomial(torch.ones(3), -1, True),
                lambda: torch.multinomial(torch.ones(2, 2, 2), 1), lambda: torch.multinomial(torch.tensor(1.0), 1),
                lambda: torch.empty(2, 3).uniform_(2, 1), lambda: torch.nn.init.uniform_(torch.ones(2), 2.5, -1)):
    try:
        attempt()
    except RuntimeError as e:
        print(e)
torch.manual_seed(3)
print(torch.multinomial(torch.tensor([[0.0, 1.0], [1.0, 1.0]]), 1), torch.empty(3).uniform_(1, 1),
      torch.multinomial(torch.tensor([1.0, 2.0, 0.0]), 2))
# %% bernoulli_probability_range
import torch
for attempt in (lambda: torch.bernoulli(torch.tensor([-0.5])), lambda: torch.ones(2).bernoulli_(1.5),
                lambda: torch.bernoulli(torch.tensor([float("nan")])), lambda: torch.ones(2).bernoulli_(-2)):
    try:
        attempt()
    except RuntimeError as e:
        print(e)
torch.manual_seed(5)
print(torch.bernoulli(torch.tensor([0.0, 1.0, 0.5, 0.3])), torch.ones(4).bernoulli_(0.5), torch.ones(2).bernoulli_(1))
# %% linear_negative_features
import torch
from torch import nn
for args in ((2, -3), (-1, -2), (-1, 2)):
    try:
        nn.Linear(*args)
    except RuntimeError as e:
        print(e)
print(nn.Linear(3, 2).weight.shape)
# %% tensor_argument_not_tensor
import torch
x, m, mask = torch.tensor([1.0, 2.0]), torch.ones(2, 2), torch.tensor([True, False])
for attempt in (lambda: x.dot([1.0]), lambda: torch.dot(x, [1.0]), lambda: x.dot(tensor=[1.0]),
                lambda: torch.dot(input="a", tensor=x), lambda: torch.mm(m, [[1.0]]), lambda: m.mm(None),
                lambda: torch.matmul(x, "a"), lambda: m.matmul(2), lambda: torch.bmm(m, 1.5), lambda: m.mv([1, 2]),
                lambda: torch.outer(x, None), lambda: torch.maximum(x, 1.5), lambda: x.minimum(True),
                lambda: torch.add(x, [1.0]), lambda: torch.mul([1.0], x), lambda: torch.sub(x, None),
                lambda: torch.div(x, "a"), lambda: torch.allclose(x, [1.0, 2.0]), lambda: torch.isclose(x, 1.5),
                lambda: torch.equal(x, None), lambda: x.gather(0, [0]), lambda: torch.gather(x, 0, [0]),
                lambda: x.view_as([1, 2]), lambda: x.expand_as(None), lambda: x.logical_and([True]),
                lambda: torch.zeros_like([1.0]), lambda: torch.ones_like(None), lambda: torch.rand_like("a"),
                lambda: torch.full_like(x, "a"), lambda: torch.full_like(x, [1.0]), lambda: torch.bernoulli([0.5]),
                lambda: torch.multinomial([1.0, 2.0], 1), lambda: x.add(x, alpha="a")):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", e)
print(x.dot(x), torch.mm(m, m), torch.add(x, 1), torch.mul(2, x), torch.maximum(x, x), torch.full_like(x, 3))
print(x.gather(0, torch.tensor([1, 0])), torch.allclose(x, x), x.dot(tensor=x), x.add(x, alpha=2))
# %% invalid_combination_of_arguments
import torch
x, mask = torch.tensor([1.0, -2.0]), torch.tensor([True, False])
for attempt in (lambda: torch.where(mask, [1], 0), lambda: torch.where(mask, x, [0]), lambda: torch.where([1], x, x),
                lambda: torch.where(mask, (1, 2), 0), lambda: torch.pow(x, [1]), lambda: x.pow("a"),
                lambda: x.masked_fill(mask, "a"), lambda: x.masked_fill([True, False], 1),
                lambda: torch.clamp(x, "a"), lambda: x.clamp(min="a"), lambda: x.clamp(max=[1]),
                lambda: x.masked_fill_(mask, None), lambda: x.fill_("a"), lambda: torch.where(mask, x, other="a")):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(torch.where(mask, x, 0), torch.where(mask, 1.0, x), torch.where(mask, 1, 0), torch.pow(2, x), x.pow(2))
print(x.masked_fill(mask, 0.5), x.clamp(min=0), x.clamp(torch.tensor(0.0)), torch.where(mask))
# %% dim_argument_not_int
import torch
x, m = torch.tensor([1.0, 2.0]), torch.ones(2, 3)
for attempt in (lambda: x.unsqueeze(1.5), lambda: torch.unsqueeze(x, None), lambda: x.unsqueeze(True),
                lambda: torch.transpose(m, 0, True), lambda: m.transpose("a", 1), lambda: torch.flatten(m, "a"),
                lambda: torch.softmax(x, None), lambda: x.log_softmax(1.5), lambda: torch.argmax(x, 1.5),
                lambda: x.argmin("a"), lambda: x.cumsum([0]), lambda: torch.unbind(m, "a"), lambda: m.triu(0.5),
                lambda: x.flip(1.5), lambda: x.flip([1.5]), lambda: torch.cat([x], "a"),
                lambda: torch.cat([x], dim=0.0),
                lambda: torch.cat((x, "a")), lambda: torch.cat(x, 1), lambda: torch.stack(None),
                lambda: torch.stack([x, [1.0, 2.0]]), lambda: x.gather(0.5, torch.tensor([0])),
                lambda: x.unsqueeze(dim=None), lambda: x.argmax(keepdim=1), lambda: m.softmax(dim=torch.tensor(0.0))):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", e)
print(x.unsqueeze(torch.tensor(0)), torch.argmax(x, dim=None), torch.cat([x, x], 0), x.flip(0), m.transpose(1, 0))
print(m.softmax(dim=1), torch.stack((x, x), dim=1), x.cumsum(0), torch.flatten(m, 0), x.argmax(0, True))
# %% tensor_data_not_numbers
import torch
x = torch.tensor([1.0, 2.0])
for data, kw in (([1, "a"], {}), ("a", {}), (["ab"], {}), ([[1], "a"], {}), ([(1, 2), "ab"], {}), ([1, None], {}),
                 ([1.0, {}], {}), ({1: 2}, {}), ([[1, 2], [3]], {}), ([[1, 2], 3], {}), ([1, [2]], {}),
                 ([1.0, [2]], {}), ([[1, 2], [3], "a"], {}), ([1, "a"], {"dtype": torch.float32}),
                 ([1, None], {"dtype": torch.float64}), ([1, "a"], {"dtype": torch.int64}),
                 ([1, None], {"dtype": torch.bool}), ([x, x], {}), ([x, 1.0], {}), ([x[:0]], {}),
                 ([1.0], {"dtype": "a"}), ([1.0], {"requires_grad": "a"}), ([1.0], {"requires_grad": None})):
    try:
        torch.tensor(data, **kw)
    except TypeError as e:
        print("TypeError", e)
    except ValueError as e:
        print("ValueError", e)
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.tensor([[1, 2], x]), torch.tensor([x[0], 1]), torch.tensor([1, x[:1]]), torch.tensor([[1, 2], (3, 4)]))
print(torch.tensor([]), torch.tensor([[], []]), torch.tensor([True, 2]), torch.as_tensor([1, 2.5]))
# %% init_non_tensor
import torch
from torch import nn
x = torch.ones(2, 2)
for attempt in (lambda: nn.init.zeros_(3), lambda: nn.init.ones_([1.0]), lambda: nn.init.constant_(None, 1.0),
                lambda: nn.init.uniform_(3), lambda: nn.init.normal_([1.0]), lambda: nn.init.kaiming_uniform_(3),
                lambda: nn.init.kaiming_normal_(None), lambda: nn.init.xavier_uniform_([1.0]),
                lambda: nn.init.xavier_normal_(2.5), lambda: nn.init.constant_(x, "a"),
                lambda: nn.init.constant_(x, [1.0]), lambda: nn.init.uniform_(x, "a"),
                lambda: nn.init.uniform_(x, 0, None), lambda: nn.init.normal_(x, "a")):
    try:
        attempt()
    except AttributeError as e:
        print("AttributeError", e)
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(nn.init.constant_(x, 2), nn.init.zeros_(torch.ones(2)), nn.init.ones_(torch.zeros(2)))
# %% factory_size_and_count_types
import torch
x = torch.ones(2)
for attempt in (lambda: torch.zeros(2, 1.5), lambda: torch.zeros([2, 1.5]), lambda: torch.ones([1.0]),
                lambda: torch.zeros(1.5), lambda: torch.ones(x), lambda: torch.empty("a"), lambda: torch.rand(None),
                lambda: torch.randn([1.0]), lambda: torch.rand(2, "a"), lambda: torch.full(3, 1.0),
                lambda: torch.full(x, 1.0), lambda: torch.full([1.5], 1.0), lambda: torch.eye(2.0),
                lambda: torch.eye(None), lambda: torch.eye(2, 1.5), lambda: torch.randperm(2.0),
                lambda: torch.randperm("a"), lambda: torch.arange("a"), lambda: torch.arange(None),
                lambda: torch.arange(0, "a"), lambda: torch.arange(0, 5, None), lambda: torch.randint(5, (2.0,)),
                lambda: torch.linspace(0, 1, 2.5), lambda: torch.linspace(0, "a", 3),
                lambda: torch.normal(0.0, 1.0, 3)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(torch.ones(torch.tensor(2)), torch.eye(2, 3), torch.eye(n=2), torch.arange(torch.tensor(3)), torch.arange(1, 4))
print(torch.arange(0, 1, 0.25), torch.arange(start=1, end=3), torch.linspace(0, 1, steps=3), torch.zeros((2, 1)))
# %% reduction_and_shape_argument_types
import torch
x, m = torch.tensor([1.0, 2.0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for attempt in (lambda: x.sum("a"), lambda: x.sum([1.0]), lambda: x.mean(1.5), lambda: torch.sum(x, None, 0),
                lambda: x.sum(0, 0), lambda: x.max(None), lambda: x.min("a"), lambda: torch.max(x, [1.0]),
                lambda: x.prod(None), lambda: x.std("a"), lambda: x.var(1.5), lambda: x.all("a"),
                lambda: x.any([1.0]), lambda: x.count_nonzero(1.5), lambda: x.amax("a"), lambda: x.amin([1.0]),
                lambda: x.logsumexp(None), lambda: torch.logsumexp(x, 1.5), lambda: x.squeeze(1.5),
                lambda: torch.squeeze(x, "a"), lambda: x.view(1.5, 2), lambda: x.view(1.5), lambda: x.reshape(2, "a"),
                lambda: x.reshape(1.5, 2), lambda: x.reshape([2.0]), lambda: torch.reshape(x, 2),
                lambda: torch.reshape(x, 2, 1), lambda: m.permute(0, 1.5), lambda: x.permute(1.5),
                lambda: torch.permute(m, 0), lambda: x.expand(2, None), lambda: x.expand("a"), lambda: x.repeat(2, 1.5),
                lambda: x.repeat(None), lambda: torch.flip(x, 0), lambda: x.flip(0, 1.5), lambda: x.chunk(1.5),
                lambda: x.topk("a"), lambda: x.sort("a"), lambda: x.argsort(1.5), lambda: x.clamp_min("a"),
                lambda: x.clamp_max([1]), lambda: torch.clip(x, "a"), lambda: x.clip(min="a"), lambda: x.eq([1.0]),
                lambda: x.lt("a"), lambda: x.ge(None)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(x.sum(None), x.sum(0), m.sum((0, 1)), m.mean(dim=[0]), m.sum(axis=1, keepdims=True), x.max(0), x.max(x))
print(m.std(0, True), m.std(dim=1, keepdim=True), m.var(unbiased=False), m.var(correction=0), m.std(1, correction=0))
print(m.any(0), m.count_nonzero(0), m.amax(0), m.amin((0, 1)), m.logsumexp(dim=0, keepdim=True), x.flip(0))
print(x.reshape(torch.Size([2])), x.reshape(shape=(2,)), x.view(-1), x.view(torch.tensor(2)), m.permute(1, 0))
print(m.permute((1, 0)), x.expand(3, 2), x.repeat(2, 2), m.reshape(-1, 4), x.chunk(2), x.topk(1))
print(x.sort(descending=True))
print(x.clamp_min(1.5), x.clamp_max(x), x.clip(max=0.5), x.eq(1), x.lt(2.0), x == "a", x.gt(torch.tensor(1.0)))
# %% more_argument_types
import torch
x, mask = torch.tensor([1.0, 2.0]), torch.tensor([True, False])
for attempt in (lambda: torch.zeros(x, [1.0]), lambda: torch.ones(x, 1.5), lambda: torch.rand(x, "a"),
                lambda: torch.full([1.0]), lambda: torch.full("a"), lambda: torch.full((2,), "a"),
                lambda: torch.rand_like(x, "a"), lambda: torch.square([1.0]), lambda: torch.square(x, 1),
                lambda: torch.logical_not("a"), lambda: torch.numel([1.0]), lambda: torch.is_tensor(x, 1),
                lambda: torch.round(x, "a"), lambda: torch.dropout([1.0]), lambda: torch.dropout(x, "a"),
                lambda: torch.dropout(x, 0.5), lambda: torch.nonzero(x, "a"), lambda: x.pow_("a"),
                lambda: x.clamp_("a"), lambda: x.copy_([1.0]), lambda: x.copy_(None), lambda: x.bernoulli_("a"),
                lambda: x.exponential_("a"), lambda: x.random_("a"), lambda: x.random_(1.5),
                lambda: torch.split(x, 1.5), lambda: torch.split(x, [1.0, 1.0]), lambda: x.split([1, 1.0]),
                lambda: x.split(None), lambda: x.new_zeros([1.0]), lambda: x.new_ones("a")):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
try:
    torch.bernoulli(torch.tensor([0.5, 0.5]), 1.5)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.full((2,), 3), torch.full(torch.Size([2]), True), torch.square(x), torch.logical_not(mask), torch.numel(x))
print(torch.is_tensor(3), torch.round(x), torch.dropout(x, 0.5, False), torch.nonzero(x, as_tuple=True))
print(x.copy_(1.5), x.copy_(torch.ones(2)), torch.bernoulli(torch.tensor([0.5, 0.5]), 0.3), x.split([1, 1]))
print(x.new_zeros(2), x.new_ones((2, 1)), torch.amax(x, None), x.amin(None))
# %% functional_argument_types
import torch
import torch.nn.functional as F
x, w, labels = torch.tensor([1.0, -2.0]), torch.ones(3, 2), torch.tensor([0, 2])
for attempt in (lambda: F.relu([1.0]), lambda: F.silu("a"), lambda: F.gelu(None), lambda: F.gelu(x, 1),
                lambda: F.softplus(x, "a"), lambda: F.leaky_relu([1.0]), lambda: F.leaky_relu(x, None),
                lambda: F.elu(x, [1.0]), lambda: F.linear([1.0]), lambda: F.linear(x, "a"), lambda: F.linear(x, w, 1.5),
                lambda: F.one_hot([1]), lambda: F.one_hot(labels, 1.5), lambda: F.softmax(x, "a"),
                lambda: F.log_softmax(x, 1.5), lambda: F.dropout([1.0]), lambda: F.dropout(x, "a"),
                lambda: F.dropout(x, 0.5, 1), lambda: F.mse_loss(x), lambda: F.l1_loss(None),
                lambda: F.binary_cross_entropy(x), lambda: F.binary_cross_entropy_with_logits("a")):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", e)
for attempt in (lambda: F.sigmoid([1.0]), lambda: F.tanh("a"), lambda: F.softmax(None),
                lambda: F.log_softmax([1.0], 0)):
    try:
        attempt()
    except AttributeError as e:
        print("AttributeError", e)
print(F.relu(x), F.gelu(x, approximate="tanh"), F.softplus(x, 2), F.leaky_relu(x, 0.2), F.elu(x, 0.5), F.silu(x))
print(F.sigmoid(x), F.tanh(x), F.softmax(x, 0), F.log_softmax(x, dim=0), F.softmax(x, 0, dtype=torch.float64))
print(F.dropout(x, 0.5, False), F.linear(x, w), F.one_hot(labels, 3), F.mse_loss(x, x))
print(F.l1_loss(x, -x, reduction="sum"))
print(F.binary_cross_entropy(torch.sigmoid(x), torch.ones(2)), F.binary_cross_entropy_with_logits(x, torch.ones(2)))
print(F.relu(x, True), x)
# %% method_arguments_count_and_keywords
import torch
x, m = torch.tensor([1.0, 2.0]), torch.ones(2, 2)
for attempt in (lambda: x.exp(1), lambda: x.relu(1, 2), lambda: x.t(None), lambda: x.zero_(0), lambda: x.abs(foo=1),
                lambda: x.clone(1), lambda: x.contiguous(1), lambda: x.dot(foo=1), lambda: x.gather(foo=1),
                lambda: m.transpose(foo=1), lambda: x.topk(foo=1), lambda: x.sum(foo=1), lambda: x.max(foo=1),
                lambda: x.clamp(foo=1), lambda: x.add(foo=1), lambda: x.mul_(foo=1), lambda: x.pow(foo=1),
                lambda: x.eq(foo=1), lambda: x.view_as(foo=1), lambda: x.normal_(foo=1), lambda: x.multinomial(foo=1),
                lambda: x.argmax(1, 2, 3), lambda: x.chunk(1, 2, 3), lambda: x.unbind(1, 2), lambda: x.mul(1, 2),
                lambda: x.split(1, 2, 3), lambda: x.split(foo=1), lambda: x.softmax(foo=1), lambda: x.copy_(foo=1)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(x.exp(), x.clone(), x.dot(tensor=x), x.sum(dim=0), x.max(dim=0), x.clamp(min=1.5), x.add(x, alpha=2))
print(x.topk(k=1), x.softmax(dim=0), x.split(split_size=1), m.transpose(dim0=0, dim1=1), x.eq(other=x))
# %% index_and_tensor_method_argument_types
import torch
x, m = torch.tensor([1.0, 2.0, 3.0]), torch.ones(2, 2)
for attempt in (lambda: x[1.5], lambda: x[None, 1.5], lambda: m[0, 1.5], lambda: x[{}]):
    try:
        attempt()
    except IndexError as e:
        print("IndexError", e)
for attempt in (lambda: x["a"], lambda: m[0, "a"], lambda: x.size("a"), lambda: x.size(1.5), lambda: x.dim(1),
                lambda: x.item(1), lambda: x.tolist(1), lambda: x.numel(1), lambda: x.detach(1),
                lambda: x.retain_grad(1), lambda: x.float(1), lambda: x.long("a"), lambda: x.is_contiguous(1),
                lambda: x.requires_grad_("a"), lambda: x.requires_grad_(1), lambda: x.type(1), lambda: x.dim(foo=1),
                lambda: torch.Tensor("a"), lambda: torch.Tensor([1, "a"]), lambda: torch.Tensor(1.5),
                lambda: torch.Tensor(None), lambda: torch.FloatTensor(None), lambda: torch.LongTensor(2.5),
                lambda: torch.LongTensor([1, "a"]), lambda: torch.Tensor(2, 1.5), lambda: torch.Tensor(True),
                lambda: torch.FloatTensor(x, [1.0])):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
for attempt in (lambda: x.type("a"), lambda: x.type(float), lambda: torch.Tensor([[1], [2, 3]])):
    try:
        attempt()
    except ValueError as e:
        print("ValueError", e)
for value in ("a", [1.0, 2.0], None):
    try:
        x[0] = value
    except TypeError as e:
        print("TypeError", e)
try:
    x[1.5] = 2.0
except IndexError as e:
    print("IndexError", e)
print(x[[0.5, 1.7]], x[[-0.5]], x[True], x[torch.tensor(1)], m[[0.5], 0], x.type("torch.DoubleTensor"), x.type())
print(x.size(dim=-1), x.requires_grad_(False), torch.Tensor([True]), torch.LongTensor([1.5]), torch.Tensor(2, 3).shape)
print(torch.Tensor([[1, 2], [3, 4]]), torch.Tensor(), torch.DoubleTensor(2).shape, torch.BoolTensor([1, 0]))
x[0] = True
x[[1, 2]] = 5
print(x, torch.Tensor(torch.Size([2])).shape)
# %% module_and_optimizer_argument_types
import torch
from torch import nn
x, m = torch.tensor([1.0, -2.0]), torch.ones(2, 2)
w = torch.ones(2, requires_grad=True)
for attempt in (lambda: nn.Linear("a", 2), lambda: nn.Linear(2.5, 3), lambda: nn.Linear(2, None),
                lambda: nn.Dropout("a"), lambda: nn.Dropout(p=None), lambda: nn.Softmax(dim="a")(x),
                lambda: nn.Softmax(dim=1.5)(x), lambda: nn.LogSoftmax("a")(x), lambda: nn.LeakyReLU("a")(x),
                lambda: nn.LeakyReLU()([1.0]), lambda: nn.Flatten("a")(m), lambda: nn.Flatten(0, "a")(x),
                lambda: nn.ELU("a")(x), lambda: nn.Softplus("a")(x), lambda: nn.GELU(1)(x), lambda: nn.ELU()([1.0]),
                lambda: torch.optim.Adam([w], lr="a"), lambda: torch.optim.Adam([w], eps=None),
                lambda: torch.optim.AdamW([w], weight_decay="a"), lambda: torch.optim.RMSprop([w], alpha="a"),
                lambda: torch.optim.Adagrad([w], lr=None), lambda: torch.optim.SGD([w], lr="a"),
                lambda: torch.set_grad_enabled("a"), lambda: torch.set_grad_enabled(1),
                lambda: torch.set_default_dtype("a"), lambda: torch.set_default_dtype(torch.int64)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", e)
    except ValueError as e:
        print("ValueError", e)
for attempt in (lambda: nn.Softmax(0)([1.0]), lambda: nn.Flatten()([1.0]), lambda: nn.LogSoftmax(0)(None),
                lambda: torch.utils.data.TensorDataset([1, 2])):
    try:
        attempt()
    except AttributeError as e:
        print("AttributeError", e)
for attempt in (lambda: nn.Dropout(1.5), lambda: torch.optim.Adam([w], lr=-1)):
    try:
        attempt()
    except ValueError as e:
        print("ValueError", e)
try:
    nn.GELU("a")(x)
except RuntimeError as e:
    print("RuntimeError", e)
print(nn.Softmax(0)(x), nn.LogSoftmax(dim=0)(x), nn.Flatten()(m), nn.Flatten(0)(m), nn.LeakyReLU(0.2)(x), nn.ELU()(x))
print(nn.Softplus(2)(x), nn.GELU("tanh")(x), nn.Dropout(0.3), nn.Linear(2, 3).weight.shape)
with torch.set_grad_enabled(False):
    print((w * 2).requires_grad)
# %% scalar_int_out_of_range
import torch
x = torch.ones(2)
for attempt in (lambda: x * 2**70, lambda: x + 2**64, lambda: 2**64 - x, lambda: x * (-2**63 - 1),
                lambda: x.pow(2**70), lambda: x.fill_(2**64), lambda: x.masked_fill(x > 0, 2**64),
                lambda: torch.clamp(x, max=2**64), lambda: x > 2**64):
    try:
        attempt()
    except OverflowError as e:
        print("OverflowError", e)
print(x * 2**63, torch.ones(2, dtype=torch.long) * 2**63, torch.ones(2, dtype=torch.int32) * 2**40)
print(torch.ones(2, dtype=torch.uint8) * 300, torch.ones(2, dtype=torch.int16) * 70000)
print(torch.ones(2, dtype=torch.bool) * 2**40)
# %% dtype_refusals
import torch
import torch.nn.functional as F
x, m, i = torch.tensor([1.0, -2.0]), torch.ones(2, 2), torch.tensor([0, 1])
for attempt in (lambda: i.softmax(0), lambda: m.long().softmax(0), lambda: m.long().log_softmax(1),
                lambda: F.softmax(i.bool(), 0), lambda: F.mse_loss(i, i), lambda: F.mse_loss(i.int(), i.int()),
                lambda: F.binary_cross_entropy_with_logits(i, x), lambda: F.gelu(i), lambda: F.leaky_relu(i.bool()),
                lambda: F.elu(i), lambda: F.silu(i.int()), lambda: F.softplus(i), lambda: torch.bernoulli(i),
                lambda: torch.randn(2, dtype=torch.int64), lambda: torch.rand(2, dtype=torch.bool),
                lambda: torch.arange(3, dtype=torch.bool), lambda: i.normal_(), lambda: i.int().uniform_(),
                lambda: torch.nn.init.normal_(i), lambda: torch.nn.init.xavier_uniform_(m.long()), lambda: x & x,
                lambda: x | True):
    try:
        attempt()
    except NotImplementedError as e:
        print("NotImplementedError", e)
for attempt in (lambda: torch.mv(m.long(), x), lambda: torch.mv(m, x.long()),
                lambda: x.gather(0, torch.tensor([0.0])),
                lambda: F.cross_entropy(m, i.int()), lambda: F.nll_loss(m, i.to(torch.int16)),
                lambda: F.binary_cross_entropy_with_logits(x, i.int()), lambda: F.dropout(i, 0.5),
                lambda: F.dropout(i.bool(), 0.5), lambda: i.exponential_(), lambda: F.relu(i.bool())):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
print(x.gather(0, torch.tensor([1], dtype=torch.int32)), F.cross_entropy(m, i.to(torch.uint8)))
print(F.nll_loss(m, i.to(torch.uint8)))
print(F.mse_loss(i, x), F.dropout(i, 0.0), F.dropout(i, 0.5, False), torch.randn(2, dtype=torch.float16).dtype)
print(torch.arange(3, dtype=torch.int8), torch.nn.init.zeros_(m.long()), F.relu(i), x.long().bernoulli_(0.0))
# %% dtype_refusals_where_std_norm_clamp
import torch
x, m, i = torch.tensor([1.0, -2.0]), torch.ones(2, 2), torch.tensor([0, 1])
for attempt in (lambda: torch.where(torch.tensor([1.0, 0.0]), x, x), lambda: torch.where(i, x, x), lambda: i.std(),
                lambda: i.bool().var(), lambda: i.norm(), lambda: i.norm(1), lambda: i.clamp_(0.5),
                lambda: i.clamp_(max=0.5), lambda: i.bool().clamp_(0, 1), lambda: i.int().clamp_(0.5)):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.where(i.bool(), x, x), i.clamp(0.5), i.clamp(max=0.5), i.clamp(torch.tensor(0.5)), i.clamp(0, 1.5))
print(i.int().clamp(0.5).dtype, i.bool().clamp(0, 1), i.clamp(True), i.clamp(0, 1), x.double().clamp(0.5))
print(m.var(), x.norm(), i.float().std(), i.clamp_(0, 1), x.clamp_(0, 1.5), x)
# %% comparison_functions_and_aten_dropout
import torch
x = torch.tensor([1.0, 2.0])
for attempt in (lambda: torch.eq([1.0], 1), lambda: torch.eq(x, "a"), lambda: torch.lt(1.5, 1),
                lambda: torch.ge(x, None), lambda: torch.dropout(x, "a", True)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
for attempt in (lambda: torch.dropout(x, 1.5, True), lambda: torch.arange(1.5, 1), lambda: torch.arange(0, 5, -1)):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.eq(x, 1), torch.ne(x, x), torch.lt(x, 2.5), torch.le(x, torch.tensor(1.0)), torch.gt(x, 1), torch.ge(x, x))
print(torch.dropout(x, 0.0, True), torch.dropout(x, 0.5, False))
# %% loss_clip_and_generator_argument_types
import torch
import torch.nn.functional as F
from torch import nn
m, i, x = torch.ones(2, 2), torch.tensor([0, 1]), torch.ones(2, requires_grad=True)
g = torch.Generator()
for attempt in (lambda: F.cross_entropy(m, i, weight=[1.0, 2.0]), lambda: F.cross_entropy(m, i, ignore_index=1.5),
                lambda: F.cross_entropy(m, i, ignore_index="a"), lambda: F.cross_entropy(m, i, label_smoothing="a"),
                lambda: F.cross_entropy(m, i, label_smoothing=None), lambda: F.nll_loss(m, i, weight="a"),
                lambda: F.nll_loss(m, i, ignore_index=1.5), lambda: nn.CrossEntropyLoss(weight=[1.0, 2.0]),
                lambda: nn.CrossEntropyLoss(label_smoothing="a")(m, i), lambda: nn.NLLLoss(ignore_index="a")(m, i),
                lambda: nn.utils.clip_grad_norm_([x], None), lambda: nn.utils.clip_grad_value_([x], None),
                lambda: torch.randn(2, generator="a"), lambda: torch.randperm(3, generator=1),
                lambda: torch.randint(0, 5, (2,), generator="a"), lambda: torch.normal(0.0, 1.0, (2,), generator=[1])):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
for attempt in (lambda: nn.utils.clip_grad_norm_([x], "a"), lambda: nn.utils.clip_grad_value_([x], "a")):
    try:
        attempt()
    except ValueError as e:
        print("ValueError", e)
for attempt in (lambda: F.cross_entropy(m, i, label_smoothing=1.5), lambda: g.manual_seed("a"),
                lambda: g.manual_seed(1.5)):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
try:
    nn.utils.clip_grad_norm_("a", 1.0)
except AttributeError as e:
    print("AttributeError", e)
g.manual_seed(3)
print(torch.randperm(4, generator=g), torch.randperm(3, generator=None), torch.randint(0, 5, (2,), generator=g))
print(torch.rand(2, generator=g), F.cross_entropy(m, i, ignore_index=1), F.cross_entropy(m, i, label_smoothing=1))
print(nn.utils.clip_grad_norm_([x], 1), torch.manual_seed(3).initial_seed())
# %% autograd_argument_types
import torch
w = torch.ones(2, requires_grad=True)
for attempt in (lambda: torch.autograd.grad((w * 2).sum(), "a"), lambda: torch.autograd.grad((w * 2).sum(), [w, "a"]),
                lambda: (w * 2).sum().backward(inputs="a"), lambda: (w * 2).sum().backward(inputs=[w, 3]),
                lambda: torch.autograd.backward([w * 2, "a"])):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
for attempt in (lambda: torch.autograd.backward("a"), lambda: torch.autograd.grad("a", w)):
    try:
        attempt()
    except AssertionError as e:
        print("AssertionError", e)
print(torch.autograd.grad((w * 2).sum(), w), torch.autograd.grad((w * 2).sum(), [w]))
(w * 3).sum().backward(inputs=[w])
print(w.grad)
# %% augmented_assignment_non_number
import torch
x = torch.tensor([1.0, 2.0])
for other in ("a", [1.0, 2.0], None):
    for op in ("+=", "-=", "*=", "/="):
        try:
            if op == "+=":
                x += other
            elif op == "-=":
                x -= other
            elif op == "*=":
                x *= other
            else:
                x /= other
        except TypeError as e:
            print("TypeError", e)
x += 1
x *= torch.tensor([2.0, 3.0])
x -= 0.5
x /= 2
print(x)
# %% keyword_only_overloads_and_norm_orders
import torch
x, mask = torch.tensor([1.5, -2.0]), torch.tensor([True, False])
for attempt in (lambda: x.nonzero(1), lambda: x.nonzero(foo=1), lambda: torch.nonzero(x, "a"), lambda: x.round(1),
                lambda: x.round(foo=1), lambda: x.numpy(1)):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
for attempt in (lambda: x.norm("a"), lambda: torch.norm(x, "nuc")):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
print(x.nonzero(), x.nonzero(as_tuple=True), torch.nonzero(x, as_tuple=True), x.round(), x.norm("fro"))
# %% value_tensors_split_dim_and_to
import torch
x, m, mask = torch.tensor([1.0, 2.0]), torch.ones(2, 2), torch.tensor([True, False])
for attempt in (lambda: x.masked_fill(mask, x), lambda: x.clone().fill_(torch.tensor([1.0])), lambda: x.to(0),
                lambda: x.to(device=0), lambda: torch.zeros(2, device=0)):
    try:
        attempt()
    except RuntimeError as e:
        print("RuntimeError", e)
for attempt in (lambda: x.split(1, dim="a"), lambda: x.split([1, 1], dim="a"), lambda: torch.split(x, 1, "a"),
                lambda: x.to(torch.float64, copy="a"), lambda: x.to(dtype="a"), lambda: x.to(torch.float64, "a")):
    try:
        attempt()
    except TypeError as e:
        print("TypeError", str(e).split("\n")[0])
print(x.split(1, 0), x.split([1, 1], dim=0), x.masked_fill(mask, torch.tensor(2.0)), x.clone().fill_(torch.tensor(3.0)))
print(x.to(True), x.to(1.5), x.to(float), x.to(int), x.to(dtype=float), x.to("cpu", torch.float64), x.to(m))
print(x.to(torch.int64, copy=True), x.to(device="cpu"), x.to())
# %% index_list_with_str_and_dtype_data
import torch
x, m = torch.tensor([1.0, 2.0]), torch.ones(2, 2)
try:
    x[[0, "a"]]
except IndexError as e:
    print("IndexError", e)
try:
    m[[0, "a"]]
except TypeError as e:
    print("TypeError", e)
try:
    torch.tensor([torch.float32])
except RuntimeError as e:
    print("RuntimeError", e)
print(x[[None, 0]], m[[0, 1]])

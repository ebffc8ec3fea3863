# %% int_valued_float
import torch
print(torch.tensor(16.0))
print(torch.tensor([1.0, 2.0, 3.0]))
print(torch.tensor([1.5, 2.0]))
# %% precision_four
import torch
print(torch.tensor([1.23456, 2.5, -3.14159]))
print(torch.tensor(0.1))
print(torch.tensor(1 / 3))
# %% sci_small
import torch
print(torch.tensor([1e-5, 1.0]))
print(torch.tensor(0.00001234))
print(torch.tensor([1e-10, 2e-10]))
# %% sci_large
import torch
print(torch.tensor([1e10, 1.0]))
print(torch.tensor(123456789.0))
print(torch.tensor([1000.0, 2000.5]))
# %% mixed_range
import torch
print(torch.tensor([0.001, 1000.0]))
print(torch.tensor([0.0001, 10.0]))
print(torch.tensor([1e-4, 1e4]))
# %% matrix_alignment
import torch
print(torch.tensor([[1.0, -20.5], [300.25, 4.0]]))
print(torch.tensor([[1, -20], [300, 4]]))
# %% three_d
import torch
print(torch.arange(24).reshape(2, 3, 4))
print(torch.ones(2, 1, 2))
# %% requires_grad_suffix
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(torch.tensor(5.0, requires_grad=True))
# %% grad_fn_suffixes
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x + 1)
print(x - 1)
print(x / 2)
print(-x)
print(x.mean())
print(x.exp())
print(x @ x)
print(x.view(2, 1))
print(x[0])
# %% dtype_suffix
import torch
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1, 2], dtype=torch.float16))
print(torch.tensor(3, dtype=torch.int8))
print(torch.tensor([True, False]))
print(torch.tensor(2.5, dtype=torch.double, requires_grad=True))
# %% summarization
import torch
print(torch.arange(2000))
print(torch.arange(1001.0))
# %% summarization_2d
import torch
print(torch.ones(40, 40))
print(torch.arange(3000).reshape(100, 30))
# %% no_summary_1000
import torch
print(torch.zeros(1000).shape)
x = torch.arange(12.0).reshape(3, 4) / 7
print(x)
# %% empty_tensors
import torch
print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.tensor([]).shape)
# %% negatives_zero
import torch
print(torch.tensor([-0.0, 0.0, -1.0]))
print(torch.tensor([-1.5, 2.25]))
# %% inf_nan
import torch
print(torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0]))
print(torch.tensor([1.0, 2.0]) / 0)
print(torch.log(torch.tensor([0.0, 1.0])))
# %% fstring_item
import torch
x = torch.tensor(3.14159265)
print(f"{x.item():.4f}")
print(f"{x.item():.2e}")
print(f"value: {x.item()}")
print(f"{x}")
print(f"{x:}")
print("x =", x)
# %% format_tensor_scalar
import torch
x = torch.tensor(2.5)
print(f"{x:.3f}")
print("{:.2f}".format(x.item()))
print(format(x.item(), ".1f"))
print(str(x), repr(x))
# %% print_model
import torch.nn as nn
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())
print(model)
# %% print_linear
import torch.nn as nn
print(nn.Linear(3, 2))
print(nn.Linear(3, 2, bias=False))
print(nn.ReLU())
print(nn.MSELoss())
print(nn.CrossEntropyLoss())
print(nn.Tanh(), nn.Softmax(dim=1))
# %% print_custom_module
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 4)
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(4, 1)
    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
print(Net())
# %% print_optimizer
import torch
import torch.nn as nn
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(opt)
# %% print_adam
import torch
import torch.nn as nn
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
print(opt)
# %% print_sgd_momentum
import torch
w = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.01, momentum=0.9, weight_decay=1e-4)
print(opt)
# %% print_size_dtype
import torch
x = torch.randn(3, 4)
print(x.shape, x.dtype)
print(torch.float32, torch.int64, torch.bool)
print(x.size())
# %% print_grad_fn_obj
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x.sin()
print(y.grad_fn)
print(y.grad_fn.name())
# %% print_list_of_tensors
import torch
a = torch.tensor(1.0)
b = torch.tensor([2.0, 3.0])
print([a, b])
print((a, b))
print({"a": a})
# %% print_int_large
import torch
print(torch.tensor([1, 1000000, -5]))
print(torch.tensor(123456789012))
# %% print_small_floats_column
import torch
x = torch.tensor([[0.1234, 12.5], [100.0, 0.0001]])
print(x)
# %% print_grad_values
import torch
x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = (x ** 3).sum()
y.backward()
print(x.grad)
print(y)
# %% print_param_repr
import torch
import torch.nn as nn
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(p.requires_grad)
# %% print_double_grad
import torch
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (x * x).sum()
print(y)
y.backward()
print(x.grad)
# %% print_bool_matrix
import torch
x = torch.tensor([[1, 2], [3, 4]])
print(x > 2)
print(x == 2)
print((x > 1) & (x < 4))
# %% print_long_row_wrap
import torch
print(torch.arange(30.0) / 3)
print(torch.linspace(-1, 1, 25))
# %% print_large_values_grad
import torch
x = torch.tensor([100.0, 200.0], requires_grad=True)
y = x ** 3
print(y)
# %% print_str_concat
import torch
x = torch.tensor([1.0, 2.0])
print("x is " + str(x))
print("shape:", x.shape, "sum:", x.sum().item())
# %% set_printoptions_precision
import torch
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.5]))
torch.set_printoptions(precision=4)
print(torch.tensor([1.23456, 2.5]))
# %% set_printoptions_sci
import torch
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.0]))
torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-5, 1.0]))
# %% state_dict
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
print(model.state_dict())
for k, v in model.state_dict().items():
    print(k, v.shape)
# %% param_groups
import torch
w = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
print(opt.param_groups[0]["lr"])
for g in opt.param_groups:
    g["lr"] = 0.01
print(opt.param_groups[0]["lr"])
# %% debug_fstring
import torch
x = torch.tensor(2.0)
print(f"{x.item()=}")
print(f"{x=}")
# %% grad_create_graph_repr
import torch
x = torch.tensor(2.0, requires_grad=True)
g, = torch.autograd.grad(x ** 2, x, create_graph=True)
print(g)
print(g.requires_grad)
# %% mixed_neg_sci
import torch
print(torch.tensor([-1e-6, 5e-3, 2.0]))
print(torch.tensor([123.456, -0.001]))
print(torch.tensor([1e8, 1e-8]))
# %% float64_print
import torch
x = torch.tensor([0.1, 0.2], dtype=torch.float64)
print(x + 0.3)
print(torch.tensor(1 / 3, dtype=torch.float64))
# %% int_matrix_neg
import torch
print(torch.tensor([[-1, 20], [300, -4000]]))
print(torch.arange(-3, 3).view(2, 3))
# %% print_sequential_nested
import torch.nn as nn
block = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
model = nn.Sequential(block, nn.Linear(2, 1))
print(model)
print(model[0][0])
# %% print_module_list_custom
import torch.nn as nn
class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
print(MLP([3, 4, 2]))
# %% print_half_grad_fn
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.double() * 2
print(y)
print(x.long())
# %% print_nested_list
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(x.tolist())
print(x[0].tolist(), x[1, 1].item())
print(torch.tensor(7).item(), isinstance(torch.tensor(7).item(), int))
# %% print_many_shapes
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, 4)
print(x)
print(x.sum(dim=(0, 2)))
print(x.mean(-1, keepdim=True).shape)
# %% print_grad_fn_variety
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(x.t())
print(x.sum(0))
print(x.max())
print(x.pow(2).sqrt())
print(x.reshape(4))
print(x.unsqueeze(0).squeeze(0))
print(x[:, 1])
print(x[x > 2])
print(torch.cat([x, x]))
print(torch.stack([x, x]).shape)
print(x.abs().clamp(max=3))
print(x.softmax(dim=1))
print(x.log_softmax(dim=1))
print(x.std())
print(x.norm())
print(x.expand(2, 2, 2).shape)
print(x.repeat(1, 2))
print(x.float())
print(x.double())
# %% print_scalar_styles
import torch
for v in [0.0, 1.0, -1.0, 0.5, 100.0, 1e-3, 1e-5, 12345.678, 1e10, -0.0001]:
    print(torch.tensor(v))
# %% print_vector_styles
import torch
print(torch.tensor([0.0, 0.0]))
print(torch.tensor([1e-8, 0.0]))
print(torch.tensor([1.0, float("nan")]))
print(torch.tensor([1.5, float("inf")]))
print(torch.tensor([100000.0, 1.0]))
print(torch.tensor([99999.0, 1.5]))
print(torch.tensor([1e9, 2e9]))
print(torch.tensor([0.1, 0.01, 0.001]))
# %% print_int_dtypes
import torch
x = torch.arange(5, dtype=torch.int32)
print(x)
print(x * 2.5)
print(x.sum(), x.sum().dtype)
print(torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([1.5, 2.5]).int())
print(torch.tensor(3).float() / 2)
# %% print_long_lines_requires_grad
import torch
x = torch.linspace(0, 1, 12, requires_grad=True)
print(x)
print(x * 1000)
# %% print_3d_summarized
import torch
x = torch.arange(2400.0).reshape(4, 20, 30)
print(x)
# %% print_optimizer_param_groups
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[1].parameters(), "lr": 0.01},
], lr=0.1, momentum=0.9)
print(opt)
print(len(opt.param_groups))
# %% print_adamw_and_dampening
import torch
w = torch.zeros(1, requires_grad=True)
print(torch.optim.AdamW([w], lr=0.01))
print(torch.optim.SGD([w], lr=0.1, momentum=0.5, dampening=0.1))
# %% print_modulelist_repeated
import torch.nn as nn
class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.acts = nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()])
        self.head = nn.Linear(4, 1)
    def forward(self, x):
        for layer, act in zip(self.layers, self.acts):
            x = act(layer(x))
        return self.head(x)
print(Deep())
print(nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)))
# %% print_module_extra_attrs
import torch
import torch.nn as nn
class Scaled(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.scale = nn.Parameter(torch.ones(1))
    def forward(self, x):
        return x * self.scale * self.factor
m = Scaled(2.0)
print(m)
print(list(m.named_parameters()))
print(m(torch.tensor([1.0, 2.0])))
# %% suffix_wrapping
import torch
torch.manual_seed(0)
w = torch.randn(4, 5, requires_grad=True)
print(w * 2)
v = torch.randn(9, requires_grad=True)
print(v)
print(v.exp())
d = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(d)
print(d * 2)
print(torch.randn(2, 8, dtype=torch.float64) * 1000)
# %% return_types_print
import torch
x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
print(torch.max(x, 1))
print(x.min(dim=0))
print(torch.max(x, dim=1, keepdim=True))
print(x.max(dim=1).values, x.min(0).indices)
values, idx = torch.max(x, dim=0)
print(values, idx)
print(torch.min(x))
# %% containers_with_tensors
import torch
d = {"w": torch.tensor([1.0, 2.0]), "b": torch.tensor(0.5)}
print(d)
print([torch.tensor(1), torch.tensor(2.5)])
print((torch.ones(1), None))
print({"loss": round(torch.tensor(0.123456).item(), 4)})
# %% wide_int_and_neg_float_columns
import torch
print(torch.tensor([[1.5, -10.25, 100.125], [-0.5, 3.0, -1000.0]]))
print(torch.tensor([[123456, -7], [0, 42]]))
print(torch.tensor([0.000123, 0.5]))
print(torch.tensor([[1e-3, 1e3], [5.0, 6.0]]))
# %% grad_printing_after_steps
import torch
torch.manual_seed(7)
w = torch.randn(3, 3, requires_grad=True)
x = torch.randn(3)
loss = torch.tanh(w @ x).pow(2).sum()
loss.backward()
print(loss)
print(w.grad)
print(w.grad.norm().item() > 0)
# %% set_default_dtype_double
import torch
import torch.nn as nn
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype())
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x, x.dtype)
print(torch.zeros(2), torch.ones(1, dtype=torch.float32))
print(torch.arange(3) * 0.5)
torch.manual_seed(0)
print(torch.randn(3), torch.rand(2))
lin = nn.Linear(2, 1)
print(lin.weight.dtype, lin(x))
print(torch.linspace(0, 1, 3), torch.full((2,), 1.5))
torch.set_default_dtype(torch.float32)
print(torch.tensor(1.5), torch.get_default_dtype())
# %% device_and_types
import torch
import torch.nn as nn
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.cuda.is_available())
x = torch.ones(2, 2).to(device)
print(x.device, x.is_cuda, x.type(), torch.tensor([1]).type())
model = nn.Linear(2, 1).to(device)
print(model.weight.device)
print(torch.tensor([[]]), torch.tensor(True), torch.tensor([1e20, 1.0]))
print(torch.tensor([float("nan"), float("inf")]), torch.tensor([0.0, -0.0]))
print(x.element_size(), x.nelement(), x.ndimension())
# %% printoptions_more
import torch
torch.manual_seed(0)
x = torch.randn(4, 12)
torch.set_printoptions(precision=6, linewidth=120)
print(x)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10.0))
print(x)
torch.set_printoptions(profile="full")
print(torch.arange(1200)[-3:])
torch.set_printoptions(profile="short")
print(x[0])
torch.set_printoptions(profile="default")
print(x[0])
# %% classes_inside_containers
import torch
from torch import nn
x = torch.ones(2, requires_grad=True)
# A tuple, list or dict shows each class with repr: PyTorch's names, as print(type(x)) shows them
print((type(x), type(1.0)), [type(nn.Linear(1, 1)), type(x.sum().grad_fn), type(torch.Size([2]))])
print({"t": type(x), "p": type(nn.Parameter(x))}, str((type(x.dtype),)), repr([type(x.device)]))
print(f"{(type(x), type(None))}")

# %% randn_vector
import torch
torch.manual_seed(42)
x = torch.randn(5)
print(x)
# %% rand_matrix
import torch
torch.manual_seed(0)
print(torch.rand(3, 4))
# %% randint_range
import torch
torch.manual_seed(7)
print(torch.randint(0, 10, (3, 3)))
# %% randint_high_only
import torch
torch.manual_seed(3)
print(torch.randint(5, (6,)))
# %% seed_reproducible
import torch
torch.manual_seed(123)
a = torch.randn(3)
torch.manual_seed(123)
b = torch.randn(3)
print(a)
print(b)
print(torch.equal(a, b))
# %% randn_requires_grad
import torch
torch.manual_seed(1)
w = torch.randn(3, requires_grad=True)
print(w)
loss = (w ** 2).sum()
loss.backward()
print(w.grad)
# %% randn_large_path
import torch
torch.manual_seed(2024)
x = torch.randn(20)
print(x)
# %% rand_large_path
import torch
torch.manual_seed(11)
print(torch.rand(4, 5))
# %% linear_init
import torch
import torch.nn as nn
torch.manual_seed(0)
layer = nn.Linear(3, 2)
print(layer.weight)
print(layer.bias)
# %% linear_init_big
import torch
import torch.nn as nn
torch.manual_seed(42)
fc = nn.Linear(4, 3)
for name, p in fc.named_parameters():
    print(name, p.shape)
    print(p)
# %% seed_then_sequence
import torch
torch.manual_seed(5)
print(torch.rand(2))
print(torch.rand(2))
print(torch.randn(2))
# %% randn_2d_grad_sum
import torch
torch.manual_seed(99)
x = torch.randn(2, 3, requires_grad=True)
y = x * 3 + 1
z = y.mean()
z.backward()
print(z)
print(x.grad)
# %% rand_scaled
import torch
torch.manual_seed(8)
x = torch.rand(5) * 10 - 5
print(x)
# %% randn_like
import torch
torch.manual_seed(4)
base = torch.zeros(2, 2)
noise = torch.randn_like(base)
print(noise)
# %% rand_like
import torch
torch.manual_seed(4)
print(torch.rand_like(torch.ones(3)))
# %% normal_fill
import torch
torch.manual_seed(0)
w = torch.empty(3, 2)
w.normal_(0, 0.1)
print(w)
# %% uniform_fill
import torch
torch.manual_seed(0)
w = torch.empty(2, 3).uniform_(-1, 1)
print(w)
# %% seed_item
import torch
torch.manual_seed(17)
x = torch.randn(1)
print(x.item())
print(f"{x.item():.4f}")
# %% seed_dtype_double
import torch
torch.manual_seed(6)
print(torch.randn(3, dtype=torch.float64))
# %% randn_tuple_shape
import torch
torch.manual_seed(12)
x = torch.randn((2, 2))
print(x)
print(x.shape)
# %% sequential_init
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for p in model.parameters():
    print(p)
# %% seed_forward
import torch
import torch.nn as nn
torch.manual_seed(1)
model = nn.Linear(3, 1)
x = torch.randn(4, 3)
print(model(x))
# %% seed_randint_float_ops
import torch
torch.manual_seed(21)
labels = torch.randint(0, 3, (5,))
print(labels)
print(labels.dtype)
# %% initial_seed
import torch
torch.manual_seed(31)
print(torch.initial_seed())
# %% manual_seed_return_rand
import torch
g = torch.manual_seed(2)
print(torch.rand(3))
# %% seed_normal_function
import torch
torch.manual_seed(10)
print(torch.normal(0.0, 1.0, size=(2, 3)))
# %% seed_randn_sum_backward
import torch
torch.manual_seed(3)
a = torch.randn(4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
c = (a * b).sum()
c.backward()
print(a.grad)
print(b.grad)
print(torch.allclose(a.grad, b))
# %% seed_small_scale_sci
import torch
torch.manual_seed(42)
w = torch.randn(2, 3) * 0.01
print(w)
print(torch.randn(3) * 1e-5)
# %% seed_summarized
import torch
torch.manual_seed(7)
x = torch.randn(1200)
print(x)
print(x.mean(), x.std())
# %% seed_masks_and_argmax
import torch
torch.manual_seed(1)
r = torch.rand(3, 3)
print(r > 0.5)
print(torch.randint(0, 2, (10,)).bool())
v = torch.randn(5)
print(v.argmax(), v.max(), torch.randn(3, 4).max(dim=1))
# %% seed_linear_then_data
import torch
import torch.nn as nn
torch.manual_seed(42)
layer = nn.Linear(4, 2)
x = torch.randn(3, 4)
y = layer(x)
print(y)
print(y.sum().item() != 0)
torch.manual_seed(42)
layer2 = nn.Linear(4, 2)
print(torch.equal(layer.weight, layer2.weight))
# %% seed_generator_independent
import torch
torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
a = torch.randn(3)
b = torch.randn(3, generator=g)
print(a, b, torch.equal(a, b))
print(torch.rand(2), torch.rand(2, generator=g))
print(g.initial_seed())

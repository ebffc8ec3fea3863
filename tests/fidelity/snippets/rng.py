# %% randperm_small
import torch
torch.manual_seed(0)
print(torch.randperm(5))
# %% randperm_shuffle
import torch
torch.manual_seed(1)
data = torch.arange(10.0)
idx = torch.randperm(10)
print(data[idx])
# %% randn_many_draws
import torch
torch.manual_seed(2)
for _ in range(3):
    print(torch.randn(2))
# %% rand_after_randn
import torch
torch.manual_seed(3)
a = torch.randn(17)
b = torch.rand(3)
print(b)
# %% randint_large
import torch
torch.manual_seed(4)
print(torch.randint(0, 100, (20,)))
# %% randn_odd_sizes
import torch
torch.manual_seed(5)
print(torch.randn(15))
print(torch.randn(16))
# %% rand_double
import torch
torch.manual_seed(6)
print(torch.rand(3, dtype=torch.float64))
# %% normal_mean_std
import torch
torch.manual_seed(7)
print(torch.normal(2.0, 0.5, size=(4,)))
# %% normal_inplace_large
import torch
torch.manual_seed(8)
w = torch.zeros(5, 4)
w.normal_(mean=0.0, std=0.02)
print(w)
# %% uniform_inplace_large
import torch
torch.manual_seed(9)
print(torch.empty(20).uniform_(0, 5))
# %% nn_init_functions
import torch
import torch.nn as nn
torch.manual_seed(10)
w = torch.empty(3, 5)
nn.init.xavier_uniform_(w)
print(w)
nn.init.zeros_(w)
print(w)
# %% kaiming_normal
import torch
import torch.nn as nn
torch.manual_seed(11)
w = torch.empty(4, 3)
nn.init.kaiming_normal_(w)
print(w)
# %% linear_layers_sequence
import torch
import torch.nn as nn
torch.manual_seed(12)
l1 = nn.Linear(5, 3)
l2 = nn.Linear(3, 2)
print(l2.weight)
print(l1.bias)
# %% minibatch_sampling
import torch
torch.manual_seed(13)
X = torch.randn(10, 2)
perm = torch.randperm(10)
for i in range(0, 10, 4):
    batch = X[perm[i:i + 4]]
    print(batch.shape, batch.sum().item() != 0)
print(perm)
# %% randint_matrix_rand
import torch
torch.manual_seed(14)
a = torch.randint(-5, 5, (2, 3))
b = torch.rand(2, 3)
print(a)
print(b)
# %% randn_3d
import torch
torch.manual_seed(15)
print(torch.randn(2, 2, 5))
# %% bernoulli_style_mask
import torch
torch.manual_seed(16)
mask = torch.rand(8) > 0.5
print(mask)
# %% randn_scaled_grad
import torch
torch.manual_seed(17)
w = (torch.randn(3, 2) * 0.01).requires_grad_()
x = torch.randn(4, 3)
loss = (x @ w).pow(2).mean()
loss.backward()
print(w.grad)
# %% rand_int_dtype
import torch
torch.manual_seed(18)
print(torch.randint(0, 2, (10,), dtype=torch.float32))
# %% randn_with_seed_twice_sequence
import torch
torch.manual_seed(19)
a = torch.randn(100)
print(a[:5])
print(a.mean().item() != 0)
b = torch.randn(3)
print(b)
# %% generator_object
import torch
g = torch.Generator().manual_seed(20)
print(torch.randn(3, generator=g))
print(torch.rand(2, generator=g))
# %% seed_randn_like_large
import torch
torch.manual_seed(21)
x = torch.randn_like(torch.zeros(4, 6))
print(x)
# %% rand_uniform_transform
import torch
torch.manual_seed(22)
low, high = -2.0, 3.0
x = low + (high - low) * torch.rand(6)
print(x)
# %% normal_tensor_means
import torch
torch.manual_seed(23)
print(torch.normal(torch.zeros(3), torch.ones(3)))
# %% sequential_forward_seeded
import torch
import torch.nn as nn
torch.manual_seed(24)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(2, 3)
print(net(x))
# %% dropout_train
import torch
import torch.nn as nn
torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(10)
print(drop(x))
print(drop(torch.arange(8.0).view(2, 4)))
# %% dropout_p01_grad
import torch
import torch.nn.functional as F
torch.manual_seed(3)
x = torch.ones(12, requires_grad=True)
y = F.dropout(x, p=0.1)
y.sum().backward()
print(y)
print(x.grad)
print(torch.rand(2))
# %% dropout_in_model
import torch
import torch.nn as nn
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.25), nn.Linear(8, 2))
x = torch.randn(3, 4)
model.train()
print(model(x))
model.eval()
print(model(x))
# %% bernoulli
import torch
torch.manual_seed(5)
probs = torch.full((3, 4), 0.3)
print(torch.bernoulli(probs))
print(torch.empty(6).bernoulli_(0.5))
# %% makemore_generator
import torch
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
print(W[0, :5])
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
# %% randint_kwargs
import torch
torch.manual_seed(9)
print(torch.randint(low=0, high=10, size=(4,)))
print(torch.randint(0, 3, size=(2, 2), dtype=torch.int32))
print(torch.randint(10, (3,)).tolist())
# %% random_inplace
import torch
torch.manual_seed(4)
print(torch.empty(5).random_(0, 10))
print(torch.empty(3, dtype=torch.long).random_(100))
# %% multinomial
import torch
g = torch.Generator().manual_seed(2147483647)
p = torch.tensor([0.6064, 0.3033, 0.0903])
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))
torch.manual_seed(1)
print(torch.multinomial(torch.tensor([1.0, 2.0, 3.0, 4.0]), 2))
# %% makemore_sampling_loop
import torch
g = torch.Generator().manual_seed(2147483647)
P = torch.rand((5, 5), generator=g)
P = P / P.sum(1, keepdim=True)
out = []
ix = 0
for _ in range(12):
    ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
    out.append(ix)
print(out)
print(torch.multinomial(P, 3, generator=g))
print(torch.multinomial(P[0], 4, replacement=True, generator=g))
print(torch.empty(4).exponential_(2.0, generator=g))
# %% rng_state_roundtrip
import torch
torch.manual_seed(0)
state = torch.get_rng_state()
a = torch.randn(3)
b = torch.rand(20)
torch.set_rng_state(state)
print(torch.equal(a, torch.randn(3)), torch.equal(b, torch.rand(20)))
print(state.shape, state.dtype)
print(torch.randn(2))

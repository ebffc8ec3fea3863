# %% scalar_square
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)
# %% vector_sum
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(x.grad)
# %% accumulation
import torch
x = torch.tensor(2.0, requires_grad=True)
(x ** 2).backward()
print(x.grad)
(x ** 3).backward()
print(x.grad)
x.grad = None
(x ** 3).backward()
print(x.grad)
# %% zero_grad_inplace
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 3).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
(x * x).sum().backward()
print(x.grad)
# %% chain_rule
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
z = y ** 2 + 1
z.backward()
print(z)
print(x.grad)
# %% is_leaf_requires_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.sum()
print(x.is_leaf, y.is_leaf, z.is_leaf)
print(x.requires_grad, y.requires_grad)
print(x.grad_fn)
# %% grad_fn_names
import torch
a = torch.tensor(1.5, requires_grad=True)
b = torch.tensor(-0.5, requires_grad=True)
c = a * b + a.exp()
print(c.grad_fn.name())
print(c.grad_fn.next_functions[0][0].name())
# %% next_functions
import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = x * w
print(y.grad_fn)
print(y.grad_fn.next_functions)
# %% two_inputs_grads
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(5.0, requires_grad=True)
c = a * b + b ** 2
c.backward()
print(a.grad, b.grad)
# %% exp_log
import torch
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = torch.log(torch.exp(x) + 1).sum()
y.backward()
print(y)
print(x.grad)
# %% sigmoid_grad
import torch
x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
s = torch.sigmoid(x)
s.sum().backward()
print(s)
print(x.grad)
# %% tanh_grad
import torch
x = torch.tensor([0.0, 0.5, -2.0], requires_grad=True)
y = torch.tanh(x)
y.sum().backward()
print(y)
print(x.grad)
# %% relu_grad
import torch
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
y = torch.relu(x)
y.sum().backward()
print(y)
print(x.grad)
# %% mean_grad
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
m = x.mean()
m.backward()
print(m)
print(x.grad)
# %% matmul_grad
import torch
W = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = torch.tensor([1.0, -1.0])
y = W @ x
y.sum().backward()
print(y)
print(W.grad)
# %% dtype_default
import torch
x = torch.tensor([1.0, 2.0])
i = torch.tensor([1, 2])
print(x.dtype, i.dtype)
print((x + i).dtype)
print((i * 2.5).dtype)
print((i / 2))
# %% int_tensor_ops
import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5, 6])
print(a + b)
print(a * b)
print(b // a)
print(b % 2)
print(a.sum())
# %% bool_mask
import torch
x = torch.tensor([1.0, -2.0, 3.0, -4.0])
mask = x > 0
print(mask)
print(x[mask])
print(mask.sum())
print(mask.dtype)
# %% shape_size
import torch
x = torch.zeros(2, 3, 4)
print(x.shape)
print(x.size())
print(x.size(1))
print(x.dim(), x.numel())
print(x.shape[0])
# %% torch_size_compare
import torch
x = torch.ones(3, 2)
print(x.shape == torch.Size([3, 2]))
print(x.shape == (3, 2))
print(list(x.shape))
print(torch.Size([1, 2, 3]))
# %% item_tolist
import torch
x = torch.tensor([[1.5, 2.5], [3.5, 4.5]])
print(x.sum().item())
print(x.tolist())
print(x[0, 1].item())
# %% detach
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y.detach()
print(z)
print(z.requires_grad, z.is_leaf)
w = y * z
w.backward()
print(x.grad)
# %% no_grad_block
import torch
x = torch.tensor(1.0, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
print(y)
z = x * 2
print(z.requires_grad)
# %% retain_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad)
print(x.grad)
# %% nonleaf_grad_none
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x * 2
y.backward()
print(y.grad)
print(x.grad)
# %% requires_grad_inplace
import torch
x = torch.tensor([1.0, 2.0])
print(x.requires_grad)
x.requires_grad_()
print(x.requires_grad)
(x * x).sum().backward()
print(x.grad)
# %% clone_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.clone()
print(y)
y.sum().backward()
print(x.grad)
# %% set_grad_enabled
import torch
x = torch.tensor(3.0, requires_grad=True)
torch.set_grad_enabled(False)
y = x * 2
torch.set_grad_enabled(True)
z = x * 2
print(y.requires_grad, z.requires_grad)
print(torch.is_grad_enabled())
# %% autograd_grad
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x)
print(g)
print(x.grad)
# %% second_derivative
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
print(dy)
d2y, = torch.autograd.grad(dy, x)
print(d2y)
# %% second_derivative_backward
import torch
x = torch.tensor(1.0, requires_grad=True)
y = torch.sin(x) * x
g, = torch.autograd.grad(y, x, create_graph=True)
g.backward()
print(g)
print(x.grad)
# %% hook_double
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: g * 2)
(x * 3).sum().backward()
print(x.grad)
h.remove()
# %% hook_print
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.register_hook(lambda g: print("grad of y:", g))
z = y * 3
z.backward()
print(x.grad)
# %% float_double_long
import torch
x = torch.tensor([1.7, -2.3])
print(x.long())
print(x.int())
print(x.double())
print(torch.tensor([1, 0]).float())
print(torch.tensor([1, 0]).bool())
# %% to_dtype
import torch
x = torch.arange(4)
print(x)
y = x.to(torch.float32)
print(y, y.dtype)
print(x.to(dtype=torch.float64))
# %% arange_linspace
import torch
print(torch.arange(5))
print(torch.arange(1, 4, 0.5))
print(torch.linspace(0, 1, 5))
print(torch.arange(0.0, 1.0, 0.25))
# %% factories
import torch
print(torch.zeros(2, 3))
print(torch.ones(2))
print(torch.full((2, 2), 7.0))
print(torch.eye(3))
print(torch.zeros_like(torch.ones(2, 2)))
print(torch.full((2,), 3))
# %% reductions_dim
import torch
x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(dim=0))
print(x.sum(dim=1, keepdim=True))
print(x.mean(1))
print(x.max())
print(x.max(dim=1))
print(x.argmax(dim=0))
print(x.amax(1))
print(x.prod())
# %% broadcasting_grad
import torch
a = torch.ones(2, 3, requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = (a * b).sum()
c.backward()
print(a.grad)
print(b.grad)
# %% inplace_no_grad_update
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print(w)
w.grad.zero_()
print(w.grad)
# %% next_functions_constant
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y.grad_fn.next_functions)
z = y + x
print(z.grad_fn.next_functions)
print(z.grad_fn.next_functions[1][0].variable)
# %% saved_tensors
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_exponent)
z = x.exp()
print(z.grad_fn._saved_result)
w = torch.tensor(2.0, requires_grad=True)
m = x * w
print(m.grad_fn._saved_other, m.grad_fn._saved_self)
# %% randn_times_two_not_leaf
import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True) * 2
print(x.is_leaf)
x.sum().backward()
print(x.grad)
# %% grad_none_before_backward
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.grad)
print(torch.tensor(1.0).grad_fn)
print(torch.ones(2).requires_grad)
# %% int_division
import torch
print(torch.tensor(5) / 2)
print(torch.tensor([5, 7]) // 2)
print(torch.tensor([1, 2, 3]).float().mean())
print(torch.tensor([True, False, True]).sum())
print(torch.tensor([3, 1, 2]).max())
# %% create_graph_backward
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward(create_graph=True)
print(x.grad)
g = x.grad
x.grad = None
g.backward()
print(x.grad)
# %% hessian_by_hand
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
f = x[0] ** 2 * x[1] + x[1] ** 3
g, = torch.autograd.grad(f, x, create_graph=True)
print(g)
rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)]
print(torch.stack(rows))
# %% third_derivative
import torch
x = torch.tensor(1.5, requires_grad=True)
y = torch.sin(x)
d1, = torch.autograd.grad(y, x, create_graph=True)
d2, = torch.autograd.grad(d1, x, create_graph=True)
d3, = torch.autograd.grad(d2, x)
print(d1, d2, d3, sep="\n")
# %% data_attribute
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
w.data -= 0.1 * w.grad.data
print(w)
print(w.data)
print(w.grad.data)
# %% view_reshape_t
import torch
x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
print(m)
print(m.t())
print(m.T.shape)
print(m.reshape(3, 2))
print(m.view(-1))
print(m.unsqueeze(0).shape, m.unsqueeze(-1).shape)
print(m.flatten())
# %% squeeze_permute
import torch
x = torch.zeros(1, 3, 1, 2)
print(x.squeeze().shape)
print(x.squeeze(0).shape)
print(x.permute(3, 1, 0, 2).shape)
print(x.transpose(1, 3).shape)
# %% std_var_norm
import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
print(x.std())
print(x.var(unbiased=False))
print(x.norm())
print(torch.norm(x - 1))
x.std().backward()
print(x.grad)
# %% clamp_grad
import torch
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = torch.clamp(x, 0, 1)
y.sum().backward()
print(y)
print(x.grad)
# %% pow_tensor_exponent
import torch
base = torch.tensor(2.0, requires_grad=True)
e = torch.tensor(3.0, requires_grad=True)
y = base ** e
y.backward()
print(y, base.grad, e.grad)
z = 2 ** e
print(z)
# %% reflected_ops
import torch
x = torch.tensor(4.0, requires_grad=True)
y = 1 / x + 2 - x + 3 * x
y.backward()
print(y)
print(x.grad)
# %% inference_mode
import torch
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.requires_grad)
# %% sqrt_abs_grad
import torch
x = torch.tensor([4.0, -9.0], requires_grad=True)
y = torch.sqrt(torch.abs(x))
y.sum().backward()
print(y)
print(x.grad)
# %% log_softmax_values
import torch
z = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(torch.softmax(z, dim=1))
print(torch.log_softmax(z, dim=-1))
print(z.softmax(0))
# %% max_with_dim_grad
import torch
x = torch.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
values, indices = x.max(dim=1)
values.sum().backward()
print(values, indices)
print(x.grad)
# %% where_scalar
import torch
x = torch.tensor([-1.0, 2.0, -3.0])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, x, 0.0))
print(x.masked_fill(x < 0, 0))
# %% detach_shares_data
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
d = x.detach()
d[0] = 10.0
print(x)
print(d)
# %% is_leaf_param
import torch
import torch.nn as nn
lin = nn.Linear(2, 1)
print(lin.weight.is_leaf, lin.weight.requires_grad, lin.weight.grad)
print(lin.weight.shape, lin.bias.shape)
# %% official_autograd_tutorial
import torch
x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
out.backward()
print(x.grad)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
print(x.requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
# %% accumulate_grad_chain
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x.exp().sin()
print(y.grad_fn.next_functions[0][0])
print(y.grad_fn.next_functions[0][0].next_functions)
print(y.grad_fn.next_functions[0][0].next_functions[0][0].variable is x)
# %% extra_ops
import torch
x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]])
print(torch.cumsum(x, dim=1))
print(x.sort(dim=1))
print(torch.topk(x, 2))
print(x.argsort(dim=1))
print(torch.triu(torch.ones(3, 3)))
print(torch.tril(torch.ones(3, 3), diagonal=-1))
print(x.flip(0))
print(torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
# %% extra_ops_2
import torch
x = torch.tensor([1.0, 0.0, 3.0, 0.0])
print(x.nonzero())
print(torch.count_nonzero(x))
print(torch.unique(torch.tensor([3, 1, 3, 2])))
print(torch.diag(torch.tensor([1.0, 2.0])))
print(x.clamp_min(1.0))
print(x.std(dim=0), x.mean(dim=(0,)))
print(torch.isclose(x, x + 1e-9).all())
# %% neg_zero_grad_relu
import torch
x = torch.tensor([0.0], requires_grad=True)
torch.relu(x).backward()
print(x.grad)
y = torch.tensor([0.0], requires_grad=True)
torch.abs(y).backward()
print(y.grad)
# %% numel_len_shape
import torch
x = torch.randn(4, 5, 6)
print(x.numel(), len(x), len(x.shape), x.shape[-1], x.ndim)
print(x[0].shape, x[:, 0].shape, x[..., 0].shape, x[None].shape)
print(x[1:3, ::2].shape)
# %% next_functions_catalog
import torch
import torch.nn.functional as F
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0], requires_grad=True)
exprs = [x / 2, 2 / x, x - 1, 1 - x, x ** 0.5, 2 ** x, x.mean(dim=0), x.sum(1), x.max(dim=1)[0], x.max(), x[0], x[:1],
         x.view(4), x.T, x.t(), x.transpose(0, 1), x.permute(1, 0), x.reshape(4), x.flatten(), x.unsqueeze(0),
         x.squeeze(), x.expand(2, 2, 2), x.clone(), x.exp(), x.abs(), -x, x.neg(), x.relu(),
         F.relu(x), torch.relu(x), F.leaky_relu(x), F.gelu(x), F.softmax(x, 1), F.log_softmax(x, 1), torch.tanh(x),
         torch.sigmoid(x), F.sigmoid(x), x.pow(2), x.square(), x * x, x @ x, x.mm(x), v @ v, x @ v, v.dot(v),
         x.matmul(v), x.sum(), x.mean(), x.std(), x.var(), x.norm(), x.prod(), x.min(), x.amax(), x.cumsum(0),
         torch.cat([x, x]), torch.stack([v, v]), torch.where(x > 0, x, 0.0), x.masked_fill(x > 0, 0.0),
         x.clamp(0, 1), x.clamp(min=0), torch.maximum(x, x), x.float(), x.double(), x.to(torch.float64), x.repeat(2, 1),
         x[[0, 1]], x[x > 0], x[:, 0], x[..., 1], x.split(1)[0], x.chunk(2)[1], x.unbind()[0], x.log_softmax(-1),
         x.sum(dim=(0, 1)), x.mean(dim=(0, 1)), F.mse_loss(x, x * 0), F.l1_loss(x, x * 0), x.sin(), x.cos(),
         torch.log(x.abs()), x.sqrt(), x.reciprocal(), x.rsqrt(), x.sign(), x.round(), x.floor(), torch.flip(x, [0]),
         torch.add(x, 1, alpha=2), torch.sub(x, x), torch.mul(x, 3), torch.div(x, 3), x.add(x), x + v, v - x,
         x.expand_as(x), x.view_as(x), x.logsumexp(1), x.diag(), x.triu(), torch.outer(v, v), v.unsqueeze(1) * v,
         F.linear(x, x), F.linear(x, x, v), F.softplus(x), F.dropout(x, 0.0), x.gather(1, torch.tensor([[0], [1]])),
         x.sort()[0], x.topk(1)[0], x[0, 0], x[0][1], x.contiguous(), x.new_zeros(2) + x[0], x.argmax() * 0 + x[0]]
for e in exprs:
    print(None if e.grad_fn is None else [(n.name() if n is not None else None, i) for n, i in e.grad_fn.next_functions])
# %% grad_fn_names_catalog
import torch
import torch.nn.functional as F
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0], requires_grad=True)
exprs = [x / 2, 2 / x, x - 1, 1 - x, x ** 0.5, 2 ** x, x.mean(dim=0), x.sum(1), x.max(dim=1)[0], x.max(), x[0], x[:1],
         x.view(4), x.T, x.t(), x.transpose(0, 1), x.permute(1, 0), x.reshape(4), x.flatten(), x.unsqueeze(0),
         x.squeeze(), x.expand(2, 2, 2), x.clone(), x.exp(), x.abs(), -x, x.neg(), x.relu(),
         F.relu(x), torch.relu(x), F.leaky_relu(x), F.gelu(x), F.softmax(x, 1), F.log_softmax(x, 1), torch.tanh(x),
         torch.sigmoid(x), F.sigmoid(x), x.pow(2), x.square(), x * x, x @ x, x.mm(x), v @ v, x @ v, v.dot(v),
         x.matmul(v), x.sum(), x.mean(), x.std(), x.var(), x.norm(), x.prod(), x.min(), x.amax(), x.cumsum(0),
         torch.cat([x, x]), torch.stack([v, v]), torch.where(x > 0, x, 0.0), x.masked_fill(x > 0, 0.0),
         x.clamp(0, 1), x.clamp(min=0), torch.maximum(x, x), x.float(), x.double(), x.to(torch.float64), x.repeat(2, 1),
         x[[0, 1]], x[x > 0], x[:, 0], x[..., 1], x.split(1)[0], x.chunk(2)[1], x.unbind()[0], x.log_softmax(-1),
         x.sum(dim=(0, 1)), x.mean(dim=(0, 1)), F.mse_loss(x, x * 0), F.l1_loss(x, x * 0), x.sin(), x.cos(),
         torch.log(x.abs()), x.sqrt(), x.reciprocal(), x.rsqrt(), x.sign(), x.round(), x.floor(), torch.flip(x, [0]),
         torch.add(x, 1, alpha=2), torch.sub(x, x), torch.mul(x, 3), torch.div(x, 3), x.add(x), x + v, v - x,
         x.expand_as(x), x.view_as(x), x.logsumexp(1), x.diag(), x.triu(), torch.outer(v, v), v.unsqueeze(1) * v,
         F.linear(x, x), F.linear(x, x, v), F.softplus(x), F.dropout(x, 0.0), x.gather(1, torch.tensor([[0], [1]])),
         x.sort()[0], x.topk(1)[0], x[0, 0], x[0][1], x.contiguous(), x.new_zeros(2) + x[0], x.argmax() * 0 + x[0]]
for e in exprs:
    print(e.grad_fn)
# %% float_floor_div_zero
import torch
x = torch.tensor([1.0, -1.0, 0.0])
print(x // 0)
print(x % 0)
print(torch.div(x, 0, rounding_mode="trunc"))
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"), torch.tensor([7, -7]) % 3)
# %% arange_float_lengths
import torch
print(torch.arange(0, 1, 0.1))
print(torch.arange(0.5, 2.0, 0.3))
print(torch.arange(10, 0, -3))
print(torch.linspace(-1, 1, 4, requires_grad=True))
print(torch.arange(5.0).requires_grad_())
# %% stop_gradient_detach_middle
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y.detach() * x + y
z.backward()
print(z, x.grad)
# %% float16_tensor
import torch
h = torch.tensor([1.5, 2.25, 3.1], dtype=torch.float16)
print(h)
print(h * 2)
print(h.float())
print(h.dtype, h.sum())
# %% linspace_double
import torch
x = torch.linspace(-3.14159, 3.14159, 9, dtype=torch.float64)
print(x)
print(x.tolist())
print(torch.linspace(0, 1, 7, dtype=torch.float64).tolist())
# %% numpy_style_aliases
import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.sum(axis=0))
print(x.mean(axis=1, keepdims=True))
print(torch.cat([x, x], axis=1).shape)
print(torch.stack([x, x], axis=0).shape)
print(x.max(axis=1))
print(x.size(dim=1), x.std(axis=0))
print(torch.sum(x, axis=1), torch.softmax(x, axis=1))
# %% inplace_nonleaf_ops
import torch
import torch.nn as nn
x = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
y = x * 2
y.relu_()
print(y)
z = x + 0
z.mul_(3).add_(1)
print(z)
w = x.clone()
w.clamp_(min=0)
print(w)
h = nn.ReLU(inplace=True)(x * 1)
print(h)
(y.sum() + z.sum() + w.sum() + h.sum()).backward()
print(x.grad)
print("ok")
# %% setitem_copyslices
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y[0] = 10.0
print(y)
y[1:] *= 3
print(y)
y.sum().backward()
print(x.grad)
m = torch.zeros(2, 3)
m[:, 1] = torch.tensor([5.0, 6.0])
m[m == 0] = -1
print(m)
t = torch.tensor(x.detach())
print(t, t.requires_grad)
# %% legacy_constructors
import torch
a = torch.FloatTensor([1, 2, 3])
b = torch.LongTensor([[1, 2], [3, 4]])
c = torch.Tensor([0.5, 1.5])
print(a, b, c)
print(torch.FloatTensor(2, 3).shape, torch.DoubleTensor([1.0]), torch.Tensor(2).shape)
a.requires_grad = True
(a * a).sum().backward()
print(a.grad)

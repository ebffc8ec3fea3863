# %% gradient_ones
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.backward(torch.ones_like(y))
print(x.grad)
# %% gradient_weights
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
v = torch.tensor([0.1, 1.0, 0.0001])
y.backward(gradient=v)
print(x.grad)
# %% gradient_matrix
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * x
y.backward(torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
print(x.grad)
# %% nonscalar_error
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.backward()
# %% jacobian_rows
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.stack([x[0] * x[1], x[0] + x[1]])
for i in range(2):
    g = torch.zeros(2)
    g[i] = 1.0
    x.grad = None
    y.backward(g, retain_graph=True)
    print(x.grad)
# %% retain_graph_twice
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
# %% sum_twice_ok
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sum()
y.backward()
y.backward()
print(x.grad)
# %% mul_const_twice_ok
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x * 3
y.backward()
y.backward()
print(x.grad)
# %% autograd_grad_nonscalar
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
g, = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))
print(g)
# %% autograd_grad_two_inputs
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, [a, b])
print(ga, gb)
# %% matrix_output_gradient
import torch
W = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = torch.tensor([[1.0], [1.0]])
y = W @ x
y.backward(torch.tensor([[1.0], [2.0]]))
print(y)
print(W.grad)
# %% softmax_jvp
import torch
z = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
p = torch.softmax(z, dim=0)
p.backward(torch.tensor([1.0, 0.0, 0.0]))
print(p)
print(z.grad)
# %% broadcast_backward
import torch
a = torch.tensor([[1.0], [2.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
c = a + b
c.backward(torch.ones(2, 3))
print(c)
print(a.grad)
print(b.grad)
# %% gradient_wrong_shape
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.backward(torch.ones(2))
# %% vector_jacobian_accumulates
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 3
y.backward(torch.tensor([1.0, 1.0]), retain_graph=True)
y.backward(torch.tensor([1.0, 1.0]))
print(x.grad)
# %% grad_of_mean_rows
import torch
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
y = x.mean(dim=1)
y.backward(torch.tensor([1.0, -1.0]))
print(y)
print(x.grad)
# %% indexing_scatter
import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x[1:3] * 10
y.sum().backward()
print(x.grad)
# %% index_tensor_repeat
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
idx = torch.tensor([0, 0, 2])
y = x[idx]
y.sum().backward()
print(y)
print(x.grad)
# %% mask_grad
import torch
x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = x[x > 0]
y.sum().backward()
print(x.grad)
# %% cat_stack_grad
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.cat([a, b])
s = torch.stack([a, a * 2])
(c.sum() + s.sum()).backward()
print(c, s, sep="\n")
print(a.grad, b.grad)
# %% where_grad
import torch
x = torch.tensor([-2.0, -1.0, 1.0, 2.0], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
y.sum().backward()
print(y)
print(x.grad)
# %% gather_grad
import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
idx = torch.tensor([[2], [0]])
y = x.gather(1, idx)
y.sum().backward()
print(y)
print(x.grad)
# %% retain_graph_error_message
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 2).sum()
y.backward()
y.backward()
# %% split_chunk
import torch
x = torch.arange(6.0, requires_grad=True)
a, b = x.chunk(2)
c, d, e = x.split(2)
(a * 1 + b * 2).sum().backward()
print(a, b)
print(x.grad)
print(e)
# %% expand_repeat_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.unsqueeze(0).expand(3, 2)
z = x.repeat(2)
(y.sum() + z.sum()).backward()
print(y)
print(z)
print(x.grad)
# %% backward_inputs
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
c.backward(inputs=[a])
print(a.grad, b.grad)
# %% create_graph_index
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x[1:] ** 3).sum() + x[0] ** 2
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x)
print(h)
# %% create_graph_cat_clamp
import torch
x = torch.tensor([0.5, 2.0], requires_grad=True)
y = torch.cat([x ** 2, torch.clamp(x, max=1.0) ** 3]).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)
# %% grad_outputs_vector
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.stack([x[0] ** 2, x[0] * x[1]])
v = torch.tensor([1.0, 0.5])
g, = torch.autograd.grad(y, x, grad_outputs=v)
print(g)
# %% functional_jacobian
import torch
from torch.autograd.functional import jacobian
def f(x):
    return torch.stack([x[0] ** 2 * x[1], 5 * x[0] + torch.sin(x[1])])
x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(torch.autograd.functional.jacobian(lambda t: t.exp(), torch.tensor([0.0, 1.0])))
# %% functional_hessian
import torch
def f(x):
    return (x ** 3).sum() + x[0] * x[1]
x = torch.tensor([1.0, 2.0])
H = torch.autograd.functional.hessian(f, x)
print(H)
# %% functional_jacobian_tuple
import torch
def f(a, b):
    return a * b + a ** 2
a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, 4.0])
ja, jb = torch.autograd.functional.jacobian(f, (a, b))
print(ja)
print(jb)
# %% functional_vjp
import torch
def f(x):
    return x ** 2
out, g = torch.autograd.functional.vjp(f, torch.tensor([1.0, 3.0]), torch.tensor([1.0, 0.5]))
print(out, g)
# %% batched_gradient
import torch
torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(5, 3)
Y = X @ W
Y.backward(torch.ones_like(Y))
print(Y)
print(W.grad)
# %% retain_graph_jacobian_loop
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2 + 2 * x
J = []
for i in range(3):
    gi, = torch.autograd.grad(y[i], x, retain_graph=True)
    J.append(gi)
print(torch.stack(J))
# %% grad_wrt_intermediate
import torch
x = torch.tensor(2.0, requires_grad=True)
h = x ** 2
y = h * 3
gh, gx = torch.autograd.grad(y, [h, x])
print(gh, gx)
# %% backward_on_sum_of_outputs
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 2
b = x ** 2
torch.autograd.backward([a.sum(), b.sum()])
print(x.grad)
torch.autograd.backward([a, b], [torch.ones(2), torch.tensor([1.0, 0.0])])
print(x.grad)
# %% grad_of_mean_with_keepdim
import torch
x = torch.arange(1.0, 7.0).view(2, 3).requires_grad_()
m = x.mean(dim=1, keepdim=True)
c = x - m
(c ** 2).sum().backward()
print(c)
print(x.grad)
# %% gradcheck_double
import torch
from torch.autograd import gradcheck
torch.manual_seed(0)
def f(x, w):
    return torch.tanh(x @ w).sum(dim=1)
x = torch.randn(3, 4, dtype=torch.double, requires_grad=True)
w = torch.randn(4, 2, dtype=torch.double, requires_grad=True)
print(gradcheck(f, (x, w), eps=1e-6, atol=1e-4))
print(torch.autograd.gradcheck(lambda t: (t ** 3).sum(), (torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True),)))
# %% hooks_on_intermediates
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y ** 2
grads = []
y.register_hook(lambda g: grads.append(g.clone()))
z.register_hook(lambda g: g * 0.5)
z.sum().backward()
print(grads)
print(x.grad)
# %% retain_grad_chain
import torch
a = torch.tensor([1.0, -1.0], requires_grad=True)
b = a.exp()
c = b * a
b.retain_grad()
c.retain_grad()
c.sum().backward()
print(b.grad, c.grad, a.grad)
print(b.is_leaf, b.retains_grad, a.retains_grad)
# %% grad_accumulation_two_losses
import torch
w = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([2.0, 3.0])
l1 = (w * x).sum()
l2 = (w ** 2).sum()
l1.backward(retain_graph=True)
print(w.grad)
l2.backward()
print(w.grad)
(l1 + l2).backward()
print(w.grad)
# %% backward_gradient_variants
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for k, g in enumerate([torch.ones(2, dtype=torch.float64), torch.ones(2, dtype=torch.long), torch.ones(1), torch.tensor(1.0), None]):
    try:
        y = x * 2
        y.backward(g)
        print(k, x.grad)
    except RuntimeError as e:
        print(k, "RuntimeError", str(e).split("\n")[0])
    except TypeError as e:
        print(k, "TypeError", str(e).split("\n")[0])
    x.grad = None
s = (x * 2).sum()
s.backward(torch.tensor(2.0))
print(x.grad)
s2 = (x * 3).sum()
s2.backward(gradient=torch.tensor([3.0]))

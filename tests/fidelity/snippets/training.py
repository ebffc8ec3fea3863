# %% linear_regression_sgd
import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(20, 1)
y = 3 * X + 2
model = nn.Linear(1, 1)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(5):
    pred = model(X)
    loss = loss_fn(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
# %% manual_gd
import torch
torch.manual_seed(1)
x = torch.linspace(-1, 1, 10)
y = 2 * x - 1
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for i in range(3):
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(i, round(loss.item(), 4), w, b)
# %% adam_quadratic
import torch
x = torch.tensor([3.0, -2.0], requires_grad=True)
opt = torch.optim.Adam([x], lr=0.1)
for i in range(5):
    opt.zero_grad()
    loss = (x ** 2).sum()
    loss.backward()
    opt.step()
print(x)
print(f"{loss.item():.4f}")
# %% sgd_momentum
import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for _ in range(4):
    opt.zero_grad()
    ((w - 0.5) ** 2).sum().backward()
    opt.step()
    print(w)
# %% sgd_nesterov_wd
import torch
w = torch.tensor([2.0, 0.5], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(w)
# %% classifier_cross_entropy
import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(8, 4)
y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(4):
    optimizer.zero_grad()
    logits = model(X)
    loss = criterion(logits, y)
    loss.backward()
    optimizer.step()
    print(f"{epoch} {loss.item():.4f}")
pred = model(X).argmax(dim=1)
print(pred)
print((pred == y).float().mean())
# %% net_class_training
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(42)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 8)
        self.fc2 = nn.Linear(8, 1)
    def forward(self, x):
        x = F.relu(self.fc1(x))
        return torch.sigmoid(self.fc2(x))
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.05)
loss_fn = nn.BCELoss()
for epoch in range(20):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")
# %% bce_with_logits
import torch
import torch.nn as nn
logits = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
target = torch.tensor([1.0, 0.0, 1.0])
loss = nn.BCEWithLogitsLoss()(logits, target)
loss.backward()
print(loss)
print(logits.grad)
# %% l1_loss
import torch
import torch.nn as nn
pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
target = torch.tensor([1.5, 2.0, 2.0])
loss = nn.L1Loss()(pred, target)
loss.backward()
print(loss, pred.grad)
# %% nll_log_softmax
import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
target = torch.tensor([1, 2])
logp = F.log_softmax(logits, dim=1)
loss = F.nll_loss(logp, target)
loss.backward()
print(logp)
print(loss)
print(logits.grad)
# %% cross_entropy_functional
import torch
import torch.nn.functional as F
logits = torch.tensor([[2.0, 1.0, 0.1]], requires_grad=True)
loss = F.cross_entropy(logits, torch.tensor([0]))
loss.backward()
print(loss)
print(logits.grad)
# %% mse_functional_sum
import torch
import torch.nn.functional as F
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.0, 4.0])
loss = F.mse_loss(a, b, reduction="sum")
loss.backward()
print(loss, a.grad)
# %% zero_grad_set_to_none
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
# %% model_zero_grad
import torch
import torch.nn as nn
torch.manual_seed(3)
m = nn.Linear(3, 1)
m(torch.ones(2, 3)).sum().backward()
print(m.bias.grad)
m.zero_grad()
print(m.bias.grad)
# %% train_eval_mode
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(m.training)
m.eval()
print(m.training, m[0].training)
m.train()
print(m.training)
# %% parameters_count
import torch.nn as nn
model = nn.Sequential(nn.Linear(10, 5), nn.ReLU(), nn.Linear(5, 2))
total = sum(p.numel() for p in model.parameters())
print(total)
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
# %% children_modules
import torch.nn as nn
model = nn.Sequential(nn.Linear(1, 2), nn.Tanh())
for child in model.children():
    print(child)
print(len(list(model.parameters())))
# %% grad_accumulation_steps
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
optimizer.zero_grad()
for i in range(4):
    x = torch.randn(8, 4)
    y = torch.randn(8, 1)
    loss = loss_fn(model(x), y) / 2
    loss.backward()
    if (i + 1) % 2 == 0:
        optimizer.step()
        optimizer.zero_grad()
    print(f"{loss.item():.4f}")
print(model.bias)
# %% eval_no_grad_accuracy
import torch
import torch.nn as nn
torch.manual_seed(5)
model = nn.Linear(3, 2)
X = torch.randn(6, 3)
labels = torch.tensor([0, 1, 1, 0, 1, 0])
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(1) == labels).sum().item() / len(labels)
print(out.requires_grad)
print(f"accuracy: {acc:.2%}")
# %% param_step_values
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 1)
opt = torch.optim.SGD(lin.parameters(), lr=1.0)
x = torch.tensor([[1.0, 2.0]])
out = lin(x)
out.backward()
print(lin.weight.grad, lin.bias.grad)
opt.step()
print(lin.weight)
print(lin.bias)
# %% softmax_module
import torch
import torch.nn as nn
x = torch.tensor([[1.0, 2.0, 3.0]])
print(nn.Softmax(dim=1)(x))
print(nn.Sigmoid()(x))
print(nn.Tanh()(x))
print(nn.ReLU()(x - 2))
# %% polynomial_fit
import torch
torch.manual_seed(0)
x = torch.linspace(-1, 1, 50)
y = x ** 3 - x
coef = torch.zeros(4, requires_grad=True)
opt = torch.optim.SGD([coef], lr=0.2)
for step in range(30):
    pred = coef[0] + coef[1] * x + coef[2] * x ** 2 + coef[3] * x ** 3
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"{loss.item():.5f}")
# %% adamw
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.1)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(w)
# %% custom_module_params
import torch
import torch.nn as nn
class Affine(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(2.0))
        self.b = nn.Parameter(torch.tensor(-1.0))
    def forward(self, x):
        return self.w * x + self.b
m = Affine()
out = m(torch.tensor([1.0, 2.0]))
out.sum().backward()
print(out)
print(m.w.grad, m.b.grad)
print(list(m.parameters()))
# %% loss_history
import torch
import torch.nn as nn
torch.manual_seed(2)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(10, 2)
y = X.sum(dim=1, keepdim=True)
losses = []
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 4))
print(losses)
# %% step_lr
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(epoch, opt.param_groups[0]["lr"], sched.get_last_lr())
# %% exponential_lr
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.01)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for _ in range(3):
    opt.step()
    sched.step()
print(sched.get_last_lr())
# %% dropout_eval
import torch
import torch.nn as nn
drop = nn.Dropout(p=0.5)
x = torch.ones(6)
drop.eval()
print(drop(x))
print(drop)
# %% cross_entropy_probs
import torch
import torch.nn.functional as F
logits = torch.tensor([[1.0, 2.0, 0.5]], requires_grad=True)
target = torch.tensor([[0.1, 0.8, 0.1]])
loss = F.cross_entropy(logits, target)
loss.backward()
print(loss)
print(logits.grad)
# %% cross_entropy_label_smoothing
import torch
import torch.nn as nn
logits = torch.tensor([[2.0, 0.5, -1.0], [0.0, 1.0, 0.0]])
target = torch.tensor([0, 1])
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits, target))
print(nn.CrossEntropyLoss(reduction="sum")(logits, target))
print(nn.CrossEntropyLoss(reduction="none")(logits, target))
# %% one_hot
import torch
import torch.nn.functional as F
labels = torch.tensor([0, 2, 1])
print(F.one_hot(labels))
print(F.one_hot(labels, num_classes=4).float())
# %% create_graph_cross_entropy
import torch
import torch.nn.functional as F
w = torch.tensor([[0.5, -0.5], [1.0, 0.2]], requires_grad=True)
x = torch.tensor([[1.0, 2.0]])
loss = F.cross_entropy(x @ w, torch.tensor([1]))
g, = torch.autograd.grad(loss, w, create_graph=True)
penalty = (g ** 2).sum()
penalty.backward()
print(g)
print(w.grad)
# %% clip_grad_norm
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
loss = model(torch.ones(4, 3) * 10).pow(2).mean()
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(model.weight.grad)
# %% cosine_lambda_multistep
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, MultiStepLR
w = torch.zeros(1, requires_grad=True)
opt1 = torch.optim.SGD([w], lr=0.1)
cos = CosineAnnealingLR(opt1, T_max=4)
opt2 = torch.optim.SGD([w], lr=0.1)
lam = LambdaLR(opt2, lr_lambda=lambda epoch: 0.95 ** epoch)
opt3 = torch.optim.SGD([w], lr=1.0)
ms = MultiStepLR(opt3, milestones=[2, 4], gamma=0.1)
for epoch in range(6):
    opt1.step(); opt2.step(); opt3.step()
    cos.step(); lam.step(); ms.step()
    print(epoch, cos.get_last_lr(), lam.get_last_lr(), ms.get_last_lr())
print(opt1)
# %% pytorch_examples_polynomial
import torch
import math
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
# %% init_and_apply
import torch
import torch.nn as nn
torch.manual_seed(0)
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, std=0.01)
        nn.init.constant_(m.bias, 0.1)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
net.apply(init_weights)
print(net[0].weight)
print(net[2].bias)
with torch.no_grad():
    net[2].weight.fill_(0.5)
print(net(torch.ones(1, 2)))
# %% list_parameters_print
import torch
import torch.nn as nn
torch.manual_seed(1)
m = nn.Linear(2, 1)
print(list(m.parameters()))
print(m.weight.grad is None)
print(print(m.train()) is None)
# %% dataloader_shuffle
import torch
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.arange(10.0).view(10, 1)
y = torch.arange(10)
loader = DataLoader(TensorDataset(X, y), batch_size=4, shuffle=True)
print(len(loader))
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, xb.view(-1), yb)
# %% dataloader_training
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(1)
X = torch.randn(32, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1
ds = TensorDataset(X, y)
print(len(ds), ds[0])
loader = DataLoader(ds, batch_size=8, shuffle=True)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: {total / len(loader):.4f}")
# %% dataloader_no_shuffle_drop_last
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(7.0))
for (batch,) in DataLoader(ds, batch_size=3, drop_last=True):
    print(batch)
print(torch.rand(1))
# %% random_split_generator
import torch
from torch.utils.data import TensorDataset, random_split, DataLoader
torch.manual_seed(2)
ds = TensorDataset(torch.arange(10.0))
train, val = random_split(ds, [7, 3])
print(len(train), len(val), [val[i][0].item() for i in range(len(val))])
g = torch.Generator().manual_seed(42)
loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
for (b,) in loader:
    print(b)
# %% elu_silu
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([-2.0, -0.5, 0.0, 1.5], requires_grad=True)
y = F.elu(x) + F.silu(x) + nn.ELU(alpha=0.5)(x) + nn.SiLU()(x)
y.sum().backward()
print(y)
print(x.grad)
print(nn.ELU(), nn.SiLU())
# %% rmsprop_adagrad
import torch
w1 = torch.tensor([1.0, -2.0], requires_grad=True)
w2 = torch.tensor([1.0, -2.0], requires_grad=True)
opt1 = torch.optim.RMSprop([w1], lr=0.01)
opt2 = torch.optim.Adagrad([w2], lr=0.1)
for _ in range(3):
    for w, opt in ((w1, opt1), (w2, opt2)):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
print(w1, w2)
print(opt1)
# %% freeze_first_layer
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for p in model[0].parameters():
    p.requires_grad = False
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
loss = model(torch.ones(4, 2)).pow(2).mean()
loss.backward()
print(model[0].weight.grad, model[2].weight.grad)
opt.step()
print(model[2].bias)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
# %% weight_sharing
import torch
import torch.nn as nn
torch.manual_seed(0)
shared = nn.Linear(2, 2)
x = torch.ones(1, 2)
out = shared(shared(x)).sum()
out.backward()
print(shared.weight.grad)
print(shared.bias.grad)
# %% print_weight_data
import torch
import torch.nn as nn
torch.manual_seed(3)
model = nn.Linear(3, 2)
print(model.weight.data)
print(model.bias.data.shape, model.weight.grad)
model.weight.data.fill_(0.1)
print(model(torch.ones(3)))
# %% makemore_bigram_nn
import torch
import torch.nn.functional as F
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
for k in range(5):
    xenc = F.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(5), ys].log().mean() + 0.01 * (W ** 2).mean()
    print(f"{loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(probs.shape, probs[0, :4])
# %% module_introspection
import torch
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.head = nn.Linear(3, 1)
    def forward(self, x):
        return self.head(self.body(x))
    def extra_repr(self):
        return "custom=True"
net = Net()
print(net)
print(net.parameters())
for name, module in net.named_children():
    print(name, "->", module)
print([name for name, _ in net.named_modules()])
print(len(list(net.modules())))
print(net.state_dict().keys())
sd = net.state_dict()
print(net.load_state_dict(sd))
# %% forward_hooks
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
activations = {}
def save(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
    return hook
h = model[1].register_forward_hook(save("relu"))
model[0].register_forward_pre_hook(lambda m, inp: print("input shape", inp[0].shape))
out = model(torch.randn(2, 3))
print(activations["relu"])
h.remove()
model(torch.randn(1, 3))
print(len(activations), out)
# %% logistic_regression_bce
import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.cat([torch.randn(10, 2) + 2, torch.randn(10, 2) - 2])
y = torch.cat([torch.ones(10), torch.zeros(10)]).unsqueeze(1)
model = nn.Linear(2, 1)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(50):
    optimizer.zero_grad()
    logits = model(X)
    loss = criterion(logits, y)
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        acc = ((torch.sigmoid(logits) > 0.5).float() == y).float().mean()
        print(f"Epoch [{epoch + 1}/50], Loss: {loss.item():.4f}, Acc: {acc.item():.2f}")
print(model.weight.data, model.bias.data)
# %% softmax_regression_manual
import torch
torch.manual_seed(3)
X = torch.randn(12, 4)
y = torch.randint(0, 3, (12,))
W = torch.zeros(4, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
for step in range(20):
    logits = X @ W + b
    loss = torch.nn.functional.cross_entropy(logits, y)
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
        W.grad.zero_()
        b.grad.zero_()
    if step % 5 == 0:
        print(step, f"{loss.item():.5f}")
print((logits.argmax(1) == y).sum().item(), "/", len(y))

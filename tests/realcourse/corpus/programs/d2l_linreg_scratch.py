# Source: https://github.com/d2l-ai/d2l-en, chapter_linear-networks/linear-regression-scratch.md
#   at commit a024de444e18d9e865de872d2a6de524d697a4b9 (Dive into Deep Learning, 0.16, 3.2 "Linear Regression Implementation from
#   Scratch": synthetic data, a data_iter generator, minibatch SGD by hand), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch code blocks (`#@tab pytorch`, `#@tab all`) concatenated in order, the other frameworks' blocks,
#   the `#@tab` markers and the prose left out; code comments kept
# - `from d2l import torch as d2l` dropped and the book's aliases written as what the d2l package of that version
#   binds them to: `d2l.normal`, `d2l.matmul`, `d2l.tensor`, `d2l.reshape` as `torch.normal`, `torch.matmul`,
#   `torch.tensor`, `torch.reshape`
# - random.seed(0) and torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - plotting dropped: `%matplotlib inline` and the scatter-plot block (`d2l.set_figsize()`, `d2l.plt.scatter(...)`)
import torch
import random
random.seed(0)  # case: seed
torch.manual_seed(0)  # case: seed
def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, torch.reshape(y, (-1, 1))
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print('features:', features[0],'\nlabel:', labels[0])
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(
            indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
batch_size = 10

for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break
w = torch.normal(0, 0.01, size=(2,1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
def linreg(X, w, b):  #@save
    """The linear regression model."""
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - torch.reshape(y, y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)  # Minibatch loss in `X` and `y`
        # Compute gradient on `l` with respect to [`w`, `b`]
        l.sum().backward()
        sgd([w, b], lr, batch_size)  # Update parameters using their gradient
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating w: {true_w - torch.reshape(w, true_w.shape)}')
print(f'error in estimating b: {true_b - b}')

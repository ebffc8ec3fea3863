# Source: https://github.com/d2l-ai/d2l-en, chapter_linear-networks/softmax-regression-scratch.md
#   at commit a024de444e18d9e865de872d2a6de524d697a4b9 (Dive into Deep Learning, 0.16, 3.6 "Implementation of Softmax Regression from
#   Scratch": softmax, cross-entropy, accuracy, the Accumulator class, train_epoch_ch3/train_ch3), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch code blocks (`#@tab pytorch`, `#@tab all`) concatenated in order, the other frameworks' blocks,
#   the `#@tab` markers and the prose left out; code comments kept
# - `from d2l import torch as d2l` and `from IPython import display` dropped; the book's `d2l.sgd`, which the
#   updater calls, written out after the imports (case: d2l.sgd), its text as saved from
#   linear-regression-scratch.md (d2l_linreg_scratch); the book's aliases written as what the d2l package of that
#   version binds them to: `d2l.exp`, `d2l.log`, `d2l.normal`, `d2l.matmul`, `d2l.tensor`, `d2l.reshape` as the
#   torch functions, `d2l.reduce_sum(x, *a, **kw)` as `x.sum(*a, **kw)`, `d2l.argmax(x, axis=1)` as
#   `x.argmax(axis=1)`, `d2l.astype(x, t)` as `x.type(t)`, `d2l.size(y)` as `y.numel()`
# - the data: `train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)` (a download) became DataLoaders
#   over 4,000 synthetic images (case: data), 3,200 to train on (shuffled) and 800 to test: normal noise whose
#   label is the largest of the first 10 pixels, those scaled by 3, so that the model can meet the book's own
#   asserts in `train_ch3` (train loss < 0.5, accuracies > 0.7) in its 10 epochs; torch.manual_seed(0) added after
#   the imports (case: seed)
# - plotting dropped: the `Animator` class (its def draws with matplotlib and IPython.display) and in `train_ch3`
#   the line that makes one; its `animator.add(epoch + 1, train_metrics + (test_acc,))` became
#   `print(epoch + 1, train_metrics + (test_acc,))` (case: plot printed), the values the book plots
# - left out: `predict_ch3` and its call (Fashion-MNIST's label names and `d2l.show_images`, a plot)
# - each block's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b))); the call
#   `train_ch3(...)`, whose value is None, stays bare
import torch
torch.manual_seed(0)  # case: seed
# case: d2l.sgd, from linear-regression-scratch.md (#@save)
def sgd(params, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
batch_size = 256
# case: data: Fashion-MNIST replaced by 4,000 synthetic 28x28 images, labelled by the largest of their first 10 pixels
images = torch.randn(4000, 784)
images[:, :10] *= 3
labels = images[:, :10].argmax(dim=1)
images = images.reshape(-1, 1, 28, 28)
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images[:3200], labels[:3200]), batch_size, shuffle=True)
test_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images[3200:], labels[3200:]), batch_size, shuffle=False)
num_inputs = 784
num_outputs = 10

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print((X.sum(0, keepdim=True), X.sum(1, keepdim=True)))  # case: printed
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # The broadcasting mechanism is applied here
X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print((X_prob, X_prob.sum(1)))  # case: printed
def net(X):
    return softmax(torch.matmul(torch.reshape(X, (-1, W.shape[0])), W) + b)
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])  # case: printed
def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])

print(cross_entropy(y_hat, y))  # case: printed
def accuracy(y_hat, y):  #@save
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)        
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())
print(accuracy(y_hat, y) / len(y))  # case: printed
def evaluate_accuracy(net, data_iter):  #@save
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions
    for X, y in data_iter:
        metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]
class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]
print(evaluate_accuracy(net, test_iter))  # case: printed
def train_epoch_ch3(net, train_iter, loss, updater):  #@save
    """The training loop defined in Chapter 3."""
    # Set the model to training mode
    if isinstance(net, torch.nn.Module):
        net.train()
    # Sum of training loss, sum of training accuracy, no. of examples
    metric = Accumulator(3)
    for X, y in train_iter:
        # Compute gradients and update parameters
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            # Using PyTorch in-built optimizer & loss criterion
            updater.zero_grad()
            l.backward()
            updater.step()
            metric.add(float(l) * len(y), accuracy(y_hat, y),
                       y.size().numel())
        else:
            # Using custom built optimizer & loss criterion
            l.sum().backward()
            updater(X.shape[0])
            metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    # Return training loss and training accuracy
    return metric[0] / metric[2], metric[1] / metric[2]
def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):  #@save
    """Train a model (defined in Chapter 3)."""
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(epoch + 1, train_metrics + (test_acc,))  # case: plot printed
    train_loss, train_acc = train_metrics
    assert train_loss < 0.5, train_loss
    assert train_acc <= 1 and train_acc > 0.7, train_acc
    assert test_acc <= 1 and test_acc > 0.7, test_acc
lr = 0.1

def updater(batch_size):
    return sgd([W, b], lr, batch_size)
num_epochs = 10
train_ch3(net, train_iter, test_iter, cross_entropy, num_epochs, updater)

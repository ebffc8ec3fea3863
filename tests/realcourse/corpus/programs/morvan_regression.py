# Source: https://github.com/MorvanZhou/PyTorch-Tutorial, tutorial-contents/301_regression.py
#   at commit 4e5122c3734dcdc9ace164c2a87fbd412ca1d431 (Morvan's PyTorch tutorial: regression)
# License: MIT (MorvanZhou/PyTorch-Tutorial)
# Changes:
# - the module docstring (links, dependencies) left out
# - plotting dropped: `import matplotlib.pyplot as plt`, `plt.ion()`, the `if t % 5 == 0:` block (all of it
#   plots: plt.cla/scatter/plot/text/pause), `plt.ioff()`, `plt.show()`
# - torch.manual_seed(0) added after the imports (case: seed; the material's own seed line is commented out)
import torch
import torch.nn.functional as F
torch.manual_seed(0)  # case: seed

# torch.manual_seed(1)    # reproducible

x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)  # x data (tensor), shape=(100, 1)
y = x.pow(2) + 0.2*torch.rand(x.size())                 # noisy y data (tensor), shape=(100, 1)

# torch can only train on Variable, so convert them to Variable
# The code below is deprecated in Pytorch 0.4. Now, autograd directly supports tensors
# x, y = Variable(x), Variable(y)

# plt.scatter(x.data.numpy(), y.data.numpy())
# plt.show()


class Net(torch.nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(Net, self).__init__()
        self.hidden = torch.nn.Linear(n_feature, n_hidden)   # hidden layer
        self.predict = torch.nn.Linear(n_hidden, n_output)   # output layer

    def forward(self, x):
        x = F.relu(self.hidden(x))      # activation function for hidden layer
        x = self.predict(x)             # linear output
        return x

net = Net(n_feature=1, n_hidden=10, n_output=1)     # define the network
print(net)  # net architecture

optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = torch.nn.MSELoss()  # this is for regression mean squared loss


for t in range(200):
    prediction = net(x)     # input x and predict based on x

    loss = loss_func(prediction, y)     # must be (1. nn output, 2. target)

    optimizer.zero_grad()   # clear gradients for next train
    loss.backward()         # backpropagation, compute gradients
    optimizer.step()        # apply gradients

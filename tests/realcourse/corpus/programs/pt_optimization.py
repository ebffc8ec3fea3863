# Source: https://github.com/pytorch/tutorials, beginner_source/basics/optimization_tutorial.py
#   at commit 802d68671f544c32347a2f1e780b80fcc2d8c9e7 (Learn the Basics, "Optimizing Model Parameters")
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - `from torchvision import datasets` and `from torchvision.transforms import ToTensor` dropped; the FashionMNIST
#   downloads replaced by small synthetic tensors of the same shapes in a TensorDataset (case: data; 320 training
#   and 128 test images of 1x28x28 with labels 0..9)
# - the final loop's 10 epochs shortened to 3 (case: time)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)

import torch
from torch import nn
from torch.utils.data import DataLoader
torch.manual_seed(0)  # case: seed
from torch.utils.data import TensorDataset  # case: data

training_data = TensorDataset(torch.rand(320, 1, 28, 28), torch.randint(0, 10, (320,)))  # case: data

test_data = TensorDataset(torch.rand(128, 1, 28, 28), torch.randint(0, 10, (128,)))  # case: data

train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()


learning_rate = 1e-3
batch_size = 64
epochs = 5



# Initialize the loss function
loss_fn = nn.CrossEntropyLoss()



optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    # Set the model to training mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction and loss
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 100 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    # Set the model to evaluation mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0

    # Evaluating the model with torch.no_grad() ensures that no gradients are computed during test mode
    # also serves to reduce unnecessary gradient computations and memory usage for tensors with requires_grad=True
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()

    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

epochs = 3  # case: time
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")

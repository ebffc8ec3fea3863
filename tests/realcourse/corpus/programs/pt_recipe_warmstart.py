# Source: https://github.com/pytorch/tutorials, recipes_source/recipes/warmstarting_model_using_parameters_from_a_different_model.py
#   at commit 1291d4b5471ed9ba38dbd4cf61a3bf0a8c0cb4c3 (PyTorch recipes: "Warmstarting model using parameters from
#   a different model in PyTorch")
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - torch.save(netA.state_dict(), PATH) and torch.load(PATH) replaced by keeping the state_dict in a variable
#   (case: file); the value load_state_dict returns (the notebook shows it) printed (case: printed)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - the recipe uses F without importing it (it only calls F inside forward, which never runs); left as is

import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)  # case: seed


class NetA(nn.Module):
    def __init__(self):
        super(NetA, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

netA = NetA()

class NetB(nn.Module):
    def __init__(self):
        super(NetB, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

netB = NetB()


# Specify a path to save to
PATH = "model.pt"

saved = netA.state_dict()  # case: file


print(netB.load_state_dict(saved, strict=False))  # case: file, printed

# Source: https://github.com/pytorch/tutorials, beginner_source/blitz/data_parallel_tutorial.py
#   at commit 0ad33d606682537466f3430fc6d6ac7d47460f1a (60-minute blitz, "Optional: Data Parallelism"; on a CPU
#   the model runs unwrapped, as the tutorial's `if torch.cuda.device_count() > 1` says)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - a cell's last bare expression wrapped in print(...) (case: printed; the notebook shows its value)

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader
torch.manual_seed(0)  # case: seed

# Parameters and DataLoaders
input_size = 5
output_size = 2

batch_size = 30
data_size = 100


device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class RandomDataset(Dataset):

    def __init__(self, size, length):
        self.len = length
        self.data = torch.randn(length, size)

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return self.len

rand_loader = DataLoader(dataset=RandomDataset(input_size, 100),
                         batch_size=batch_size, shuffle=True)


class Model(nn.Module):
    # Our model

    def __init__(self, input_size, output_size):
        super(Model, self).__init__()
        self.fc = nn.Linear(input_size, output_size)

    def forward(self, input):
        output = self.fc(input)
        print("\tIn Model: input size", input.size(),
              "output size", output.size())

        return output


model = Model(input_size, output_size)
if torch.cuda.device_count() > 1:
  print("Let's use", torch.cuda.device_count(), "GPUs!")
  # dim = 0 [30, xxx] -> [10, ...], [10, ...], [10, ...] on 3 GPUs
  model = nn.DataParallel(model)

print(model.to(device))  # case: printed


for data in rand_loader:
    input = data.to(device)
    output = model(input)
    print("Outside: input size", input.size(),
          "output_size", output.size())

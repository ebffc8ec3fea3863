# Source: https://github.com/pytorch/tutorials, beginner_source/introyt/trainingyt.py
#   at commit db77dcf6e3637924f43852c014f2af9978b0f891 (Introduction to PyTorch on YouTube, "Training with PyTorch")
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - `import torchvision`, `import torchvision.transforms as transforms` and the transform dropped; the FashionMNIST
#   downloads replaced by synthetic tensors of the same shapes in a TensorDataset (case: data; 4000 training and
#   400 validation images of 1x28x28, values in [-1, 1) as after Normalize((0.5,), (0.5,)), labels 0..9)
# - TensorBoard dropped (case: tensorboard): `from torch.utils.tensorboard import SummaryWriter`, `from datetime
#   import datetime`, the timestamp, `SummaryWriter(...)` (the writer is None), `tb_writer.add_scalar`,
#   `writer.add_scalars`, `writer.flush()`
# - plotting dropped: `import matplotlib.pyplot as plt`, `import numpy as np`, `matplotlib_imshow` and its call,
#   `torchvision.utils.make_grid` (case: plot)
# - the model saving dropped: `model_path = ...` and `torch.save(model.state_dict(), model_path)` (case: file)
# - EPOCHS 5 shortened to 1 (case: time; 2 epochs pass the engine's 1,000,000-step limit)
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)

import torch
torch.manual_seed(0)  # case: seed
from torch.utils.data import TensorDataset  # case: data


# Create datasets for training & validation, download if necessary
training_set = TensorDataset(torch.rand(4000, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (4000,)))  # case: data
validation_set = TensorDataset(torch.rand(400, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (400,)))  # case: data

# Create data loaders for our datasets; shuffle for training, not for validation
training_loader = torch.utils.data.DataLoader(training_set, batch_size=4, shuffle=True)
validation_loader = torch.utils.data.DataLoader(validation_set, batch_size=4, shuffle=False)

# Class labels
classes = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
        'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle Boot')

# Report split sizes
print('Training set has {} instances'.format(len(training_set)))
print('Validation set has {} instances'.format(len(validation_set)))


dataiter = iter(training_loader)
images, labels = next(dataiter)

# Create a grid from the images and show them
print('  '.join(classes[labels[j]] for j in range(4)))


import torch.nn as nn
import torch.nn.functional as F

# PyTorch models inherit from torch.nn.Module
class GarmentClassifier(nn.Module):
    def __init__(self):
        super(GarmentClassifier, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 4 * 4)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
    

model = GarmentClassifier()


loss_fn = torch.nn.CrossEntropyLoss()

# NB: Loss functions expect data in batches, so we're creating batches of 4
# Represents the model's confidence in each of the 10 classes for a given input
dummy_outputs = torch.rand(4, 10)
# Represents the correct class among the 10 being tested
dummy_labels = torch.tensor([1, 5, 3, 7])
    
print(dummy_outputs)
print(dummy_labels)

loss = loss_fn(dummy_outputs, dummy_labels)
print('Total loss for this batch: {}'.format(loss.item()))


# Optimizers specified in the torch.optim package
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)


def train_one_epoch(epoch_index, tb_writer):
    running_loss = 0.
    last_loss = 0.
    
    # Here, we use enumerate(training_loader) instead of
    # iter(training_loader) so that we can track the batch
    # index and do some intra-epoch reporting
    for i, data in enumerate(training_loader):
        # Every data instance is an input + label pair
        inputs, labels = data
        
        # Zero your gradients for every batch!
        optimizer.zero_grad()
        
        # Make predictions for this batch
        outputs = model(inputs)
        
        # Compute the loss and its gradients
        loss = loss_fn(outputs, labels)
        loss.backward()
        
        # Adjust learning weights
        optimizer.step()
        
        # Gather data and report
        running_loss += loss.item()
        if i % 1000 == 999:
            last_loss = running_loss / 1000 # loss per batch
            print('  batch {} loss: {}'.format(i + 1, last_loss))
            tb_x = epoch_index * len(training_loader) + i + 1
            running_loss = 0.
            
    return last_loss


# Initializing in a separate cell so we can easily add more epochs to the same run
writer = None  # case: tensorboard
epoch_number = 0

EPOCHS = 1  # case: time (and the step limit)

best_vloss = 1_000_000.

for epoch in range(EPOCHS):
    print('EPOCH {}:'.format(epoch_number + 1))
    
    # Make sure gradient tracking is on, and do a pass over the data
    model.train(True)
    avg_loss = train_one_epoch(epoch_number, writer)
    

    running_vloss = 0.0
    # Set the model to evaluation mode, disabling dropout and using population 
    # statistics for batch normalization.
    model.eval()

    # Disable gradient computation and reduce memory consumption.
    with torch.no_grad():
        for i, vdata in enumerate(validation_loader):
            vinputs, vlabels = vdata
            voutputs = model(vinputs)
            vloss = loss_fn(voutputs, vlabels)
            running_vloss += vloss
    
    avg_vloss = running_vloss / (i + 1)
    print('LOSS train {} valid {}'.format(avg_loss, avg_vloss))
    
    # Track best performance, and save the model's state
    if avg_vloss < best_vloss:
        best_vloss = avg_vloss
    
    epoch_number += 1

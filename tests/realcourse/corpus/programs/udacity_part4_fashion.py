# Source: https://github.com/udacity/deep-learning-v2-pytorch, intro-to-pytorch/Part 4 - Fashion-MNIST (Solution).ipynb
#   at commit c9404fc86181fc3f0906b368697268257f348535 (Udacity "Intro to PyTorch", Part 4: classifying Fashion-MNIST)
# License: MIT (udacity/deep-learning-v2-pytorch)
# Changes:
# - the code cells concatenated in order, the markdown cells left out
# - the Fashion-MNIST downloads replaced by synthetic tensors of the same shapes in TensorDatasets (case: data; 640
#   training and 320 test images of 1x28x28 with values in [-1, 1) as after Normalize((0.5,), (0.5,)), labels
#   0..9): `from torchvision import datasets, transforms`, the transform and `datasets.FashionMNIST(...)` dropped
# - plotting dropped: `import helper` (twice), `helper.imshow(...)`, `%matplotlib inline`, `%config ...`,
#   `helper.view_classify(...)` (case: plot)
# - torch.manual_seed(0) added after the imports (case: seed; the notebook draws unseeded)
# - the last cell ends, as under PyTorch 2.x, with `dataiter.next()` raising AttributeError (the notebook
#   predates it)
import torch
torch.manual_seed(0)  # case: seed
from torch.utils.data import TensorDataset  # case: data

# Download and load the training data
trainset = TensorDataset(torch.rand(640, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (640,)))  # case: data
trainloader = torch.utils.data.DataLoader(trainset, batch_size=64, shuffle=True)

# Download and load the test data
testset = TensorDataset(torch.rand(320, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (320,)))  # case: data
testloader = torch.utils.data.DataLoader(testset, batch_size=64, shuffle=True)
image, label = next(iter(trainloader))
from torch import nn, optim
import torch.nn.functional as F
# TODO: Define your network architecture here
class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 128)
        self.fc3 = nn.Linear(128, 64)
        self.fc4 = nn.Linear(64, 10)
        
    def forward(self, x):
        # make sure input tensor is flattened
        x = x.view(x.shape[0], -1)
        
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        x = F.log_softmax(self.fc4(x), dim=1)
        
        return x
# TODO: Create the network, define the criterion and optimizer
model = Classifier()
criterion = nn.NLLLoss()
optimizer = optim.Adam(model.parameters(), lr=0.003)
# TODO: Train the network here
epochs = 5

for e in range(epochs):
    running_loss = 0
    for images, labels in trainloader:
        log_ps = model(images)
        loss = criterion(log_ps, labels)
        
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        
        running_loss += loss.item()
    else:
        print(f"Training loss: {running_loss/len(trainloader)}")

# Test out your network!

dataiter = iter(testloader)
images, labels = dataiter.next()
img = images[1]

# TODO: Calculate the class probabilities (softmax) for img
ps = torch.exp(model(img))

# Source: https://github.com/rasbt/machine-learning-book, ch14/ch14_part1.ipynb
#   at commit 35ab3774e8e249c43a98209d8efd94c060102003 (Raschka, Liu, Mirjalili: "Machine Learning with PyTorch
#   and Scikit-Learn", Chapter 14 part 1), "Regularizing an NN with L2 regularization and dropout", "Loss
#   functions for classification" and "Constructing a CNN in PyTorch" (the model, up to moving it to CUDA)
# License: MIT (rasbt/machine-learning-book, LICENSE.txt)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - the figure cells (`Image(...)`) dropped; the MNIST download cell (torchvision) and the DataLoaders over it
#   dropped; the CUDA cell (`torch.device("cuda:0")`, `model.to(device)`) dropped, and the training cells after it
#   (they train on MNIST)
import torch
import torch.nn as nn
loss_func = nn.BCELoss()
loss = loss_func(torch.tensor([0.9]), torch.tensor([1.0]))
l2_lambda = 0.001

conv_layer = nn.Conv2d(in_channels=3, out_channels=5, kernel_size=5)
l2_penalty = l2_lambda * sum([(p**2).sum() for p in conv_layer.parameters()])
loss_with_penalty = loss + l2_penalty

linear_layer = nn.Linear(10, 16)
l2_penalty = l2_lambda * sum([(p**2).sum() for p in linear_layer.parameters()])
loss_with_penalty = loss + l2_penalty
####### Binary Cross-entropy
logits = torch.tensor([0.8])
probas = torch.sigmoid(logits)
target = torch.tensor([1.0])

bce_loss_fn = nn.BCELoss()
bce_logits_loss_fn = nn.BCEWithLogitsLoss()

print(f'BCE (w Probas): {bce_loss_fn(probas, target):.4f}')
print(f'BCE (w Logits): {bce_logits_loss_fn(logits, target):.4f}')

 
####### Categorical Cross-entropy
logits = torch.tensor([[1.5, 0.8, 2.1]])
probas = torch.softmax(logits, dim=1)
target = torch.tensor([2])

cce_loss_fn = nn.NLLLoss()
cce_logits_loss_fn = nn.CrossEntropyLoss()

print(f'CCE (w Logits): {cce_logits_loss_fn(logits, target):.4f}')
print(f'CCE (w Probas): {cce_loss_fn(torch.log(probas), target):.4f}')
model = nn.Sequential()
model.add_module('conv1', nn.Conv2d(in_channels=1, out_channels=32, kernel_size=5, padding=2))
model.add_module('relu1', nn.ReLU())        
model.add_module('pool1', nn.MaxPool2d(kernel_size=2))   
model.add_module('conv2', nn.Conv2d(in_channels=32, out_channels=64, kernel_size=5, padding=2))
model.add_module('relu2', nn.ReLU())        
model.add_module('pool2', nn.MaxPool2d(kernel_size=2))      

x = torch.ones((4, 1, 28, 28))
print(model(x).shape)  # case: printed
model.add_module('flatten', nn.Flatten()) 

x = torch.ones((4, 1, 28, 28))
print(model(x).shape)  # case: printed
model.add_module('fc1', nn.Linear(3136, 1024)) 
model.add_module('relu3', nn.ReLU()) 
model.add_module('dropout', nn.Dropout(p=0.5)) 

model.add_module('fc2', nn.Linear(1024, 10)) 

# Source: https://github.com/rasbt/machine-learning-book, ch13/ch13_part1.ipynb
#   at commit 35ab3774e8e249c43a98209d8efd94c060102003 (Raschka, Liu, Mirjalili: "Machine Learning with PyTorch
#   and Scikit-Learn", Chapter 13 "Going Deeper -- The Mechanics of PyTorch", part 1), from "Creating a graph in
#   PyTorch" to "Choosing a loss function" (one case per part; the rest is mlbook_ch13_xor_layers)
# License: MIT (rasbt/machine-learning-book, LICENSE.txt)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - each cell's last bare expression wrapped in print(...) (case: printed)
# - the package-version check cells dropped (`sys.path.insert`, `check_packages`), the figure cells
#   (`Image(...)`, `%matplotlib inline`)
# - the first line of `compute_z` loses the stray space before `def` that the notebook's cell has (IPython
#   dedents a cell; Python would raise IndentationError)
import torch
def compute_z(a, b, c):
    r1 = torch.sub(a, b)
    r2 = torch.mul(r1, 2)
    z = torch.add(r2, c)
    return z

print('Scalar Inputs:', compute_z(torch.tensor(1), torch.tensor(2), torch.tensor(3)))
print('Rank 1 Inputs:', compute_z(torch.tensor([1]), torch.tensor([2]), torch.tensor([3])))
print('Rank 2 Inputs:', compute_z(torch.tensor([[1]]), torch.tensor([[2]]), torch.tensor([[3]])))
a = torch.tensor(3.14, requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) 
print(a)
print(b)
print(a.requires_grad)  # case: printed
w = torch.tensor([1.0, 2.0, 3.0])

print(w.requires_grad)
w.requires_grad_()

print(w.requires_grad)
import torch.nn as nn


torch.manual_seed(1)
w = torch.empty(2, 3)
nn.init.xavier_normal_(w)
print(w)
 
class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = torch.empty(2, 3, requires_grad=True)
        nn.init.xavier_normal_(self.w1)
        self.w2 = torch.empty(1, 2, requires_grad=True)
        nn.init.xavier_normal_(self.w2)

w = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(0.5, requires_grad=True) 

x = torch.tensor([1.4])
y = torch.tensor([2.1])


z = torch.add(torch.mul(w, x), b)
 
loss = (y-z).pow(2).sum()
loss.backward()

print('dL/dw : ', w.grad)
print('dL/db : ', b.grad)

# verifying the computed gradient dL/dw
print(2 * x * ((w * x + b) - y))
model = nn.Sequential(
    nn.Linear(4, 16),
    nn.ReLU(),
    nn.Linear(16, 32),
    nn.ReLU()
)

print(model)  # case: printed

nn.init.xavier_uniform_(model[0].weight)
 
l1_weight = 0.01
l1_penalty = l1_weight * model[2].weight.abs().sum()

loss_fn = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)

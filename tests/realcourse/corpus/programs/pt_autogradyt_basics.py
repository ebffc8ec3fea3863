# Source: https://github.com/pytorch/tutorials, beginner_source/introyt/autogradyt_tutorial.py
#   at commit 199e9530f4b72f57ba2dc222e1fd18db3efc49ed (Introduction to PyTorch, YouTube series: "The Fundamentals of
#   Autograd"), from its start to "Autograd and In-place Operations" (one case per section; the rest is
#   pt_autogradyt_highlevel)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - plotting dropped: `import matplotlib.pyplot as plt`, `import matplotlib.ticker as ticker`, both `plt.plot(...)`
# - torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - prints of a grad_fn pass through no_address (case: address; PyTorch prints a memory address there)

# %matplotlib inline

import torch

import math
torch.manual_seed(0)  # case: seed


def no_address(obj):  # case: address
    text = str(obj)
    at = text.find(" at 0x")
    while at != -1:
        text = text[:at] + text[text.find(">", at):]
        at = text.find(" at 0x")
    return text


a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
print(a)


b = torch.sin(a)


print(b)


c = 2 * b
print(c)

d = c + 1
print(d)


out = d.sum()
print(out)


print('d:')
print(no_address(d.grad_fn))  # case: address
print(no_address(d.grad_fn.next_functions))  # case: address
print(no_address(d.grad_fn.next_functions[0][0].next_functions))  # case: address
print(no_address(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions))  # case: address
print(no_address(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions))  # case: address
print('\nc:')
print(no_address(c.grad_fn))  # case: address
print('\nb:')
print(no_address(b.grad_fn))  # case: address
print('\na:')
print(a.grad_fn)


out.backward()
print(a.grad)


BATCH_SIZE = 16
DIM_IN = 1000
HIDDEN_SIZE = 100
DIM_OUT = 10

class TinyModel(torch.nn.Module):

    def __init__(self):
        super(TinyModel, self).__init__()
        
        self.layer1 = torch.nn.Linear(1000, 100)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(100, 10)
    
    def forward(self, x):
        x = self.layer1(x)
        x = self.relu(x)
        x = self.layer2(x)
        return x
    
some_input = torch.randn(BATCH_SIZE, DIM_IN, requires_grad=False)
ideal_output = torch.randn(BATCH_SIZE, DIM_OUT, requires_grad=False)

model = TinyModel()


print(model.layer2.weight[0][0:10]) # just a small slice
print(model.layer2.weight.grad)


optimizer = torch.optim.SGD(model.parameters(), lr=0.001)

prediction = model(some_input)

loss = (ideal_output - prediction).pow(2).sum()
print(loss)


loss.backward()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])


optimizer.step()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])


print(model.layer2.weight.grad[0][0:10])

for i in range(0, 5):
    prediction = model(some_input)
    loss = (ideal_output - prediction).pow(2).sum()
    loss.backward()
    
print(model.layer2.weight.grad[0][0:10])

optimizer.zero_grad()

print(model.layer2.weight.grad[0][0:10])


a = torch.ones(2, 3, requires_grad=True)
print(a)

b1 = 2 * a
print(b1)

a.requires_grad = False
b2 = 2 * a
print(b2)


a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = a + b
print(c1)

with torch.no_grad():
    c2 = a + b

print(c2)

c3 = a * b
print(c3)


def add_tensors1(x, y):
    return x + y

@torch.no_grad()
def add_tensors2(x, y):
    return x + y


a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = add_tensors1(a, b)
print(c1)

c2 = add_tensors2(a, b)
print(c2)


x = torch.rand(5, requires_grad=True)
y = x.detach()

print(x)
print(y)

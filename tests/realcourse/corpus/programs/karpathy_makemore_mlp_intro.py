# Source: https://github.com/karpathy/nn-zero-to-hero, lectures/makemore/makemore_part2_mlp.ipynb
#   at commit 73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde (Neural Networks: Zero to Hero, lecture 3 "Building
#   makemore Part 2: MLP"), cells 1-20: the dataset, the train/dev/test split with
#   Python's `random`, the embedding table and the first forward pass by hand (the rest is karpathy_makemore_mlp)
# License: MIT (karpathy/nn-zero-to-hero, LICENSE; names.txt from karpathy/makemore, MIT)
# Changes:
# - code cells concatenated in order; code comments kept
# - the data file: `words = open('names.txt', 'r').read().splitlines()` became an inline list of its first 100
#   names (case: data; names.txt of karpathy/makemore at commit 988aa59e4d8fefa526d06f3b453ad116258398d4, the file
#   the lecture reads; the first 100 hold all 26 letters)
# - each cell's last bare expression wrapped in print(...) (case: printed; a tuple as print((a, b)))
# - torch.manual_seed(0) added after the imports (case: seed; the first model's `torch.randn` draws unseeded)
# - plotting dropped: `import matplotlib.pyplot as plt`, `%matplotlib inline`
# - the case ends, as under PyTorch, at `-prob[torch.arange(32), Y]`: the lecture wrote 32 for the 32 examples of
#   its first five names, but the notebook's cell builds the dataset from all the words, so the indices do not
#   broadcast (IndexError), here as with the full names.txt
import torch
import torch.nn.functional as F
torch.manual_seed(0)  # case: seed
# read in all the words
words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn',
         'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett',
         'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora',
         'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe',
         'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar',
         'lucy', 'paisley', 'everly', 'anna', 'caroline', 'nova', 'genesis', 'emilia', 'kennedy', 'samantha',
         'maya', 'willow', 'kinsley', 'naomi', 'aaliyah', 'elena', 'sarah', 'ariana', 'allison', 'gabriella',
         'alice', 'madelyn', 'cora', 'ruby', 'eva', 'serenity', 'autumn', 'adeline', 'hailey', 'gianna',
         'valentina', 'isla', 'eliana', 'quinn', 'nevaeh', 'ivy', 'sadie', 'piper', 'lydia', 'alexa',
         'josephine', 'emery', 'julia', 'delilah', 'arianna', 'vivian', 'kaylee', 'sophie', 'brielle',
         'madeline']  # case: data
print(words[:8])  # case: printed
print(len(words))  # case: printed
# build the vocabulary of characters and mappings to/from integers
chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}
print(itos)
# build the dataset

block_size = 3 # context length: how many characters do we take to predict the next one?
X, Y = [], []
for w in words:
  
  #print(w)
  context = [0] * block_size
  for ch in w + '.':
    ix = stoi[ch]
    X.append(context)
    Y.append(ix)
    #print(''.join(itos[i] for i in context), '--->', itos[ix])
    context = context[1:] + [ix] # crop and append
  
X = torch.tensor(X)
Y = torch.tensor(Y)
print((X.shape, X.dtype, Y.shape, Y.dtype))  # case: printed
# build the dataset
block_size = 3 # context length: how many characters do we take to predict the next one?

def build_dataset(words):  
  X, Y = [], []
  for w in words:

    #print(w)
    context = [0] * block_size
    for ch in w + '.':
      ix = stoi[ch]
      X.append(context)
      Y.append(ix)
      #print(''.join(itos[i] for i in context), '--->', itos[ix])
      context = context[1:] + [ix] # crop and append

  X = torch.tensor(X)
  Y = torch.tensor(Y)
  print(X.shape, Y.shape)
  return X, Y

import random
random.seed(42)
random.shuffle(words)
n1 = int(0.8*len(words))
n2 = int(0.9*len(words))

Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])
C = torch.randn((27, 2))
emb = C[X]
print(emb.shape)  # case: printed
W1 = torch.randn((6, 100))
b1 = torch.randn(100)
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(h)  # case: printed
print(h.shape)  # case: printed
W2 = torch.randn((100, 27))
b2 = torch.randn(27)
logits = h @ W2 + b2
print(logits.shape)  # case: printed
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
print(prob.shape)  # case: printed
loss = -prob[torch.arange(32), Y].log().mean()
print(loss)  # case: printed

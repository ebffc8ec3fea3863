# Source: https://github.com/pytorch/tutorials, beginner_source/nlp/word_embeddings_tutorial.py
#   at commit 016d0cc077f60c82b8497d4c7f92051ce40cafee (Deep Learning for NLP with PyTorch: "Word Embeddings:
#   Encoding Lexical Semantics", Robert Guthrie), its first code cells: nn.Embedding and the trigrams
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - the module docstring and the sphinx-gallery prose blocks (comment cells) left out; code comments kept
# - only the cells before the N-gram model: from `vocab = set(test_sentence)` on, the tutorial numbers the words in a
#   set's iteration order, which changes with Python's string hashing from one run to the next (so PyTorch itself
#   prints different losses each run)

# Author: Robert Guthrie

import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)  # 2 words in vocab, 5 dimensional embeddings
lookup_tensor = torch.LongTensor([word_to_ix["hello"]])
hello_embed = embeds(autograd.Variable(lookup_tensor))
print(hello_embed)


CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
# We will use Shakespeare Sonnet 2
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;
To say, within thine own deep sunken eyes,
Were an all-eating shame, and thriftless praise.
How much more praise deserv'd thy beauty's use,
If thou couldst answer 'This fair child of mine
Shall sum my count, and make my old excuse,'
Proving his beauty by succession thine!
This were to be new made when thou art old,
And see thy blood warm when thou feel'st it cold.""".split()
# we should tokenize the input, but we will ignore that for now
# build a list of tuples.  Each tuple is ([ word_i-2, word_i-1 ], target word)
trigrams = [([test_sentence[i], test_sentence[i + 1]], test_sentence[i + 2])
            for i in range(len(test_sentence) - 2)]
# print the first 3, just so you can see what they look like
print(trigrams[:3])

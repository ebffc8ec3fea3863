# Source: https://github.com/d2l-ai/d2l-en, chapter_preliminaries/probability.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 2.6 "Probability and
#   Statistics": coin tosses with Python's random, then with torch.distributions' Multinomial), its PyTorch code
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell and the `%%tab` markers left out, with the other frameworks' blocks and the prose); code comments kept
# - each block's last bare expression wrapped in print(...) (case: printed)
# - random.seed(0) and torch.manual_seed(0) added after the imports (case: seed; the material draws unseeded)
# - plotting dropped: `%matplotlib inline`, `from d2l import torch as d2l` (used only to plot), and in the last
#   block its `d2l.set_figsize`/`d2l.plt.*` lines (the estimates it plots are computed as written)
import random
import torch
from torch.distributions.multinomial import Multinomial
random.seed(0)  # case: seed
torch.manual_seed(0)  # case: seed
num_tosses = 100
heads = sum([random.random() > 0.5 for _ in range(num_tosses)])
tails = num_tosses - heads
print("heads, tails: ", [heads, tails])
fair_probs = torch.tensor([0.5, 0.5])
print(Multinomial(100, fair_probs).sample())  # case: printed
print(Multinomial(100, fair_probs).sample() / 100)  # case: printed
counts = Multinomial(10000, fair_probs).sample()
print(counts / 10000)  # case: printed
counts = Multinomial(1, fair_probs).sample((10000,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
estimates = estimates.numpy()

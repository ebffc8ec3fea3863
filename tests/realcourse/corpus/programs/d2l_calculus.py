# Source: https://github.com/d2l-ai/d2l-en, chapter_preliminaries/calculus.md
#   at commit 23d7a5aecceee57d1292c56e90cce307f183bb0a (Dive into Deep Learning, 2.4 "Calculus": the numerical
#   limit of a difference quotient), its PyTorch code (the chapter uses numpy only)
# License: MIT-0 for the book's code (d2l-ai/d2l-en, LICENSE-SAMPLECODE; the prose is CC BY-SA 4.0 and left out)
# Changes:
# - the PyTorch tab's code blocks concatenated in order (the d2lbook `%load_ext d2lbook.tab`/`tab.interact_select`
#   cell left out, with the prose); code comments kept
# - plotting dropped: `%matplotlib inline`, `from d2l import torch as d2l`, `from matplotlib_inline import
#   backend_inline`, the book's plot helpers (`use_svg_display`, `set_figsize`, `set_axes`, `plot`: their defs only
#   draw) and the last block's `plot(...)` call (its `x = np.arange(0, 3, 0.1)` kept)
import numpy as np
def f(x):
    return 3 * x ** 2 - 4 * x
for h in 10.0**np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1+h)-f(1))/h:.5f}')
x = np.arange(0, 3, 0.1)

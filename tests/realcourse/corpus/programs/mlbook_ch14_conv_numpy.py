# Source: https://github.com/rasbt/machine-learning-book, ch14/ch14_part1.ipynb
#   at commit 35ab3774e8e249c43a98209d8efd94c060102003 (Raschka, Liu, Mirjalili: "Machine Learning with PyTorch
#   and Scikit-Learn", Chapter 14 "Classifying Images with Deep Convolutional Neural Networks", part 1),
#   "Performing a discrete convolution in one dimension": a 1-D convolution in numpy, beside np.convolve
# License: MIT (rasbt/machine-learning-book, LICENSE.txt)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - the package-version check cells dropped (`sys.path.insert`, `check_packages`), the figure cells
#   (`Image(...)`, `%matplotlib inline`)
# - `print('NumPy version: ', np.__version__)` dropped: it names the numpy installed, which is not pinned (the
#   engine's np.__version__ is that numpy's)
# - the 2-D convolution cell is not taken (it compares with scipy.signal.convolve2d), nor the cells after it
#   (an image file, MNIST downloads, CUDA)
import torch
import numpy as np

print('PyTorch version:', torch.__version__)
def conv1d(x, w, p=0, s=1):
    w_rot = np.array(w[::-1])
    x_padded = np.array(x)
    if p > 0:
        zero_pad = np.zeros(shape=p)
        x_padded = np.concatenate(
            [zero_pad, x_padded, zero_pad])
    res = []
    for i in range(0, (int((len(x_padded) - len(w_rot))/s) + 1) * s, s):
        res.append(np.sum(
            x_padded[i:i + w_rot.shape[0]] * w_rot))
    return np.array(res)


## Testing:
x = [1, 3, 2, 4, 5, 6, 1, 3]
w = [1, 0, 3, 1, 2]

print('Conv1d Implementation:',
      conv1d(x, w, p=2, s=1))

print('Numpy Results:',
      np.convolve(x, w, mode='same')) 

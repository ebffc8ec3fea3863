# Source: https://github.com/pytorch/tutorials, beginner_source/introyt/tensors_deeper_tutorial.py
#   at commit 3664438a88e1df751350abc330c23e277a3a406b (Introduction to PyTorch, YouTube series: "Introduction to
#   PyTorch Tensors"), its last section "NumPy Bridge" (one case per section)
# License: BSD-3-Clause (pytorch/tutorials)
# Changes:
# - only this section's code; the sphinx-gallery prose blocks (comment cells) left out
# - `import torch` (the notebook's first cell) and torch.manual_seed(0) put first (case: seed; the notebook's earlier
#   seed is in another case)

import torch
torch.manual_seed(0)  # case: seed

import numpy as np

numpy_array = np.ones((2, 3))
print(numpy_array)

pytorch_tensor = torch.from_numpy(numpy_array)
print(pytorch_tensor)


pytorch_rand = torch.rand(2, 3)
print(pytorch_rand)

numpy_rand = pytorch_rand.numpy()
print(numpy_rand)


numpy_array[1, 1] = 23
print(pytorch_tensor)

pytorch_rand[1, 1] = 17
print(numpy_rand)

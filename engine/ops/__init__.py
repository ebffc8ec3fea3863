"""The ops: one class per op (forward, one backward and its chain-rule template side by side, with PyTorch's names
and signature), grouped by kind. Loading this package declares them all, attaches the generated methods to
``Tensor`` and makes every declared torch function a name of this package (``engine.ops.exp``).

Example::

    >>> from engine.ops import arith
    >>> arith.MulBackward0.__doc__
    'a * b: d/da = b, d/db = a (product rule).'
"""

from __future__ import annotations

from engine.ops import (  # noqa: F401 - each module declares its ops when it loads
    activations, arith, elementwise, factories, indexing, inplace, linalg, logic, nnops, ordering, pieces, reduce,
    sampling, shape, soft_targets, stats, tensor_data,
)
from engine.ops import conv, normalization, pooling, robust_losses, scatter  # noqa: F401 - the nn layers' ops
from engine.ops import kits, methods  # noqa: F401 - the kits backward runs with, and the Tensor methods
from engine.ops.api import torch_functions
from engine.tensor import Tensor

methods.install(Tensor)
globals().update(torch_functions())
__all__ = sorted(torch_functions())

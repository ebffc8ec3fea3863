"""The ops: one class per op (forward, one backward and its chain-rule template side by side, with PyTorch's names
and signature), grouped by kind. Loading this package declares them all, attaches the generated methods to
``Tensor`` and makes every declared torch function a name of this package (``engine.ops.exp``).

Example::

    >>> from engine.ops import arith
    >>> arith.MulBackward0.__doc__
    'a * b: d/da = b, d/db = a (product rule).'
"""

from __future__ import annotations

from engine.ops import (  # noqa: F401 - each module declares its ops when it loads; kits and methods are used below
    activations,
    arith,
    conv,
    decompositions,
    elementwise,
    factories,
    histogram,
    indexing,
    inplace,
    kits,
    linalg,
    logic,
    meta_rules,
    methods,
    nnops,
    normalization,
    numpy_bridge,
    ordering,
    pieces,
    pooling,
    random_factories,
    reduce,
    remainder,
    robust_losses,
    sampling,
    scatter,
    several,
    shape,
    soft_targets,
    softmax,
    stats,
    tensor_data,
)
from engine.ops.api import torch_functions
from engine.tensor import Tensor

methods.install(Tensor)
meta_rules.attach()
globals().update(torch_functions())
__all__ = sorted(torch_functions())

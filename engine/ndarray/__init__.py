"""numpy for user code: our own ``ndarray``, scalars and dtypes, each holding the real numpy value privately and
exposing a vetted set of names, bounded by the run's budget (``engine.stdlib.numpy_module`` is the module user
code imports; ``engine.ops.numpy_bridge`` is ``t.numpy()`` and ``torch.from_numpy``).

Example::

    >>> a = array_of(np.ones(3, dtype=np.float32))
    >>> a * 2
    array([2., 2., 2.], dtype=float32)
"""

from __future__ import annotations

from engine.ndarray.array import array_of, broadcast_size, host_array, matmul_size, ndarray
from engine.ndarray.kinds import DType, np_dtype
from engine.ndarray.scalar import Scalar, scalar_of
from engine.ndarray.values import check, prod, shape_arg, unwrap, unwrap_args, wrap

__all__ = [
    "DType",
    "Scalar",
    "array_of",
    "broadcast_size",
    "check",
    "host_array",
    "matmul_size",
    "ndarray",
    "np_dtype",
    "prod",
    "scalar_of",
    "shape_arg",
    "unwrap",
    "unwrap_args",
    "wrap",
]

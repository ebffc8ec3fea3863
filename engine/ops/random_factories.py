"""Functions that draw new tensors from the run's generator: ``torch.rand``, ``randn``, ``randint``, ``rand_like``,
``randn_like``, ``normal`` and ``randperm``, each drawing PyTorch's sequence for the same ``torch.manual_seed``.

Example::

    >>> torch.manual_seed(0); torch.rand(2)
    tensor([0.4963, 0.7682])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import dtypes, random
from engine.meta import MetaArray, is_meta
from engine.ops.api import torch_op
from engine.ops.argcheck import invalid_combination
from engine.ops.factories import _CREATED, _new, _np_dtype, _sequence, _size, _size_keyword
from engine.ops.operands import check_alloc
from engine.size_device import check_device
from engine.tensor import Size, Tensor


@torch_op("rand", method=False)
def rand(
    *size: Any, dtype: Any = None, requires_grad: bool = False, generator: Any = None, device: Any = None, **kw: Any
) -> Tensor:
    """Uniform values in [0, 1), the same as PyTorch's after the same ``torch.manual_seed``."""
    meta = check_device(device, meta=True)
    size = _size_keyword("rand", size, kw)
    shape = _size(size, "rand", alloc=not meta)
    if generator is not None and not isinstance(generator, random.Generator):
        raise invalid_combination(
            "rand",
            size,
            {"generator": generator},
            ["tuple of ints size, *, torch.Generator? generator, torch.dtype dtype = None"] * 2,
        )
    dt = _np_dtype(dtype)
    if meta:  # no values: the generator is not drawn from, any dtype goes (PyTorch's meta kernels)
        return _new(MetaArray(shape, dt), requires_grad)
    random._floating_kernel("check_uniform_bounds", dtypes.from_numpy(np.dtype(dt)))
    gen = generator if generator is not None else random.generator()
    return _new(gen._uniform(int(math.prod(shape)), 0.0, 1.0, dt).reshape(shape), requires_grad)


@torch_op("randn", method=False)
def randn(
    *size: Any, dtype: Any = None, requires_grad: bool = False, generator: Any = None, device: Any = None, **kw: Any
) -> Tensor:
    """Standard normal values, the same as PyTorch's after the same ``torch.manual_seed``."""
    meta = check_device(device, meta=True)
    size = _size_keyword("randn", size, kw)
    shape = _size(size, "randn", alloc=not meta)
    if generator is not None and not isinstance(generator, random.Generator):
        raise invalid_combination(
            "randn",
            size,
            {"generator": generator},
            ["tuple of ints size, *, torch.Generator? generator, torch.dtype dtype = None"] * 2,
        )
    dt = _np_dtype(dtype)
    if meta:
        return _new(MetaArray(shape, dt), requires_grad)
    random._floating_kernel("normal_kernel_cpu", dtypes.from_numpy(np.dtype(dt)))
    gen = generator if generator is not None else random.generator()
    return _new(gen._normal(int(math.prod(shape)), 0.0, 1.0, dt).reshape(shape), requires_grad)


@torch_op(
    "randint",
    method=False,
    signature=(
        f"int high, int[] size, *, Generator? generator=None, {_CREATED[3:]}",
        f"int low, int high, int[] size, *, Generator? generator=None, {_CREATED[3:]}",
    ),
)
def randint(
    low: int, high: Any = None, size: Any = None, dtype: Any = None, generator: Any = None, device: Any = None
) -> Tensor:
    """Integers in [low, high) (``torch.randint(10, (3,))`` or ``torch.randint(0, 10, (3,))``)."""
    meta = check_device(device, meta=True)
    if size is None and isinstance(high, (tuple, list, Size)):
        low, high, size = 0, low, high
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    shape = _size(_sequence(size, "randint", 2), "randint", 2, alloc=not meta)
    if meta:
        return _new(MetaArray(shape, _np_dtype(dtype, np.int64)))
    gen = generator if generator is not None else random.generator()
    data = gen._randint(int(math.prod(shape)), int(low), int(high)).reshape(shape)
    return _new(data.astype(_np_dtype(dtype, np.int64)))


@torch_op(
    "rand_like",
    method=False,
    signature=(f"Tensor input, {_CREATED}", f"Tensor input, *, Generator? generator, {_CREATED[3:]}"),
)
def rand_like(t: Tensor, dtype: Any = None) -> Tensor:
    return rand(*t._data.shape, dtype=dtype or t.dtype, device="meta" if is_meta(t._data) else "cpu")


@torch_op(
    "randn_like",
    method=False,
    signature=(f"Tensor input, {_CREATED}", f"Tensor input, *, Generator? generator, {_CREATED[3:]}"),
)
def randn_like(t: Tensor, dtype: Any = None) -> Tensor:
    return randn(*t._data.shape, dtype=dtype or t.dtype, device="meta" if is_meta(t._data) else "cpu")


@torch_op(
    "normal",
    method=False,
    signature=(
        "Tensor mean, Tensor std, *, Generator? generator=None",
        "Tensor mean, float std=1, *, Generator? generator=None",
        "float mean, Tensor std, *, Generator? generator=None",
        f"float mean, float std, int[] size, *, Generator? generator=None, {_CREATED[3:]}",
        "float mean, float std, int[] size, *, Generator? generator=None, Tensor? out=None",
    ),
)
def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    dtype: Any = None,
    generator: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    layout: Any = None,
) -> Tensor:
    """``torch.normal(0., 1., size=(2, 3))`` (with the factory keywords: ``requires_grad=True`` makes a leaf, as
    d2l's ``w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)``), or elementwise means/stds:
    ``torch.normal(means, stds)``."""
    check_device(device)
    gen = generator if generator is not None else random.generator()
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean, dtype=np.float32)
        s = std._data if isinstance(std, Tensor) else np.asarray(std, dtype=np.float32)
        shape = np.broadcast_shapes(m.shape, s.shape)
        if (s < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        dt = (mean if isinstance(mean, Tensor) else std)._data.dtype
        z = gen._normal(int(math.prod(shape)), 0.0, 1.0, dt).reshape(shape)
        return _new((z * s + m).astype(dt))
    if size is None:
        raise TypeError("normal() missing 1 required positional argument: 'size'")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    try:
        shape = _size(_sequence(size, "normal", 3), "normal", 3)
    except TypeError:  # normal's overloads: PyTorch lists them all
        raise invalid_combination(
            "normal", (mean, std, size), {}, ["float mean, float std, tuple of ints size"] * 2
        ) from None

    return _new(gen._normal(int(math.prod(shape)), mean, std, _np_dtype(dtype)).reshape(shape), requires_grad)


@torch_op("randperm", method=False, signature=(f"int n, {_CREATED}", f"int n, *, Generator? generator, {_CREATED[3:]}"))
def randperm(n: int, dtype: Any = None, generator: Any = None) -> Tensor:
    """A random permutation of 0..n-1, PyTorch's sequence: a Fisher–Yates shuffle that swaps position i with
    i + (32-bit draw mod (n - i))."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    check_alloc(n)
    gen = generator if generator is not None else random.generator()
    draws = gen._u32(max(n - 1, 0)).tolist()
    perm = list(range(n))
    for i, r in enumerate(draws):
        z = i + r % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return _new(np.asarray(perm, dtype=_np_dtype(dtype, np.int64)))

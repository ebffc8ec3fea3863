"""The ops' meta rules: the shape and dtype of an op's result on meta tensors, computed without any values
(PyTorch's "meta kernels"). ``Function.apply`` calls ``cls.meta(cls, ctx, arrays, params)`` when an input is on the
meta device; an op without a rule says so (``NotImplementedError``), as PyTorch does for an op with no meta kernel.

The rules come in families, each written once:

- ``pointwise``: the result has the inputs' broadcast shape; its dtype is what the op's own forward gives on one
  element of each input's dtype (so the dtype rules are the op's, never a copy of them);
- ``view``: the op's forward runs on stand-ins whose every element is one shared zero (numpy strides of 0), so
  reshape, transpose, permute, squeeze, expand and basic indexing give their shape without allocating;
- ``same``: the shape and dtype of the first input (normalizations);
- ``reduction``: the input's shape without the reduced ``dim`` (kept as 1 with ``keepdim``);
- and the ops whose shapes are arithmetic of their own: convolutions, pooling, matrix products, cat/stack, losses.

Example::

    >>> x = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
    >>> torch.nn.Conv2d(3, 5, 2, device="meta")(x).shape
    torch.Size([1024, 5, 65535, 65535])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.meta import MetaArray, check_devices, is_meta
from engine.ops.conv_kernels import out_size
from engine.ops.function import NO_CTX, Function, WrappedNumber

Arrays = list[Any]


def _one(a: Any) -> np.ndarray:
    """A one-element stand-in of ``a``'s dtype and number of dimensions (a real small array stays as it is)."""
    return np.ones((1,) * a.ndim, a.dtype) if is_meta(a) else a


def _relink(ctx: Any, stand_ins: Arrays, arrays: Arrays, result: Any, out: MetaArray) -> None:
    """What the forward saved of its stand-ins, as the meta arrays they stand for (``y.grad_fn._saved_self``)."""
    if ctx is NO_CTX:
        return
    for key, v in ctx._saved.items():
        for stand_in, a in zip(stand_ins, arrays, strict=True):
            if v is stand_in:
                ctx._saved[key] = a
        if v is result:
            ctx._saved[key] = out


def pointwise(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    masks = {k: v for k, v in params.items() if is_meta(v)}  # torch.where's condition is a parameter of the node
    shape = np.broadcast_shapes(*(a.shape for a in (*arrays, *masks.values())))
    stand_ins = [_one(a) for a in arrays]
    result = np.asarray(cls._forward(ctx, *stand_ins, **{**params, **{k: _one(v) for k, v in masks.items()}}))
    out = MetaArray(shape, result.dtype)
    _relink(ctx, stand_ins, arrays, result, out)
    return out


def view(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    stand_ins = [a.proxy() if is_meta(a) else a for a in arrays]
    result = cls._forward(ctx, *stand_ins, **params)
    if result.flags.owndata and result.size > 1:  # pragma: no cover - a view op that copied: never data
        raise RuntimeError(f"internal error: {cls.__name__} copied its meta input")
    out = MetaArray(result.shape, result.dtype)
    _relink(ctx, stand_ins, arrays, result, out)
    return out


def same(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    return MetaArray(arrays[0].shape, arrays[0].dtype)


def reduced(shape: tuple[int, ...], dim: Any, keepdim: bool) -> tuple[int, ...]:
    """``shape`` after a reduction over ``dim`` (an int, a tuple, or None for all), kept as 1 with ``keepdim``."""
    n = len(shape)
    dims = set(range(n)) if dim is None else {d % max(n, 1) for d in np.atleast_1d(dim).tolist()}
    return tuple(1 if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def reduction(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    a = arrays[0]
    shape = reduced(a.shape, params.get("dim"), params.get("keepdim", False))
    stand_in = _one(a)
    result = np.asarray(cls._forward(ctx, stand_in, **params))
    out = MetaArray(shape, result.dtype)
    _relink(ctx, [stand_in], [a], result, out)
    return out


def convolution(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    x, w, _ = arrays
    stride, pads, dilation = params["geometry"]
    planes = x.shape[2:] if x.ndim == 4 else (1, *x.shape[2:])  # conv1d: a conv2d of height 1
    kernel = w.shape[2:] if w.ndim == 4 else (1, *w.shape[2:])
    size = out_size(planes, kernel, stride, pads, dilation)
    ctx._save(input=x, weight=w, transposed=False, groups=params.get("groups", 1), **(params.get("shown") or {}))
    return MetaArray((x.shape[0], w.shape[0], *(size if x.ndim == 4 else size[1:])), x.dtype)


def pooling(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    (x,) = arrays
    out = params["geometry"][-1] if "geometry" in params else params["out"]
    ctx._save(self=x, **(params.get("shown") or {}))
    return MetaArray(x.shape[:-2] + tuple(out), x.dtype)


def matrix_product(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    *_, a, b = arrays  # (bias,) mat1, mat2
    lead = a.shape[:-2] if b.ndim > 1 else ()
    shape = (*lead, *a.shape[-2:-1], *b.shape[-1:]) if b.ndim > 1 else a.shape[:-1]
    return MetaArray(shape if a.ndim > 1 else (), np.result_type(a.dtype, b.dtype))


def cat(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    dim = params.get("dim", 0)
    first = arrays[0].shape
    ctx._save(dim=dim)
    if cls.__name__ == "StackBackward0":
        d = dim % (len(first) + 1)
        return MetaArray((*first[:d], len(arrays), *first[d:]), np.result_type(*(a.dtype for a in arrays)))
    total = sum(a.shape[dim] for a in arrays)
    d = dim % len(first)
    return MetaArray((*first[:d], total, *first[d + 1 :]), np.result_type(*(a.dtype for a in arrays)))


def pieces(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    """A piece of a split or chunk (``start:stop`` along ``dim``), a slice of unbind (``index`` of ``dim``), or a
    repeat (each dimension times its count, the input's shape padded with 1s in front)."""
    (a,) = arrays
    ctx._save(**{k: v for k, v in params.items() if k in ("dim", "split_size", "repeats")})
    if "repeats" in params:
        reps = tuple(params["repeats"])
        padded = (1,) * (len(reps) - a.ndim) + a.shape
        return MetaArray(tuple(s * r for s, r in zip(padded, reps, strict=True)), a.dtype)
    d = params.get("dim", 0) % a.ndim
    if "index" in params:
        return MetaArray(a.shape[:d] + a.shape[d + 1 :], a.dtype)
    start, stop = params["start"], params["stop"]
    return MetaArray((*a.shape[:d], max(0, min(stop, a.shape[d]) - start), *a.shape[d + 1 :]), a.dtype)


NONZERO = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a correct data-independent "
    "implementation does not exist. This implementation returns a fake value, assuming all elements of the tensor "
    "are non-zero. To enable this registration, please set "
    "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True."
)


def advanced_index(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    """``x[idx]`` with index tensors or lists, by PyTorch's rule: ints select first; the index arrays' broadcast shape
    takes their place when they stand together, else goes first; slices keep their lengths, None adds a 1. A CPU
    mask picks its true positions; a meta mask has no shape without its values (PyTorch refuses it as ``nonzero``)."""
    (a,) = arrays
    key: tuple[Any, ...] = ()
    for k in params["key"] if type(params["key"]) is tuple else (params["key"],):
        k = np.asarray(k) if isinstance(k, list) else k
        if getattr(k, "dtype", None) == np.bool_:  # a mask: the positions of its true values, one index per dim
            if is_meta(k):
                raise NotImplementedError(NONZERO)
            key += tuple(np.nonzero(k))
        else:
            key += (k,)
    real = sum(1 for k in key if k is not None and k is not Ellipsis)
    at = next((i for i, k in enumerate(key) if k is Ellipsis), len(key))
    key = key[:at] + (slice(None),) * (a.ndim - real) + key[at + 1 :]
    shape: list[int] = []
    order: list[bool] = []  # for each index but the ints (which select first, as in PyTorch): is it an array?
    dim, mark = 0, 0
    for k in key:
        if isinstance(k, (int, np.integer)):
            dim += 1
            continue
        if k is None or isinstance(k, slice):
            shape.append(1 if k is None else len(range(*k.indices(a.shape[dim]))))
            dim += k is not None
        else:
            mark = len(shape) if True not in order else mark
            dim += 1
        order.append(k is not None and not isinstance(k, slice))
    first, last = order.index(True), len(order) - 1 - order[::-1].index(True)
    together = all(order[first : last + 1])
    picked = np.broadcast_shapes(
        *(np.shape(k) for k in key if k is not None and not isinstance(k, (slice, int, np.integer)))
    )
    at = mark if together else 0
    return MetaArray((*shape[:at], *picked, *shape[at:]), a.dtype)


def loss(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    a = arrays[0]
    if params.get("reduction", "mean") != "none":
        return MetaArray((), a.dtype)
    if cls.__name__ == "NllLossBackward0":  # one loss per sample: the class dimension goes
        return MetaArray(a.shape[:1] + a.shape[2:], a.dtype)
    return MetaArray(np.broadcast_shapes(*(t.shape for t in arrays)), a.dtype)


def embedding(cls: type[Function], ctx: Any, arrays: Arrays, params: dict[str, Any]) -> MetaArray:
    (w,) = arrays
    return MetaArray(tuple(np.shape(params["indices"])) + w.shape[1:], w.dtype)


def without_node(dtype: Any, *operands: Any) -> MetaArray | None:
    """The meta result of an op that records no node (a comparison, a logical op: its dtype is given), or None if
    no operand is on the meta device."""
    arrays = [t._data for t in operands]
    if not any(is_meta(a) for a in arrays):
        return None
    check_devices([(t._data, type(t) is WrappedNumber) for t in operands])
    return MetaArray(np.broadcast_shapes(*(a.shape for a in arrays)), dtype)


RULES = {  # node names by the rule that gives their results' shapes
    pointwise: (
        "ToCopyBackward0 AddBackward0 SubBackward0 RsubBackward1 MulBackward0 DivBackward0 NegBackward0 PowBackward0"
        " PowBackward1 PowBackward2 LeakyReluBackward0 HardtanhBackward0 LogSigmoidBackward0 SoftplusBackward0"
        " EluBackward0 GeluBackward0 CloneBackward0 CopyBackwards MaximumBackward0 MinimumBackward0"
        " SoftmaxBackward0 LogSoftmaxBackward0 DivBackward1 MulBackward1 MaskedFillBackward0 CumsumBackward0"
        " Atan2Backward0 HypotBackward0 WhereBackward0 ClampBackward1 FlipBackward0 TriuBackward0 TrilBackward0"
    ),
    view: (
        "ViewBackward0 UnsafeViewBackward0 TransposeBackward0 TBackward0 PermuteBackward0 SqueezeBackward0"
        " SqueezeBackward1 SqueezeBackward4 UnsqueezeBackward0 ExpandBackward0 SelectBackward0 SliceBackward0"
    ),
    same: "NativeBatchNormBackward0 NativeLayerNormBackward0",
    reduction: (
        "SumBackward0 SumBackward1 MeanBackward0 MeanBackward1 MaxBackward1 MinBackward1 ProdBackward0 AmaxBackward0"
        " AminBackward0 LogsumexpBackward0 VarBackward0 StdBackward0 LinalgVectorNormBackward0"
    ),
    convolution: "ConvolutionBackward0",
    pooling: "MaxPool2DWithIndicesBackward0 AvgPool2DBackward0 AdaptiveAvgPool2DBackward0",
    matrix_product: "MmBackward0 MvBackward0 DotBackward0 BmmBackward0 AddmmBackward0",
    cat: "CatBackward0 StackBackward0",
    pieces: "SplitBackward0 SplitWithSizesBackward0 UnbindBackward0 RepeatBackward0",
    loss: (
        "MseLossBackward0 NllLossBackward0 BinaryCrossEntropyBackward0 BinaryCrossEntropyWithLogitsBackward0"
        " SmoothL1LossBackward0 HuberLossBackward0"
    ),
    embedding: "EmbeddingBackward0",
    advanced_index: "IndexBackward0",
}


def _ops(cls: type[Function]) -> dict[str, type[Function]]:
    found = {}
    for sub in cls.__subclasses__():
        found[sub.__name__] = sub
        found.update(_ops(sub))
    return found


def attach() -> None:
    """Give each op of ``RULES`` its meta rule, and every op of the one-input elementwise table ``pointwise``."""
    ops = _ops(Function)
    for rule, names in RULES.items():
        for name in names.split():
            ops[name].meta = rule
    ops["Elementwise"].meta = pointwise  # (the rows of elementwise.TABLE inherit it)


__all__ = [
    "RULES",
    "attach",
    "reduced",
    "without_node",
    "cat",
    "convolution",
    "pointwise",
    "pooling",
    "reduction",
    "same",
    "view",
]

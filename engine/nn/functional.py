"""``torch.nn.functional`` (``F``): the function forms of layers and losses.

Their refusals are PyTorch's: an ATen builtin's argument parser (``F.gelu([1.])``: ``gelu(): argument 'input'
(position 1) must be Tensor, not list``), or what PyTorch's Python code trips over first (``F.sigmoid([1.])`` calls
``input.sigmoid()``: ``'list' object has no attribute 'sigmoid'``).

Example::

    >>> F.relu(torch.tensor([-1., 2.]))
    tensor([0., 2.])
"""

from __future__ import annotations

from typing import Any

from engine.ops import activations, argcheck, conv, elementwise, linalg, nnops, normalization, pooling, robust_losses
from engine.ops.activations import dropout as _dropout
from engine.ops.activations import gelu as _gelu
from engine.ops.nnops import cross_entropy, nll_loss
from engine.ops.pieces import gather  # noqa: F401 - re-exported
from engine.ops.prelu import prelu as _prelu
from engine.ops.shape import squeeze as _squeeze
from engine.ops.shape import unsqueeze as _unsqueeze
from engine.ops.soft_targets import one_hot as _one_hot
from engine.run_state import state
from engine.tensor import Tensor


def _input(x: Any, op: str) -> None:
    if not isinstance(x, Tensor):
        raise argcheck.must_be(op, "input", 1, "Tensor", x)


def _method_of(x: Any, attribute: str) -> None:
    """PyTorch's Python code calls ``input.<attribute>(…)`` first."""
    if not isinstance(x, Tensor):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '{attribute}'")


def relu(input: Any, inplace: bool = False) -> Tensor:
    _input(input, "relu")
    if input._data.dtype == bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    return input.relu_() if inplace else elementwise.relu(input)


def silu(input: Any, inplace: bool = False) -> Tensor:
    _input(input, "silu")
    argcheck.floating("silu_cpu", input)
    return elementwise.silu(input)


def sigmoid(input: Any) -> Tensor:
    _method_of(input, "sigmoid")
    return elementwise.sigmoid(input)


def tanh(input: Any) -> Tensor:
    _method_of(input, "tanh")
    return elementwise.tanh(input)


def _softmax(name: str, fn: Any) -> Any:
    def f(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
        _method_of(input, "dim" if dim is None else name)
        if dim is not None:
            err = argcheck.refusal(name, (dim,), {} if dtype is None else {"dtype": dtype}, method=True)
            if err is not None:
                raise err
        return fn(input, dim) if dtype is None else fn(input.to(dtype), dim)

    f.__name__ = f.__qualname__ = name
    return f


softmax = _softmax("softmax", nnops.softmax)
log_softmax = _softmax("log_softmax", nnops.log_softmax)


def dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    err = argcheck.refusal("dropout", (input, p, training), {})
    if err is not None:
        raise err
    return _dropout(input, p, training)


def dropout1d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels of (N, C, L) or (C, L) inputs zeroed with probability p."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    _method_of(input, "dim")
    nd = input._data.ndim
    if nd not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {nd}D input. Note that dropout1d "
            "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
            "dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    if nd == 3:
        return _dropout(input, p, training, feature=True)
    return _squeeze(_dropout(_unsqueeze(input, 0), p, training, feature=True), 0)


def dropout2d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels of (N, C, H, W) inputs zeroed with probability p."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    _method_of(input, "dim")
    nd = input._data.ndim
    obs = state().observer
    if nd not in (3, 4) and obs is not None:
        obs.warning(
            f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use "
            "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
            "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
            "inputs)."
        )
    if nd == 3 and obs is not None:
        obs.warning(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
            "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
            "This behavior will change in a future release to interpret the input as one without a batch "
            "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
            "switch to using dropout1d instead."
        )
    return _dropout(input, p, training, feature=True)


# the losses under PyTorch's parameter names (``F.mse_loss(x)``: "missing 1 required positional argument: 'target'")
def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    return nnops.mse_loss(input, target, reduction)


def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    return nnops.l1_loss(input, target, reduction)


def binary_cross_entropy(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    return nnops.binary_cross_entropy(input, target, reduction)


def binary_cross_entropy_with_logits(
    input: Any,
    target: Any,
    weight: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> Tensor:
    return nnops.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


def conv1d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    return conv.convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    return conv.convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def _pooling(name: str) -> Any:
    fn = getattr(pooling, name)

    def f(input: Any, *args: Any, **kwargs: Any) -> Any:
        _input(input, name)
        return fn(input, *args, **kwargs)

    f.__name__ = f.__qualname__ = name
    return f


max_pool1d, max_pool2d, avg_pool1d, avg_pool2d, adaptive_avg_pool2d = (
    _pooling(n) for n in ("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d")
)


def pad(input: Any, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:
    _input(input, "pad")
    if mode != "constant":
        raise NotImplementedError(f"F.pad's mode='{mode}' is not supported by gradtrace's engine")
    return conv.constant_pad(input, pad, value)


def batch_norm(
    input: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    _input(input, "batch_norm")
    return normalization.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def layer_norm(
    input: Any,
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
) -> Tensor:
    _input(input, "layer_norm")
    if not isinstance(normalized_shape, (tuple, list)):
        raise argcheck.must_be("layer_norm", "normalized_shape", 2, "tuple of ints", normalized_shape)
    return normalization.layer_norm(input, normalized_shape, weight, bias, eps)


def embedding(
    input: Any,
    weight: Any,
    padding_idx: Any = None,
    max_norm: Any = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    _input(input, "embedding")
    return normalization.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)


def smooth_l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    return robust_losses.smooth_l1_loss(input, target, size_average, reduce, reduction, beta)


def huber_loss(
    input: Any,
    target: Any,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
) -> Tensor:
    return robust_losses.huber_loss(input, target, reduction, delta, weight)


def _floating(kernel: str, fn: Any) -> Any:
    """``fn`` refusing a non-floating input as its CPU kernel does (``F.gelu(torch.tensor([1]))``)."""

    def f(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        argcheck.floating(kernel, input)
        return fn(input, *args, **kwargs)

    f.__name__ = f.__qualname__ = fn.__name__
    return f


gelu = argcheck.signed("gelu", _floating("GeluKernelImpl", _gelu), key="F.gelu")
softplus = argcheck.signed("softplus", _floating("softplus_cpu", activations.softplus), key="F.softplus")
leaky_relu = argcheck.signed("leaky_relu", _floating("leaky_relu_cpu", activations.leaky_relu), key="F.leaky_relu")
elu = argcheck.signed("elu", _floating("elu_cpu", activations.elu), key="F.elu")
prelu = argcheck.signed("prelu", _prelu, key="F.prelu")
hardtanh = argcheck.signed("hardtanh", activations.hardtanh, key="F.hardtanh")  # integers too, as in PyTorch
relu6 = argcheck.signed("relu6", activations.relu6, key="F.relu6")
logsigmoid = argcheck.signed("logsigmoid", _floating("log_sigmoid_cpu", activations.logsigmoid), key="F.logsigmoid")
linear = argcheck.signed("linear", linalg.linear, key="F.linear")
one_hot = argcheck.signed("one_hot", _one_hot, key="F.one_hot")

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "dropout",
    "gelu",
    "l1_loss",
    "leaky_relu",
    "linear",
    "log_softmax",
    "mse_loss",
    "nll_loss",
    "relu",
    "sigmoid",
    "softmax",
    "tanh",
    "softplus",
    "one_hot",
    "elu",
    "prelu",
    "hardtanh",
    "relu6",
    "logsigmoid",
    "silu",
    "conv1d",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "batch_norm",
    "layer_norm",
    "embedding",
    "smooth_l1_loss",
    "huber_loss",
    "pad",
    "max_pool1d",
    "avg_pool1d",
    "dropout1d",
    "dropout2d",
]

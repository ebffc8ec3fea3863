"""Normalisation layers and lookup tables: ``BatchNorm1d``, ``BatchNorm2d``, ``LayerNorm``, ``Embedding``.

Batch norm keeps running statistics as buffers (``running_mean``, ``running_var``, ``num_batches_tracked``): in
training they move towards each batch's statistics, in eval (``model.eval()``) they are used instead of them.

Example::

    >>> bn = nn.BatchNorm1d(3)
    >>> bn
    BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import dtypes
from engine.meta import is_meta
from engine.nn import functional, init
from engine.nn.module import Module, Parameter
from engine.ops import normalization
from engine.size_device import check_device
from engine.tensor import Tensor


def _zeros(shape: tuple[int, ...], dtype: Any, meta: bool = False) -> Tensor:
    return init.blank(shape, dtypes.default_np() if dtype is None else dtype._np, meta)


class _BatchNorm(Module):
    """Per-channel standardisation with a learned scale (weight, ones) and shift (bias, zeros)."""

    _dims: tuple[int, ...] = (2, 3)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        meta = check_device(device, meta=True)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self._bias_flag = affine and bias
        if affine:
            self.weight = Parameter(_zeros((num_features,), dtype, meta))
            init.ones_(self.weight)
        else:
            self.register_parameter("weight", None)
        if self._bias_flag:
            self.bias = Parameter(_zeros((num_features,), dtype, meta))
        else:
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _zeros((num_features,), dtype, meta))
            var = _zeros((num_features,), dtype, meta)
            init.ones_(var)
            self.register_buffer("running_var", var)
            self.register_buffer("num_batches_tracked", init.blank((), np.int64, meta))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def _check_input_dim(self, x: Tensor) -> None:
        if x._data.ndim not in self._dims:
            wanted = " or ".join(f"{d}D" for d in self._dims)
            raise ValueError(f"expected {wanted} input (got {x._data.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:
        functional._input(input, "batch_norm")
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        tracked = self.num_batches_tracked
        if self.training and self.track_running_stats and tracked is not None and not is_meta(tracked._data):
            self.num_batches_tracked._data[...] += 1
            self.num_batches_tracked._version += 1
            factor = 1.0 / float(self.num_batches_tracked._data) if self.momentum is None else self.momentum
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_running = not self.training or self.track_running_stats
        return normalization.batch_norm(
            input,
            self.running_mean if use_running else None,
            self.running_var if use_running else None,
            self.weight,
            self.bias,
            bn_training,
            factor,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"bias={self._bias_flag}, track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch norm over (N, C) or (N, C, L) inputs."""

    _dims = (2, 3)

    def _check_input_dim(self, x: Tensor) -> None:
        if x._data.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {x._data.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch norm over (N, C, H, W) inputs."""

    def _check_input_dim(self, x: Tensor) -> None:
        if x._data.ndim != 4:
            raise ValueError(f"expected 4D input (got {x._data.ndim}D input)")


class LayerNorm(Module):
    """Standardisation over the last dims (normalized_shape) of each sample, with a learned scale and shift."""

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        meta = check_device(device, meta=True)
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        self._bias_flag = elementwise_affine and bias
        if elementwise_affine:
            self.weight = Parameter(_zeros(shape, dtype, meta))
            init.ones_(self.weight)
        else:
            self.register_parameter("weight", None)
        if self._bias_flag:
            self.bias = Parameter(_zeros(shape, dtype, meta))
        else:
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        functional._input(input, "layer_norm")
        return normalization.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
            f"bias={self._bias_flag}"
        )


class Embedding(Module):
    """A table of num_embeddings vectors of size embedding_dim (drawn from N(0, 1)); the padding row is zeros."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        meta = check_device(device, meta=True)
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, "Padding_idx must be within num_embeddings"
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, "Padding_idx must be within num_embeddings"
                padding_idx = num_embeddings + padding_idx
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(_zeros((num_embeddings, embedding_dim), dtype, meta), requires_grad=not _freeze)
            init.normal_(self.weight)
            if padding_idx is not None and not meta:
                self.weight._data[padding_idx] = 0
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    @classmethod
    def from_pretrained(
        cls, embeddings: Tensor, freeze: bool = True, padding_idx: int | None = None, **kwargs: Any
    ) -> Embedding:
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze, **kwargs)

    def forward(self, input: Tensor) -> Tensor:
        functional._input(input, "embedding")
        return normalization.embedding(
            input, self.weight, self.padding_idx, self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s


__all__ = ["BatchNorm1d", "BatchNorm2d", "Embedding", "LayerNorm"]

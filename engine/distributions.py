"""``torch.distributions``' Categorical, Multinomial and Normal: the parameters, sampling (the same draws from the
same generator as PyTorch's), ``log_prob``, ``entropy``, the moments and the repr, as PyTorch's Python code computes
them (Dive into Deep Learning's probability chapter samples coin tosses with ``Multinomial``).

Example::

    >>> Multinomial(10, torch.tensor([0.5, 0.5])).sample()   # 10 draws of torch.multinomial, counted per class
    tensor([4., 6.])
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import numpy as np

from engine import grad_mode
from engine.ops import factories, random_factories, sampling
from engine.ops.operands import made
from engine.ops.softmax import softmax
from engine.size_device import Size
from engine.tensor import Tensor


def _as_tensor(v: Any) -> Tensor:
    return v if isinstance(v, Tensor) else factories.tensor(float(v))


def _size(sample_shape: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in sample_shape)


def _broadcast(*ts: Tensor) -> list[Tensor]:
    """``torch.broadcast_tensors``: each expanded to the common shape (those already of it unchanged)."""
    common = np.broadcast_shapes(*(t._data.shape for t in ts))
    return [t if t._data.shape == common else t.expand(*common) for t in ts]


class Distribution:
    """What the three share: ``batch_shape``, ``event_shape``, the repr PyTorch prints (a one-element parameter by
    its value, a larger one by its size) and the check of the parameters' constraints."""

    _constraints: tuple[tuple[str, str], ...] = ()  # immutable: the class is shared by every run in a process
    _batch: tuple[int, ...] = ()
    _event: tuple[int, ...] = ()

    @property
    def arg_constraints(self) -> dict[str, str]:
        """A fresh dict each time (a learner's change to it stays in their copy, never in the shared class)."""
        return dict(self._constraints)

    @property
    def batch_shape(self) -> Size:
        return Size(self._batch)

    @property
    def event_shape(self) -> Size:
        return Size(self._event)

    def _extended_shape(self, sample_shape: Any = ()) -> tuple[int, ...]:
        return _size(sample_shape) + self._batch + self._event

    def __repr__(self) -> str:
        shown = [p for p, _ in self._constraints if p in self.__dict__]
        parts = [f"{p}: {v.item() if v.numel() == 1 else v.size()}" for p in shown for v in (self.__dict__[p],)]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _check(self, param: str, value: Tensor, valid: bool) -> None:
        if not valid:
            raise ValueError(
                f"Expected parameter {param} (Tensor of shape {tuple(value._data.shape)}) of distribution {self!r} "
                f"to satisfy the constraint {dict(self._constraints)[param]}, but found invalid values:\n{value}"
            )


class Categorical(Distribution):
    """One of ``K`` classes, by ``probs`` (normalised to sum to 1) or ``logits`` (normalised by logsumexp)."""

    _constraints = (("probs", "Simplex()"), ("logits", "IndependentConstraint(Real(), 1)"))

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None, validate_args: Any = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            param = self.probs
        else:
            if logits.dim() < 1:  # type: ignore[union-attr]
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)  # type: ignore[union-attr]
            param = self.logits
        self._num_events = int(param._data.shape[-1])
        self._batch = tuple(param._data.shape[:-1])
        if validate_args is not False and probs is not None:
            p = self.probs._data
            self._check("probs", self.probs, bool((p >= 0).all() and (np.abs(p.sum(-1) - 1) < 1e-6).all()))

    def __getattr__(self, name: str) -> Any:  # the parameter not given, computed when first read (lazy_property)
        if name == "probs":
            self.probs = softmax(self.__dict__["logits"], -1)
            return self.probs
        if name == "logits":
            p = self.__dict__["probs"]
            eps = float(np.finfo(p._data.dtype).eps)
            self.logits = p.clamp(min=eps, max=1 - eps).log()
            return self.logits
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def param_shape(self) -> Size:
        return self.probs.size() if "probs" in self.__dict__ else self.logits.size()

    @property
    def mean(self) -> Tensor:
        return factories.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        n = math.prod(_size(sample_shape))
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = sampling.multinomial(probs_2d, n, True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        value = value.long().unsqueeze(-1)
        value, log_pmf = _broadcast(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self) -> Tensor:
        logits = self.logits.clamp(min=float(np.finfo(self.logits._data.dtype).min))
        return -(logits * self.probs).sum(-1)


class Multinomial(Distribution):
    """Counts of ``total_count`` draws from a Categorical: ``sample`` draws ``total_count`` classes and counts them."""

    _constraints = (("probs", "Simplex()"), ("logits", "IndependentConstraint(Real(), 1)"))

    def __init__(
        self, total_count: int = 1, probs: Tensor | None = None, logits: Tensor | None = None, validate_args: Any = None
    ) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits, validate_args=validate_args)
        self._batch = self._categorical._batch
        self._event = (self._categorical._num_events,)

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        samples = self._categorical.sample((self.total_count, *_size(sample_shape)))
        order = list(range(samples.dim()))
        order.append(order.pop(0))
        samples = samples.permute(*order)
        counts = made(np.zeros(self._extended_shape(sample_shape), dtype=samples._data.dtype))
        counts.scatter_add_(-1, samples, factories.ones_like(samples))
        return counts.type_as(self.probs)


class Normal(Distribution):
    """The normal distribution of mean ``loc`` and standard deviation ``scale`` (numbers or tensors, broadcast)."""

    _constraints = (("loc", "Real()"), ("scale", "GreaterThan(lower_bound=0.0)"))

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self.loc, self.scale = _broadcast(_as_tensor(loc), _as_tensor(scale))
        self._batch = () if isinstance(loc, Real) and isinstance(scale, Real) else tuple(self.loc._data.shape)
        if validate_args is not False:
            self._check("scale", self.scale, bool((self.scale._data > 0).all()))

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        size = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return random_factories.normal(self.loc.expand(size), self.scale.expand(size))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        eps = random_factories.normal(0.0, 1.0, size=self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Tensor:
        var = self.scale**2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


__all__ = ["Categorical", "Distribution", "Multinomial", "Normal"]

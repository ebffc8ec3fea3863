"""Loss modules: ``MSELoss``, ``L1Loss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``, ``SmoothL1Loss``,
``HuberLoss``.

Example::

    >>> loss_fn = nn.MSELoss()
    >>> loss_fn(torch.tensor([1., 2.]), torch.tensor([0., 0.]))
    tensor(2.5000)
"""

from __future__ import annotations

from typing import Any

from engine.nn.module import Module
from engine.ops import nnops, robust_losses
from engine.tensor import Tensor


class _Loss(Module):
    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    """mean((input - target)²) (``reduction='sum'`` sums, ``'none'`` keeps every element)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.l1_loss(input, target, reduction=self.reduction)


class BCELoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.binary_cross_entropy(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """BCE on raw scores; ``weight`` (per element) and ``pos_weight`` (per class, on the positive term) are buffers."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(reduction=reduction)
        for name, value in (("weight", weight), ("pos_weight", pos_weight)):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' object to buffer '{name}' (torch Tensor or None required)"
                )
            self.register_buffer(name, value)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.binary_cross_entropy_with_logits(
            input, target, self.weight, reduction=self.reduction, pos_weight=self.pos_weight
        )


class NLLLoss(_Loss):
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        ignore_index: int = -100,
        reduce: Any = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(reduction=reduction)
        if weight is not None and not isinstance(weight, Tensor):  # PyTorch registers it as a buffer
            raise TypeError(
                f"cannot assign '{type(weight).__name__}' object to buffer 'weight' (torch Tensor or None required)"
            )
        self.ignore_index = ignore_index
        self.weight = weight

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class CrossEntropyLoss(NLLLoss):
    """log_softmax then NLL: the loss for classification from raw scores (logits)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: Any = None,
        ignore_index: int = -100,
        reduce: Any = None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, ignore_index, reduce, reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return nnops.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class SmoothL1Loss(_Loss):
    """½d²/β where |d| < β, |d| − ½β elsewhere (d = input − target)."""

    def __init__(
        self, size_average: Any = None, reduce: Any = None, reduction: str = "mean", beta: float = 1.0
    ) -> None:
        super().__init__(reduction=reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return robust_losses.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """½d² where |d| < δ, δ·(|d| − ½δ) elsewhere (d = input − target)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return robust_losses.huber_loss(input, target, reduction=self.reduction, delta=self.delta)

"""``torch.optim.lr_scheduler``: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``CosineAnnealingLR``,
``LambdaLR``, with PyTorch's recursive update rules (so printed learning rates match to the last digit).

Each scheduler, when created, records ``initial_lr`` in every param group (``print(optimizer)`` shows it, as in
PyTorch) and takes step 0; each ``step()`` then moves ``last_epoch`` on and writes the new ``lr`` into the groups.

Example::

    >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    >>> opt.step(); sched.step(); sched.get_last_lr()
    [0.1]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.optim import Optimizer
from engine.run_state import address_of, serial_hash


class LRScheduler:
    """Base class: ``base_lrs`` from the groups' ``initial_lr``, ``last_epoch``, ``step()`` and ``get_last_lr()``."""

    __hash__ = serial_hash

    def __repr__(self) -> str:
        kind = type(self)
        where = "torch.optim.lr_scheduler" if kind.__module__ == __name__ else kind.__module__
        return f"<{where}.{kind.__qualname__} object at {address_of(self)}>"

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group.setdefault("initial_lr", group["lr"])
        self.base_lrs: list[float] = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._initial = True
        self.step()
        self._initial = False

    def get_lr(self) -> list[float]:  # pragma: no cover - every scheduler defines it
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates the last ``step()`` set, one per param group."""
        return list(self._last_lr)

    def step(self) -> None:
        """Advance one epoch and write the new learning rates into the optimizer's groups."""
        self._step_count += 1
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def _current(self) -> list[float]:
        return [g["lr"] for g in self.optimizer.param_groups]


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each of the ``milestones`` epochs."""

    def __init__(self, optimizer: Optimizer, milestones: Any, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch not in self.milestones:
            return self._current()
        return [g["lr"] * self.gamma ** self.milestones[self.last_epoch] for g in self.optimizer.param_groups]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._initial:
            return self._current()
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]


class CosineAnnealingLR(LRScheduler):
    """Follow half a cosine from the base rate down to ``eta_min`` over ``T_max`` epochs (then back up)."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        groups, t, e = self.optimizer.param_groups, self.T_max, self.eta_min
        if self._initial:
            return self._current()
        if self._step_count == 1 and self.last_epoch > 0:
            return [e + (b - e) * (1 + math.cos(self.last_epoch * math.pi / t)) / 2 for b in self.base_lrs]
        if (self.last_epoch - 1 - t) % (2 * t) == 0:
            return [g["lr"] + (b - e) * (1 - math.cos(math.pi / t)) / 2 for b, g in zip(self.base_lrs, groups)]
        return [
            (1 + math.cos(math.pi * self.last_epoch / t))
            / (1 + math.cos(math.pi * (self.last_epoch - 1) / t))
            * (g["lr"] - e)
            + e
            for g in groups
        ]


class LambdaLR(LRScheduler):
    """The base rate times ``lr_lambda(epoch)`` (one function, or one per param group)."""

    def __init__(
        self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list[Any], last_epoch: int = -1
    ) -> None:
        n = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [b * fn(self.last_epoch) for fn, b in zip(self.lr_lambdas, self.base_lrs)]


__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LambdaLR"]

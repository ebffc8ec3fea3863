"""Float sums in PyTorch's order: the kernels live in ``engine.numerics.summation`` (this name stays for the ops
that import it)."""

from engine.numerics.summation import torch_mean, torch_sum

__all__ = ["torch_sum", "torch_mean"]

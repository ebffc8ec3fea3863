"""PyTorch 2.13's CPU numbers, bit for bit, in numpy: the order of its float sums, the FMA chains of MKL's matrix
products for the shapes courses use, MKL's sin/cos and SLEEF's exp/sigmoid. Pure functions on numpy arrays;
nothing here imports the rest of the engine. docs/NUMERICS.md tells what each kernel does and how that was found.

Each function returns None where PyTorch's order for that case is not known, so that the caller keeps its own.
"""

from engine.numerics.fma import fma32, fma64
from engine.numerics.matmul import addmm, dot, gemm, gemv_t
from engine.numerics.mkl_trig import cos, sin
from engine.numerics.sleef import expf, sigmoid
from engine.numerics.summation import torch_mean, torch_sum

__all__ = ["fma32", "fma64", "gemm", "gemv_t", "addmm", "dot", "sin", "cos", "expf", "sigmoid", "torch_sum",
           "torch_mean"]

"""PyTorch 2.13's CPU numbers, bit for bit, in numpy: the order of its float sums, the FMA chains of MKL's matrix
products for the shapes courses use, MKL's sin/cos/sqrt, SLEEF's exp/log/pow and the sigmoid and softmax kernels
built on them. Pure functions on numpy arrays;
nothing here imports the rest of the engine. docs/NUMERICS.md tells what each kernel does and how that was found.

Each function returns None where PyTorch's order for that case is not known, so that the caller keeps its own.
"""

from engine.numerics import mkl_vml
from engine.numerics.blas import one_thread
from engine.numerics.fma import fma32, fma64
from engine.numerics.matmul import addmm, dot, gemm, gemv_t, mv
from engine.numerics.mkl_sqrt import rsqrt14, sqrt
from engine.numerics.mkl_trig import cos, sin
from engine.numerics.pointwise import addcdiv, addcmul, lerp
from engine.numerics.sleef import expf, logf, sigmoid
from engine.numerics.sleef_pow import pow_scalar, pow_tensors, powf
from engine.numerics.softmax import (
    EXACT_MAX_ELEMENTS,
    lastdim_f32,
    log_softmax_backward_lastdim,
    log_softmax_lastdim,
    row_sums,
    softmax_backward_lastdim,
    softmax_lastdim,
)
from engine.numerics.summation import torch_mean, torch_sum

one_thread()  # numpy's BLAS sums in one order in every process (engine/numerics/blas.py)

__all__ = [
    "mkl_vml",
    "fma32",
    "fma64",
    "addcmul",
    "addcdiv",
    "lerp",
    "gemm",
    "gemv_t",
    "mv",
    "addmm",
    "dot",
    "sin",
    "cos",
    "sqrt",
    "rsqrt14",
    "expf",
    "logf",
    "sigmoid",
    "powf",
    "pow_scalar",
    "pow_tensors",
    "row_sums",
    "EXACT_MAX_ELEMENTS",
    "lastdim_f32",
    "softmax_lastdim",
    "log_softmax_lastdim",
    "softmax_backward_lastdim",
    "log_softmax_backward_lastdim",
    "torch_sum",
    "torch_mean",
]

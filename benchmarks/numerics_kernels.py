"""Time each ``engine.numerics`` kernel against numpy's plain version of the same operation (which gives other
last bits), on course-sized inputs, and print the ratios. Run: ``.venv/bin/python benchmarks/numerics_kernels.py``.
Figures are the best of interleaved rounds, so that a noisy neighbour hits both sides alike."""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import numerics

F32 = np.float32


def _cases() -> list[tuple[str, Callable[[], object], Callable[[], object]]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(2000).astype(F32)
    xx = rng.standard_normal((2000, 3)).astype(F32)
    w = rng.standard_normal((3, 1)).astype(F32)
    a = rng.standard_normal((64, 10)).astype(F32)
    b = rng.standard_normal((10, 32)).astype(F32)
    g = rng.standard_normal((64, 3)).astype(F32)
    pos = np.abs(x)
    return [
        ("sum of 2,000", lambda: numerics.torch_sum(x, None, False), lambda: x.sum()),
        ("sum(0) of 2000x3", lambda: numerics.torch_sum(xx, (0,), False), lambda: xx.sum(0)),
        ("2000x3 @ 3x1 (Linear(3,1))", lambda: numerics.gemm(xx, w), lambda: xx @ w),
        ("64x10 @ 10x32", lambda: numerics.gemm(a, b), lambda: a @ b),
        ("gT @ x: 3x64 @ 64x10", lambda: numerics.gemm(g.T, a), lambda: g.T @ a),
        ("dot of 2,000", lambda: numerics.dot(x, x), lambda: np.dot(x, x)),
        ("sin of 2,000", lambda: numerics.sin(x), lambda: np.sin(x)),
        ("sigmoid of 2,000", lambda: numerics.sigmoid(x), lambda: 1 / (1 + np.exp(-x))),
        ("sqrt of 2,000", lambda: numerics.sqrt(pos), lambda: np.sqrt(pos)),
        (
            "log_softmax 64x10",
            lambda: numerics.log_softmax_lastdim(a),
            lambda: a - a.max(1, keepdims=True) - np.log(np.exp(a - a.max(1, keepdims=True)).sum(1, keepdims=True)),
        ),
        ("addcmul of 2,000", lambda: numerics.addcmul(x, x, x, 0.001), lambda: x + F32(0.001) * x * x),
    ]


def main() -> None:
    print(f"{'kernel':30s} {'numerics':>10s} {'numpy':>9s} {'ratio':>7s}")
    for name, ours, plain in _cases():
        t_ours, t_plain = [], []
        for _ in range(7):
            t_ours.append(timeit.timeit(ours, number=100) / 100)
            t_plain.append(timeit.timeit(plain, number=100) / 100)
        a, b = min(t_ours) * 1e6, min(t_plain) * 1e6
        print(f"{name:30s} {a:8.1f}us {b:7.1f}us {a / b:6.1f}x")


if __name__ == "__main__":
    main()

"""numpy's own BLAS (OpenBLAS) on one thread, set once when the engine's numerics load.

The engine's float64 products (the numpy stand-in's ``x.dot(w1)``, ``np.matmul``) and the float32 products no
kernel of ``engine.numerics`` models go to numpy's OpenBLAS, whose sums split between its threads in an order that
depends on the thread count: the "Learning PyTorch with Examples" numpy net prints ``14019258.774463903`` on one
thread and ``…905`` on two. One thread is what the corpus's truth and the modelled MKL orders are measured with
(tests/realcourse/make_truth.py), it is the same in every worker whatever ran before, and with one worker per core
it is also the faster (a 64x1000 @ 1000x100 float64 product: 0.29 ms on one thread against 0.39 ms on two, here).
Only OpenBLAS is limited: torch's MKL and OpenMP, loaded beside the engine in tests, keep their own settings.
"""

from __future__ import annotations

from threadpoolctl import ThreadpoolController


def one_thread() -> None:
    """Put every loaded OpenBLAS on one thread (numpy loads its BLAS on import, before this runs)."""
    ThreadpoolController().select(internal_api="openblas").limit(limits=1)

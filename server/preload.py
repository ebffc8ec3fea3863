"""Imported once by the pool's forkserver (``server/isolation.py``): loads the engine and runs a small program, so
that its per-process tables (the facade's members, printing) are filled before any worker is forked. Every worker
then starts warm and shares those pages with the others. The forkserver's objects are then frozen out of garbage
collection (``gc.freeze``), once: a worker forked from it need not collect them again, which would touch, and so
copy, every page it shares."""

from __future__ import annotations

import gc

import engine
import server.worker  # noqa: F401  (what each worker runs)

WARM_UP = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"

engine.run(WARM_UP)
gc.collect()
gc.freeze()

"""Imported once by the pool's forkserver (``server/isolation.py``): loads the engine and runs a small program, so
that its per-process tables (the facade's members, printing) are filled before any worker is forked. Every worker
then starts warm and shares those pages with the others."""

from __future__ import annotations

import engine
import server.worker  # noqa: F401  (what each worker runs)

WARM_UP = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n(x ** 2).sum().backward()\nprint(x.grad)\n"

engine.run(WARM_UP)

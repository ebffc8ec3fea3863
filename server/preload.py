"""Imported once by the pool's forkserver (``server/isolation.py``): loads the engine and runs a small program, so
that its per-process tables (the facade's members, printing) are filled before any worker is forked. Every worker
then starts warm and shares those pages with the others. The forkserver's objects are then frozen out of garbage
collection (``gc.freeze``), once: a worker forked from it need not collect them again, which would touch, and so
copy, every page it shares."""

from __future__ import annotations

import gc

import engine
import server.gradient  # /api/grad's encoder, named in its runs (see below)
import server.worker  # noqa: F401  (what each worker runs)

# Every module a run's task names (its function, its ``encode``) is imported here, never by the worker: a worker
# unpickles its next task while it holds the pool's one task lock (pebble), so a first ``/api/grad`` run that imported
# server.gradient (pydantic, the schemas: 0.35 s, seconds on a busy machine) held every idle worker, and every
# student's run, that long, in each fresh worker (measured: 0.5-4.5 s waits for the lock under benchmarks/load.py).

# Touches what fills per-process tables on first use: printing, the exact float kernels (engine/numerics: sums of
# several lengths, products, sqrt, sin/cos, exp/log, softmax), an optimizer, a module and a loop (folding), so
# that a worker's first real run does not pay ~0.5 s of start-up that its time limit counts.
WARM_UP = """\
import torch
import math
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000, requires_grad=True)
y = torch.sin(x) + torch.cos(x) * x ** 2
loss = (y - x).pow(2).sum() + y.mean()
loss.backward()
m = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for i in range(4):
    opt.zero_grad()
    out = m(torch.randn(16, 3))
    l = torch.nn.functional.cross_entropy(out, torch.tensor([0, 1] * 8)) + out.sigmoid().sum().sqrt()
    l.backward()
    opt.step()
print(x.grad[:2], l.item(), out.softmax(1).log()[0], torch.exp(out).tanh().sum())
"""

result = engine.run(WARM_UP, seed=0)
assert result.error is None, result.error  # a warm-up that fails warms nothing: say so at start-up
gc.collect()
gc.freeze()

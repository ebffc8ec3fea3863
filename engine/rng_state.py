"""``torch.get_rng_state()`` / ``torch.set_rng_state(state)``: save and restore the run's random stream.

The state is a uint8 tensor of PyTorch's size (5056 bytes) holding the Mersenne Twister's 624 words, its position,
the cached normal and the seed; restoring it replays the same numbers. (Its bytes are not laid out as PyTorch's.)

Example::

    >>> s = torch.get_rng_state(); a = torch.rand(2); torch.set_rng_state(s); torch.equal(a, torch.rand(2))
    True
"""

from __future__ import annotations

import numpy as np

from engine import random
from engine.ops.operands import made
from engine.tensor import Tensor

STATE_BYTES = 5056


def get_rng_state() -> Tensor:
    """The run's generator state as a uint8 tensor."""
    gen = random.generator()
    _, key, pos, _, _ = gen._rs.get_state()
    buf = np.zeros(STATE_BYTES, dtype=np.uint8)
    buf[:2496] = np.asarray(key, dtype="<u4").view(np.uint8)
    buf[2496:2500] = np.asarray([pos], dtype="<u4").view(np.uint8)
    nxt = gen._next_normal
    buf[2500] = 0 if nxt is None else 1
    buf[2504:2512] = np.asarray([0.0 if nxt is None else nxt], dtype="<f8").view(np.uint8)
    buf[2512:2520] = np.asarray([gen._seed], dtype="<u8").view(np.uint8)
    return made(buf)


def set_rng_state(new_state: Tensor) -> None:
    """Restore a state ``get_rng_state()`` returned."""
    buf = new_state._data
    if buf.dtype != np.uint8 or buf.size != STATE_BYTES:
        raise RuntimeError("Expected either a ByteTensor of size 5056 or a uint8 tensor of that size")
    gen = random.generator()
    key = buf[:2496].copy().view("<u4").astype(np.uint32)
    pos = int(buf[2496:2500].copy().view("<u4")[0])
    gen._rs.set_state(("MT19937", key, pos, 0, 0.0))
    gen._next_normal = float(buf[2504:2512].copy().view("<f8")[0]) if buf[2500] else None
    gen._seed = int(buf[2512:2520].copy().view("<u8")[0])


__all__ = ["get_rng_state", "set_rng_state"]

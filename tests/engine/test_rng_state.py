"""engine/rng_state.py: a saved state replays the same numbers (scalar normals, vectorised normals, uniforms)."""

from __future__ import annotations

from engine.facade import make_modules
from engine.run_state import RunState, use_state


def test_state_round_trip_replays_the_stream() -> None:
    with use_state(RunState()):
        T = make_modules()["torch"]
        T.manual_seed(3)
        T.randn(1)  # leaves a cached normal behind
        state = T.get_rng_state()
        first = [T.randn(1).tolist(), T.randn(20).tolist(), T.rand(5).tolist(), T.randint(0, 9, (4,)).tolist()]
        T.set_rng_state(state)
        again = [T.randn(1).tolist(), T.randn(20).tolist(), T.rand(5).tolist(), T.randint(0, 9, (4,)).tolist()]
        assert first == again
        assert tuple(state.shape) == (5056,) and str(state.dtype) == "torch.uint8"

"""Real PyTorch as the oracle: run trusted test code (never user input) with torch and capture what it prints."""

from __future__ import annotations

import contextlib
import io

import torch


def torch_stdout(code: str, seed: int | None = None) -> str:
    """What ``code`` prints under real PyTorch 2.13 (optionally after ``torch.manual_seed(seed)``)."""
    if seed is not None:
        torch.manual_seed(seed)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, "<lesson>", "exec"), {"__name__": "__lesson__"})  # trusted test code only
    return buffer.getvalue()

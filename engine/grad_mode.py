"""Grad mode: ``torch.no_grad()``, ``enable_grad()``, ``set_grad_enabled(mode)``, per run (``state().grad_enabled``).

Example::

    >>> with torch.no_grad():
    ...     y = x * 2          # no graph is recorded: y.requires_grad is False
"""

from __future__ import annotations

from typing import Any

from engine.arg_errors import must_be
from engine.run_state import state


class no_grad:
    """``with torch.no_grad():`` ops inside record no graph (results have ``requires_grad=False``)."""

    def __init__(self) -> None:
        self._prev: list[bool] = []

    def __enter__(self) -> None:
        st = state()
        self._prev.append(st.grad_enabled)
        st.grad_enabled = False

    def __exit__(self, *exc: object) -> None:
        state().grad_enabled = self._prev.pop()

    def __call__(self, fn: Any) -> Any:
        """``@torch.no_grad()`` on a function: run every call of it in this grad mode."""
        mode = type(self)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with mode() if mode is not set_grad_enabled else set_grad_enabled(self._mode):  # type: ignore[attr-defined]
                return fn(*args, **kwargs)

        return wrapper

    def __repr__(self) -> str:
        return "<torch.autograd.grad_mode.no_grad object>"


class enable_grad(no_grad):
    """``with torch.enable_grad():`` turn graph recording back on inside a ``no_grad`` block."""

    def __enter__(self) -> None:
        st = state()
        self._prev.append(st.grad_enabled)
        st.grad_enabled = True

    def __repr__(self) -> str:
        return "<torch.autograd.grad_mode.enable_grad object>"


class set_grad_enabled(no_grad):
    """``torch.set_grad_enabled(False)`` as a call or a ``with`` block."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise must_be("set_grad_enabled", "enabled", 1, "bool", mode)
        super().__init__()
        st = state()
        self._prev.append(st.grad_enabled)
        st.grad_enabled = bool(mode)
        self._mode = bool(mode)

    def __enter__(self) -> None:
        state().grad_enabled = self._mode

    def __exit__(self, *exc: object) -> None:
        state().grad_enabled = self._prev.pop() if self._prev else True

    def __repr__(self) -> str:
        return "<torch.autograd.grad_mode.set_grad_enabled object>"


def is_grad_enabled() -> bool:
    """``torch.is_grad_enabled()``."""
    return state().grad_enabled

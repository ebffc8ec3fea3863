"""gradtrace's engine: a numpy autograd engine with PyTorch's semantics, and the safe run of user code on it.

Example::

    >>> import engine
    >>> code = "import torch\\nx = torch.tensor(2.0, requires_grad=True)\\n(x ** 2).backward()\\nprint(x.grad)"
    >>> engine.run(code).stdout
    'tensor(4.)\\n'
"""

from __future__ import annotations

from typing import Any

__all__ = ["run", "RunResult"]


def __getattr__(name: str) -> Any:
    if name in ("run", "RunResult"):
        # lazy: importing engine.tensor & co. (which loads this package first) must not load the interpreter
        from engine import runner

        return getattr(runner, name)
    raise AttributeError(name)

"""The sandbox's ``os``: only what touches nothing, so that a tutorial's ``import os`` (or its ``os.path.join`` of a
file name) runs. ``os.path``'s string functions (``join``, ``basename``, ``dirname``, ``split``, ``splitext``,
``normpath``, ``isabs``) and the constants ``sep``, ``linesep``, ``name``; everything else of the real module (files,
processes, the environment, the working directory) is refused by name.

Example::

    >>> make_os(Budget()).path.join("data", "mnist")
    'data/mnist'
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from engine.sandbox.budget import Budget
from engine.sandbox.errors import NotSupported
from engine.sandbox.policy import SafeNamespace

_PATH = ("join", "basename", "dirname", "split", "splitext", "normpath", "isabs")


class ClosedModule(SafeNamespace):
    """A facade of a module of which only some names are here: the others are refused, not missing."""

    def __getattr__(self, name: str) -> Any:  # only called for a missing name
        module = self.__dict__.get("_gt_name", "?")
        raise NotSupported(
            f"'{module}.{name}' is not available (module 'os' is not available here beyond os.path's string "
            "functions, os.sep and os.linesep)"
        )


def _bounded(fn: Callable[..., Any], name: str, budget: Budget) -> Callable[..., Any]:
    def checked(*parts: Any) -> Any:
        budget.check_length(str, sum(len(p) for p in parts if isinstance(p, str)) + len(parts))
        return fn(*parts)

    checked.__name__ = checked.__qualname__ = name
    return checked


def make_os(budget: Budget) -> SafeNamespace:
    """A fresh ``os`` for one run."""
    path = ClosedModule("os.path", {name: _bounded(getattr(posixpath, name), name, budget) for name in _PATH})
    path.__dict__["sep"] = "/"
    return ClosedModule("os", {"path": path, "sep": "/", "linesep": "\n", "name": "posix"})

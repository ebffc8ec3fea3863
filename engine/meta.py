"""Small value types around tensors: ``Size`` (a shape), ``device`` (only the CPU here) and the handle
``register_hook`` returns.

Example::

    >>> torch.ones(2, 3).shape
    torch.Size([2, 3])
"""

from __future__ import annotations

from typing import Any


class Size(tuple):  # type: ignore[type-arg]
    """A tensor's shape: a tuple printed as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class device:  # noqa: N801 - PyTorch's spelling
    """The only device here: ``cpu`` (``torch.device("cpu")``)."""

    type = "cpu"
    index = None

    def __new__(cls, spec: Any = "cpu", index: Any = None) -> "device":
        name = str(spec)
        if name.split(":")[0] != "cpu":
            raise RuntimeError(f"{name.split(':')[0].upper()} is not available here: gradtrace runs on the CPU")
        return CPU if "CPU" in globals() else super().__new__(cls)

    def __repr__(self) -> str:
        return "device(type='cpu')"

    def __str__(self) -> str:
        return "cpu"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) or other == "cpu"

    def __hash__(self) -> int:
        return hash("cpu")


CPU = device()


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {hex(id(self))}>"

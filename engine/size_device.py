"""Small value types around tensors: ``Size`` (a shape), ``device`` (tensors live on the CPU only) and the handle
``register_hook`` returns.

Example::

    >>> torch.ones(2, 3).shape
    torch.Size([2, 3])
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from engine.run_state import address_of, serial_hash, state


class Size(tuple):  # type: ignore[type-arg]
    """A tensor's shape: a tuple printed as ``torch.Size([2, 3])``; immutable, as a tuple (no attributes either)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


_DEVICE_TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)


class device:
    """A device name such as ``torch.device("cpu")`` or ``torch.device("cuda", 0)``; tensors live on the CPU only.
    Read-only, as PyTorch's (``torch.device("cpu")`` is one object shared by every run)."""

    __slots__ = ("type", "index")
    type: str
    index: int | None

    def __new__(cls, spec: Any = "cpu", index: Any = None) -> device:
        if isinstance(spec, device):
            return spec
        name = str(spec)
        if not re.fullmatch(r"[a-zA-Z_]+(:([1-9][0-9]*|0))?", name):
            raise RuntimeError(f"Invalid device string: '{name}'")
        kind, _, number = name.partition(":")
        if kind not in _DEVICE_TYPES:
            raise RuntimeError(
                f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: {name}"
            )
        if kind == "cpu" and "CPU" in globals() and not number and index is None:
            return CPU
        made = super().__new__(cls)
        object.__setattr__(made, "type", kind)
        object.__setattr__(made, "index", int(number) if number.isdigit() else index)
        return made

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (device, (str(self),))

    def __repr__(self) -> str:
        return (
            f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"
        )

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:  # the same in every process (a str's hash is not: PYTHONHASHSEED)
        return zlib.crc32(str(self).encode())

    def __enter__(self) -> device:
        """``with torch.device("meta"):``: tensors made inside without a ``device=`` are made on this device."""
        state().default_device.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        stack = state().default_device
        if stack:
            stack.pop()


def check_device(spec: Any, meta: bool = False) -> bool:
    """Whether a tensor made with ``device=spec`` lives on the meta device (``spec`` None: the run's default
    device); refuse any other device but the CPU, as PyTorch's CPU build does (``device="cuda"``, ``.cuda()``).
    Callers that can make meta tensors say so with ``meta=True``; the others refuse the meta device too."""
    if spec is None:
        stack = state().default_device
        if not stack or stack[-1].type != "meta":
            return False
        spec = stack[-1]
    if type(spec) is int:  # a device index: an accelerator's
        raise RuntimeError("Cannot access accelerator device when none is available.")
    kind = device(spec).type
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if kind == "meta" and meta:
        return True
    if kind == "meta":
        raise NotImplementedError("gradtrace's engine cannot make this on the meta device")
    if kind != "cpu":
        raise RuntimeError(f"device '{kind}' is not available here: gradtrace runs on the CPU")
    return False


CPU = device()
META = device("meta")


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {address_of(self)}>"

    __hash__ = serial_hash

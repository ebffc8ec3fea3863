"""What a run may learn about object identity, made of the run alone: addresses in texts, hashes and set order.

A run is a pure function of its code and its seed, so nothing it sees may come from where the process put an object
in memory, or from the process's string-hash secret. Engine and user objects number themselves from the run's own
counter (``engine.run_state.serial_of``): their reprs show ``0x7f3a5c000010``-style addresses and they hash by that
number. What is left is caught here: a text holding a real address (``<function relu at 0x7fe1e94319e0>``) gets the
run's stand-in for it and marks the run as having read the machine; so does a set whose iteration order depends on
the process (strings unless ``PYTHONHASHSEED=0``, objects hashed by address).

Example::

    >>> scrub("<function relu at 0x7fe1e94319e0>")     # inside a run
    '<function relu at 0x7f3a5c000010>'
"""

from __future__ import annotations

import re
import sys
from typing import Any

from engine.dtypes import dtype
from engine.ndarray import DType, Scalar
from engine.run_state import ADDRESS_BASE, address_of, read_the_machine, serial_hash, serial_of_address, state
from engine.sandbox.typeview import torch_class_names
from engine.size_device import device

_ADDRESS = re.compile(r" at 0x([0-9a-f]{9,16})>")  # CPython's repr of an address: 12 hex digits on Linux
# Strings hash alike in two processes only when both were started with PYTHONHASHSEED=0, the one setting the
# interpreter itself reports (sys.flags; os.environ may have changed since the start, and says nothing for sure).
_FIXED_STR_HASH = sys.flags.hash_randomization == 0
# Hashes made of the value, or of the run's numbering: the same in every process. (Not None's: before Python 3.12
# it is its address, and that moves with the binary.)
_PLAIN_HASHES = {
    int.__hash__,
    float.__hash__,
    bool.__hash__,
    complex.__hash__,
    serial_hash,
    dtype.__hash__,
    device.__hash__,
    Scalar.__hash__,  # numpy's scalars hash as the numbers they hold (engine/ndarray)
    DType.__hash__,
} - {object.__hash__}
if _FIXED_STR_HASH:
    _PLAIN_HASHES |= {str.__hash__, bytes.__hash__}


def _stand_in(match: re.Match[str]) -> str:
    value = int(match.group(1), 16)
    st = state()
    if ADDRESS_BASE < value <= ADDRESS_BASE + 16 * st.serials and value % 16 == 0:
        return match.group(0)  # one of the run's own
    read_the_machine("a text showed a memory address")
    return f" at 0x{ADDRESS_BASE + 16 * serial_of_address(value):x}>"


PLAIN_TEXT = frozenset((str, int, float, bool, type(None)))  # values whose text never holds an address


def scrub(text: str) -> str:
    """``text`` with every real memory address replaced by the run's stand-in for it, and an engine class shown
    inside a container (``(type(a), type(t))``) named as PyTorch names it (``<class 'torch.Tensor'>``)."""
    if "<class 'engine." in text:
        text = torch_class_names(text)
    if " at 0x" not in text:
        return text
    return _ADDRESS.sub(_stand_in, text)


def _order_is_the_runs(items: Any) -> bool:
    """Do these items hash alike in every process? Tuples (``torch.Size`` too) as their items, walked without
    recursion; a float NaN hashes by its address (Python 3.10+)."""
    todo = list(items)
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind.__hash__ in _PLAIN_HASHES:
            if (kind is float or kind is complex) and item != item:
                return False
        elif kind.__hash__ is tuple.__hash__ or kind is frozenset:
            todo.extend(item)
        elif not _runs_own_hash(kind.__hash__):
            return False
    return True


def _runs_own_hash(method: Any) -> bool:
    """A ``__hash__`` the learner wrote (run by the interpreter: what it hashes goes through the run's ``hash``,
    which notes a string-hash secret) or one the run's facades made that checks what it hashes (``@dataclass``)."""
    return type(method).__name__ == "UserFunction" or getattr(method, "gt_run_hash", False) is True


def hashes_alike(items: Any) -> bool:
    """Do these values hash alike in every process (so that ``hash()`` of them is the run's own)?"""
    return _order_is_the_runs(items)


def check_set(items: Any) -> Any:
    """A set the run built (a display, a comprehension, ``set(...)``, ``a | b``): if its iteration order depends
    on the process rather than on the run, note that the run read the machine. Returns ``items``."""
    if items and state().machine is None:
        kinds = set(map(type, items))  # at C speed: a set of a million ints costs ~15 ms more to build
        steady = (
            _order_is_the_runs(items)
            if float in kinds or complex in kinds  # a NaN among them?
            else all(k.__hash__ in _PLAIN_HASHES for k in kinds) or _order_is_the_runs(items)
        )
        if not steady:
            read_the_machine("the order of a set depended on memory addresses or the string-hash secret")
    return items


class PlainObject:
    """What the sandbox's ``object()`` makes: a bare object, printed and hashed by the run's numbering."""

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:
        return f"<object object at {address_of(self)}>"

    __hash__ = serial_hash


PlainObject.__module__ = "builtins"
PlainObject.__qualname__ = PlainObject.__name__ = "object"

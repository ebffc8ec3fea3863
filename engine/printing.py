"""PyTorch's tensor printing (a port of ``torch/_tensor_str.py`` with its default options).

Example::

    >>> torch.tensor([1., 2.5])
    tensor([1.0000, 2.5000])
    >>> torch.tensor(16.)
    tensor(16.)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import dtypes
from engine.meta import is_meta
from engine.run_state import state

if TYPE_CHECKING:  # pragma: no cover
    from engine.tensor import Tensor


class PrintOptions:
    """``torch.set_printoptions``: digits after the point, how many elements before summarizing, edge items shown
    when summarizing, line width, and scientific notation forced on/off (None: PyTorch decides)."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(
        self,
        precision: int = 4,
        threshold: float = 1000,
        edgeitems: int = 3,
        linewidth: int = 80,
        sci_mode: bool | None = None,
    ) -> None:
        self.precision, self.threshold, self.edgeitems = precision, threshold, edgeitems
        self.linewidth, self.sci_mode = linewidth, sci_mode


_DEFAULT = PrintOptions()
PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def _opts() -> PrintOptions:
    return state().print_options or _DEFAULT


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """``torch.set_printoptions(precision=2)``: change how this run prints tensors (as PyTorch: options left
    out keep their value, except ``sci_mode``, which goes back to automatic unless given)."""
    st = state()
    old = st.print_options or _DEFAULT
    new = PrintOptions(old.precision, old.threshold, old.edgeitems, old.linewidth, sci_mode)
    if profile is not None:
        new.precision, new.threshold, new.edgeitems, new.linewidth = PROFILES[profile]
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            setattr(new, name, value)
    st.print_options = new


_FEW = 256  # values a formatter measures in Python rather than in numpy


class _Formatter:
    """Decides one width and style (integer-valued, fixed or scientific) for all the values of a tensor."""

    def __init__(self, values: np.ndarray) -> None:
        self._init(values)

    def _init(self, values: np.ndarray) -> None:
        PRECISION = _opts().precision
        self.floating_dtype = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating_dtype:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(f"{v}"))
            return
        if flat.size <= _FEW:  # the same values in Python: a handful of numpy calls cost more than the loop
            vals = [v for v in flat.tolist() if v != 0 and v - v == 0]  # finite, non-zero (inf - inf is nan)
            if not vals:
                return
            mn, mx = min(map(abs, vals)), max(map(abs, vals))
        else:
            nz = flat[np.isfinite(flat) & (flat != 0)]
            if nz.size == 0:
                return
            vals = nz.tolist()  # exact values as Python floats (float32 -> double is exact)
            absd = np.abs(nz.astype(np.float64))
            mn, mx = float(absd.min()), float(absd.max())
        for v in vals:
            if v != math.ceil(v):
                self.int_mode = False
                break
        forced = _opts().sci_mode
        self.sci_mode = (mx / mn > 1000.0 or mx > 1.0e8 or mn < 1.0e-4) if forced is None else bool(forced)
        if self.int_mode:
            if self.sci_mode:
                for v in vals:
                    self.max_width = max(self.max_width, len(f"{v:.{PRECISION}e}"))
            else:
                for v in vals:
                    self.max_width = max(self.max_width, len(f"{v:.0f}") + 1)
        elif self.sci_mode:
            for v in vals:
                self.max_width = max(self.max_width, len(f"{v:.{PRECISION}e}"))
        else:
            for v in vals:
                self.max_width = max(self.max_width, len(f"{v:.{PRECISION}f}"))

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        PRECISION = _opts().precision
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRECISION}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRECISION}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _vector_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    EDGEITEMS, LINEWIDTH = _opts().edgeitems, _opts().linewidth
    element_length = fmt.width() + 2
    per_line = max(1, math.floor((LINEWIDTH - indent) / element_length))
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        data = (
            [fmt.format(v) for v in a[:EDGEITEMS].tolist()]
            + [" ..."]
            + [fmt.format(v) for v in a[-EDGEITEMS:].tolist()]
        )
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    EDGEITEMS = _opts().edgeitems
    dim = a.ndim
    if dim == 0:
        return fmt.format(a.item())
    if dim == 1:
        return _vector_str(a, indent, summarize, fmt)
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        slices = (
            [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)]
            + ["..."]
            + [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(len(a) - EDGEITEMS, len(a))]
        )
    else:
        slices = [_tensor_str_with_formatter(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized(a: np.ndarray) -> np.ndarray:
    """Only the values that will be shown (edge items), so that they alone decide the format."""
    EDGEITEMS = _opts().edgeitems
    if a.ndim == 0:
        return a
    if EDGEITEMS > 0:  # the same selection in one numpy call, not one call per shown row (2**19 of them)
        picked = [np.r_[0:EDGEITEMS, n - EDGEITEMS : n] if n > 2 * EDGEITEMS else np.arange(n) for n in a.shape]
        shown: np.ndarray = a[np.ix_(*picked)]
        return shown
    if a.ndim == 1:
        return np.concatenate((a[:EDGEITEMS], a[-EDGEITEMS:])) if a.shape[0] > 2 * EDGEITEMS else a
    if a.shape[0] > 2 * EDGEITEMS:
        parts = [a[i] for i in range(EDGEITEMS)] + [a[i] for i in range(len(a) - EDGEITEMS, len(a))]
    else:
        parts = [a[i] for i in range(a.shape[0])]
    return np.stack([_summarized(p) for p in parts])


def text_length(a: np.ndarray) -> int:
    """At least the characters of the values printed for a tensor holding ``a`` (known before any work on them):
    what ``str`` is refused by, and what the sandbox counts for a tensor inside a printed list."""
    if a.size == 0:
        return 2
    opts = _opts()
    e = opts.edgeitems
    summarize = a.size > opts.threshold
    shown_size = math.prod(2 * e if summarize and n > 2 * e else n for n in a.shape) if e > 0 else a.size
    return shown_size * (3 + (opts.precision if a.dtype.kind == "f" else 0))


def _tensor_str(a: np.ndarray, indent: int) -> str:
    if a.size == 0:
        return "[]"
    opts = _opts()
    summarize = a.size > opts.threshold
    if a.dtype == np.float16:
        a = a.astype(np.float32)
    length = text_length(a)
    _check_text(length, steps=length // 3)  # before any work on the values
    shown = _summarized(a) if summarize else a
    fmt = _Formatter(shown)
    return _tensor_str_with_formatter(a, indent, summarize, fmt)


def _check_text(length: int, steps: int = 0) -> None:
    """Ask the run's budget (if any) whether a text of at least ``length`` characters may be built: with
    ``set_printoptions(threshold=...)``/``precision=`` raised, a print could take seconds or gigabytes. Formatting
    costs ``steps`` too (~2.4 us a value: str() of a tensor in a loop ends at the step limit)."""
    budget = state().budget
    if budget is not None and hasattr(budget, "check_length"):
        budget.check_length(str, length)
        if steps and hasattr(budget, "charge"):
            budget.charge(steps)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    LINEWIDTH = _opts().linewidth
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _shape_str(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def tensor_repr(t: Tensor) -> str:
    """``repr(t)`` / ``str(t)`` exactly as PyTorch writes it."""
    a = t._data
    prefix = "tensor("
    indent = len(prefix)
    suffixes: list[str] = []
    dt = dtypes.from_numpy(a.dtype)
    has_default_dtype = dt in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool_)
    if is_meta(a):  # no elements to show: the device, the size, and the dtype unless it is the default float
        suffixes.append("device='meta'")
        suffixes.append("size=" + _shape_str(a.shape))
        if dt is not dtypes.get_default_dtype():
            suffixes.append("dtype=" + str(dt))
        body = "..."
    elif a.size == 0:
        if a.ndim != 1:
            suffixes.append("size=" + _shape_str(a.shape))
        if dt is not dtypes.get_default_dtype():
            suffixes.append("dtype=" + str(dt))
        body = "[]"
    else:
        if not has_default_dtype:
            suffixes.append("dtype=" + str(dt))
        body = _tensor_str(a, indent)
    grad_fn = t._grad_fn
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(grad_fn).__name__}>")
    elif t._requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)

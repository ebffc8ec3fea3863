"""``Module.load_state_dict``: copy a state dict's values into a module's parameters and buffers, with PyTorch's
checks (missing and unexpected keys, sizes) and its answer (``<All keys matched successfully>``).

Example::

    >>> model.load_state_dict(other.state_dict())
    <All keys matched successfully>
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.tensor import Tensor


class IncompatibleKeys(NamedTuple):
    """What ``load_state_dict`` returns: ``<All keys matched successfully>`` when nothing is missing or extra."""

    missing_keys: list[str]
    unexpected_keys: list[str]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"


def load_state(self: Any, state_dict: dict[str, Tensor], strict: bool = True) -> IncompatibleKeys:
    """Copy the values of ``state_dict`` into this module's parameters; report keys missing or unexpected."""
    if not isinstance(state_dict, dict):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    own = dict(self._state_items())
    missing = [k for k in own if k not in state_dict]
    unexpected = [k for k in state_dict if k not in own]
    errors = []
    for name, param in own.items():
        value = state_dict.get(name)
        if name not in state_dict or param is None:
            continue
        if not isinstance(value, Tensor):
            errors.append(
                f'While copying the parameter named "{name}", expected torch.Tensor or Tensor-like '
                f"object from checkpoint but received {type(value)}"
            )
        elif value._data.shape != param._data.shape:
            errors.append(
                f"size mismatch for {name}: copying a param with shape {value.shape} from checkpoint, "
                f"the shape in current model is {param.shape}."
            )
        else:
            param._data[...] = value._data
    if strict and unexpected:
        errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
    if strict and missing:
        errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
    if errors:
        raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
    return IncompatibleKeys(missing, unexpected)

"""The trace recorder: engine observer calls in, JSON-ready trace events out.

Example::

    >>> from engine.trace import Recorder
    >>> rec = Recorder(on_event=print)
"""

from engine.trace.recorder import Recorder
from engine.trace.values import to_values

__all__ = ["Recorder", "to_values"]

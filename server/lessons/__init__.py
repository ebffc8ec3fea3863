"""The built-in lessons: verbatim code blocks of the course page, shared by the site (GET /api/examples) and the tests.

Example::

    >>> from server.lessons import LESSONS
    >>> LESSONS[0].id
    'scalar_backward'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Lesson:
    """One runnable lesson: an id (its file's stem), a title and the code."""

    id: str
    title: str

    @cached_property
    def code(self) -> str:
        return (_HERE / f"{self.id}.py").read_text(encoding="utf-8")


LESSONS: tuple[Lesson, ...] = (
    Lesson("scalar_backward", "Scalar backward — the standard case"),
    Lesson("accumulation", "Accumulation — why zero_grad exists"),
    Lesson("gradient_accumulation", "Gradient accumulation — bigger batch on a smaller GPU"),
)

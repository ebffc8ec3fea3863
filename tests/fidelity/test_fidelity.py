"""Every snippet in ``snippets/`` prints exactly what PyTorch 2.13 prints and fails as PyTorch fails."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.fidelity.harness import Snippet, load_snippets, run_engine, run_torch

SNIPPETS = load_snippets()
CATEGORIES = ("seed", "basics", "printing", "nonscalar", "errors", "control", "training", "rng")


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.id for s in SNIPPETS])
def test_snippet_matches_pytorch(snippet: Snippet) -> None:
    expected = run_torch(snippet.code)
    got = run_engine(snippet.code)
    assert got.stdout == expected.stdout
    assert got.error == expected.error


def test_suite_size_and_categories() -> None:
    counts = Counter(s.category for s in SNIPPETS)
    assert set(counts) == set(CATEGORIES)
    assert sum(counts.values()) >= 200
    assert len({s.id for s in SNIPPETS}) == len(SNIPPETS), "snippet names are unique within a category"

"""Values are written like tolist(), JSON-safe, large arrays summarized."""

from __future__ import annotations

import json

import numpy as np

from engine.trace import to_values


def test_scalars_and_lists_like_tolist() -> None:
    assert to_values(np.array(2.0, dtype=np.float32)) == 2.0
    assert to_values(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert to_values(np.array([True, False])) == [True, False]
    assert to_values(None) is None
    assert type(to_values(np.array(3, dtype=np.int64))) is int


def test_non_finite_values_become_strings() -> None:
    values = to_values(np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32))
    assert values == [1.0, "nan", "inf", "-inf"]
    assert to_values(np.array(np.nan)) == "nan"
    json.dumps(values, allow_nan=False)


def test_large_arrays_are_summarized() -> None:
    a = np.arange(2000, dtype=np.float32).reshape(40, 50)
    a[0, 0] = np.inf
    s = to_values(a)
    assert s["summarized"] is True and s["shape"] == [40, 50]
    assert s["min"] == 1.0 and s["max"] == "inf" and s["mean"] == "inf"
    assert s["first"][:3] == ["inf", 1.0, 2.0] and len(s["first"]) == 10
    json.dumps(s, allow_nan=False)


def test_exactly_1000_elements_are_kept() -> None:
    assert len(to_values(np.zeros(1000))) == 1000

"""Settings (server/settings.py): every budget of a run can be set from the environment, and the README lists it."""

from __future__ import annotations

import dataclasses

import pytest

from engine.sandbox import Limits
from server.settings import REPO_ROOT, Settings


def test_every_budget_of_a_run_has_a_setting_with_the_same_default() -> None:
    assert Settings().limits() == Limits()


def test_every_budget_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    names = {field.name: f"GRADTRACE_{field.name.upper()}" for field in dataclasses.fields(Settings().limits())}
    names["max_depth"] = "GRADTRACE_MAX_CALL_DEPTH"
    names["max_resident_growth"] = "GRADTRACE_MAX_RESIDENT_GROWTH_MB"
    for field, variable in names.items():
        monkeypatch.setenv(variable, "7")
        value = getattr(Settings().limits(), field)
        assert value == (7 * 2**20 if variable.endswith("_MB") else 7), variable
        assert f"`{variable}`" in readme, f"{variable} is not in the README"
        monkeypatch.delenv(variable)

"""The pending settings are still pending, and documented (the ratchet of settings_names.PENDING); the ones that
were pending are read now."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.settings_names import PENDING, setting_names

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(PENDING))
def test_a_pending_setting_is_not_read_yet_and_is_documented(name: str) -> None:
    assert name not in setting_names(), (
        f"the server reads {name} now: take it out of PENDING in tests/deploy/settings_names.py and rename "
        "its pending tests to test_*.py"
    )
    assert name in (ROOT / "docs" / "SCALE-OUT.md").read_text()


def test_the_shared_store_setting_is_read_now() -> None:
    assert "GRADTRACE_REDIS_URL" in setting_names() and not PENDING

"""The pending settings are still pending, and documented (the ratchet of settings_names.PENDING); the ones that
were pending are read now."""

from __future__ import annotations

from tests.deploy.settings_names import PENDING, setting_names


def test_the_shared_store_setting_is_read_now() -> None:
    assert "GRADTRACE_REDIS_URL" in setting_names() and not PENDING

"""Fixtures of the deployment tests: the stack of tests/deploy/stack.py, once per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.deploy.stack import Stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Redis, two api replicas and nginx in front, for the tests of one module."""
    with Stack.start(tmp_path_factory.mktemp("stack")) as started:
        yield started

"""Fixtures of the engine and provider tests."""
from __future__ import annotations

import pytest

from tests.support.provider_clients import close_opened as close_all_opened


@pytest.fixture
async def close_opened():
    """Closes the provider clients a test opened through ``tests.support.provider_clients.opened``."""
    yield
    await close_all_opened()

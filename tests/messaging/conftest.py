"""A router whose drops land in a list the test reads (``drops``), as the engine's callback will emit them;
``reasons`` reads a list of drops as (reason, message id) pairs."""
import pytest

from runtime.messaging import Drop, MessageRouter


@pytest.fixture
def drops() -> list[Drop]:
    return []


@pytest.fixture
def router(drops) -> MessageRouter:
    return MessageRouter(on_drop=drops.append)


@pytest.fixture
def reasons():
    """(reason, message id) of each drop in a list, in the order they were reported."""
    return lambda drops: [(d.reason.value, d.message.id) for d in drops]

import pytest
from django.contrib.auth import get_user_model

from accounts.tokens import create_token


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("owner", password="owner-pass-123")


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("stranger", password="stranger-pass-123")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger):
    from django.test import Client

    c = Client()
    c.force_login(stranger)
    return c


@pytest.fixture
def owner_token(owner):
    return create_token(owner, "tests")

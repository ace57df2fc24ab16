"""Credentials that belong to a user: personal API tokens and provider keys.

The tables keep the names they had when these models lived in ``runtime``
(moved with a state-only migration, so no data was copied).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A personal API token. Only its hash is kept; the token is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "runtime_apitoken"


class ProviderKey(models.Model):
    """A user's API key for a provider, encrypted at rest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider_keys")
    provider = models.CharField(max_length=40)
    base_url = models.CharField(max_length=300, blank=True, default="")
    encrypted_key = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "runtime_providerkey"
        constraints = [models.UniqueConstraint(fields=["user", "provider"], name="unique_user_provider_key")]

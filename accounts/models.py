"""Who may do what: API tokens, provider keys, workspaces and their members, invitations, the audit log.

The tables keep the names they had when these models lived in ``runtime``
(moved with a state-only migration, so no data was copied).
"""
from __future__ import annotations

from typing import ClassVar

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

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix})"


class ProviderKey(models.Model):
    """A workspace's API key for a provider, encrypted at rest; ``user`` is who stored it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider_keys")
    workspace = models.ForeignKey("Workspace", on_delete=models.CASCADE, related_name="provider_keys")
    provider = models.CharField(max_length=40)
    base_url = models.CharField(max_length=300, blank=True, default="")
    encrypted_key = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "runtime_providerkey"
        constraints = (models.UniqueConstraint(fields=["workspace", "provider"], name="unique_workspace_provider_key"),)

    def __str__(self) -> str:
        return f"{self.provider} key of workspace {self.workspace_id}"


class Role(models.TextChoices):
    """What a member may do in a workspace; each role can do everything the ones below it can."""

    OWNER = "owner"    # everything, including deleting the workspace and handing it over
    ADMIN = "admin"    # members, invitations, keys, limits, the audit log
    EDITOR = "editor"  # design and run
    RUNNER = "runner"  # run and watch, not edit
    VIEWER = "viewer"  # watch, read, export


class Workspace(models.Model):
    """Where workflows, runs and provider keys live. Every user has a personal one; teams share others."""

    name = models.CharField(max_length=100)
    personal_for = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                        related_name="personal_workspace")
    # The server's own provider keys (OPENAI_API_KEY ...) are spent only where the server's owner grants them.
    server_keys = models.BooleanField(default=False)
    # Per-workspace limits set by admins; null means no limit.
    max_concurrent_runs = models.PositiveIntegerField(null=True, blank=True)
    max_runs_per_day = models.PositiveIntegerField(null=True, blank=True)
    max_tokens_per_day = models.PositiveBigIntegerField(null=True, blank=True)
    max_cost_usd_per_day = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["workspace", "user"], name="unique_workspace_member"),)

    def __str__(self) -> str:
        return f"user {self.user_id} in workspace {self.workspace_id} as {self.role}"


class Invitation(models.Model):
    """A single-use, expiring link to join the server (and a workspace, with a role). Only its hash is kept."""

    digest = models.CharField(max_length=64, unique=True)
    email = models.CharField(max_length=254, blank=True, default="")
    workspace = models.ForeignKey(Workspace, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.EDITOR)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="invitations_sent")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="invitations_used")

    def __str__(self) -> str:
        return f"invitation {self.pk} for {self.email or 'anyone'}"


class AuditEntry(models.Model):
    """One thing someone did in a workspace: sign-ins, invitations, role changes, key use, runs, controls."""

    workspace = models.ForeignKey(Workspace, null=True, blank=True, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The actor's name as it was, so the log still reads after the account is gone.
    actor_name = models.CharField(max_length=150, blank=True, default="")
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        indexes = (models.Index(fields=["workspace", "-id"]),)

    def __str__(self) -> str:
        return f"{self.actor_name or 'someone'}: {self.action}"


class McpServer(models.Model):
    """A user's own MCP tool server: a stdio command (run in each run's sandbox) or a streamable-HTTP URL.

    Its HTTP headers and its command's environment may hold tokens: they are encrypted like provider keys and
    only their names are ever shown. ``tools`` is what the last successful check listed (name, description,
    input schema), for the editor's tool picker and the validator.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mcp_servers")
    name = models.CharField(max_length=40)
    kind = models.CharField(max_length=10, choices=[("stdio", "stdio"), ("http", "http")])
    command = models.CharField(max_length=500, blank=True, default="")
    args = models.JSONField(default=list, blank=True)
    url = models.CharField(max_length=500, blank=True, default="")
    encrypted_headers = models.TextField(blank=True, default="")
    encrypted_env = models.TextField(blank=True, default="")
    secret_names = models.JSONField(default=list, blank=True)   # the header (or variable) names, never values
    tools = models.JSONField(default=list, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    check_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["user", "name"], name="unique_user_mcp_server_name"),)
        ordering: ClassVar[list[str]] = ["name"]

    def __str__(self) -> str:
        return self.name


class TraceSettings(models.Model):
    """A workspace's own OpenTelemetry traces (runtime/live/tracing.py): where its runs' spans go and where its run
    pages link them. No row: the server's (``mode`` "server", no template of its own).

    The headers (a collector's ``Authorization``, say) are encrypted like provider keys; only their names are kept
    in the clear, to be shown.
    """

    class Mode(models.TextChoices):
        SERVER = "server"  # the server's collector (OTEL_EXPORTER_OTLP_*), when it has one
        OWN = "own"        # this workspace's endpoint, with its headers
        OFF = "off"        # no traces of this workspace's runs

    workspace = models.OneToOneField(Workspace, primary_key=True, on_delete=models.CASCADE, related_name="trace_settings")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.SERVER)
    endpoint = models.CharField(max_length=500, blank=True, default="")
    encrypted_headers = models.TextField(blank=True, default="")
    header_names = models.JSONField(default=list, blank=True)   # never the values
    link_template = models.CharField(max_length=500, blank=True, default="")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"traces of workspace {self.workspace_id}: {self.mode}"

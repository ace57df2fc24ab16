"""What an MCP server is, as a run needs it: a stdio command or a streamable-HTTP URL, checked in words.

Administrators list servers in ``MCP_SERVERS`` (JSON); users register theirs on
their account (:mod:`accounts.mcp_servers`). Both end up as
:class:`ServerConfig`. Secrets (an HTTP server's headers, a stdio server's
environment) travel only inside this object: nothing here is ever put in an
event, a log line or an export, and what a server says (its stderr, in a
failure) is stored only with them redacted (:attr:`ServerConfig.secret_values`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

STDIO, HTTP = "stdio", "http"
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
NAME_RULE = "1 to 40 letters, digits, '_' or '-'"


class ConfigError(ValueError):
    """A server entry that cannot be used, said in words."""


@dataclass(frozen=True)
class ServerConfig:
    name: str
    kind: str                                   # STDIO or HTTP
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    owner: str = "admin"                        # "admin" (trusted: any URL) or "user" (public addresses only)
    known_tools: tuple[dict, ...] = ()          # {name, description} from the last successful check, if any

    @property
    def public_only(self) -> bool:
        return self.owner != "admin"

    @property
    def secret_values(self) -> tuple[str, ...]:
        """Its ``env`` and ``headers`` values: what no message about it may show (:mod:`common.redact`)."""
        return (*self.env.values(), *self.headers.values())


def _strings(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"{what} must be an object of strings")
    return dict(value)


def parse(entry: Any, *, owner: str = "admin") -> ServerConfig:
    """One ``{"name", "command", "args", "env"}`` or ``{"name", "url", "headers"}`` entry, or ConfigError."""
    if not isinstance(entry, dict):
        raise ConfigError("each MCP server must be an object with a name and a command or a url")
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError(f"MCP server name {name!r} is not valid ({NAME_RULE})")
    command, url = entry.get("command"), entry.get("url")
    if bool(command) == bool(url):
        raise ConfigError(f"MCP server '{name}' needs exactly one of `command` (stdio) or `url` (streamable HTTP)")
    if command:
        args = entry.get("args") or []
        if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise ConfigError(f"MCP server '{name}': `command` must be a string and `args` a list of strings")
        return ServerConfig(name, STDIO, command=command, args=tuple(args),
                            env=_strings(entry.get("env"), f"MCP server '{name}': `env`"), owner=owner)
    if not isinstance(url, str) or not re.match(r"^https?://[^/\s]+", url):
        raise ConfigError(f"MCP server '{name}': `url` must be an http:// or https:// URL")
    return ServerConfig(name, HTTP, url=url, headers=_strings(entry.get("headers"), f"MCP server '{name}': `headers`"),
                        owner=owner)


def parse_all(entries: Any, *, owner: str = "admin") -> list[ServerConfig]:
    """A list of entries; a repeated name is an error (each server's name is its tools' prefix)."""
    if entries in (None, ""):
        return []
    if not isinstance(entries, list):
        raise ConfigError("MCP_SERVERS must be a JSON list of servers")
    servers = [parse(entry, owner=owner) for entry in entries]
    seen: set[str] = set()
    for server in servers:
        if server.name in seen:
            raise ConfigError(f"two MCP servers are named '{server.name}'")
        seen.add(server.name)
    return servers


@dataclass
class McpOptions:
    """What the deployment decides for MCP servers (settings)."""

    start_timeout: float = 30.0          # MCP_START_TIMEOUT
    call_timeout: float = 60.0           # MCP_CALL_TIMEOUT
    allow_private: bool = False          # MCP_URLS_ALLOW_PRIVATE: users' URLs may reach loopback/private hosts
    sandbox_paths: tuple[str, ...] = ()  # MCP_SANDBOX_PATHS
    # The deployment's secrets (deployment.options): redacted, beside each server's own, from what servers say.
    hidden: tuple[str, ...] = field(default=(), repr=False)

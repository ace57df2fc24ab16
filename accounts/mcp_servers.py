"""Users' own MCP tool servers: stored, listed without their secrets, checked, and handed to runs.

An HTTP server's headers (tokens) and a stdio server's environment are
encrypted with the provider keys' Fernet key; what is shown is only their
names. A user's URL must reach public addresses only, the provider URLs' rule
(``MCP_URLS_ALLOW_PRIVATE`` lifts it), checked when saved and again by the
runtime at every connection.

Connecting is the runtime's job, so the check calls the function named by
``settings.MCP_CHECKER`` (a dotted path, like Django's backends): accounts
never imports the runtime. It takes an entry (``{"name", "command", "args",
"env"}`` or ``{"name", "url", "headers"}``) and whose it is (``owner``:
"user" or "admin", whose URLs may reach any address), and answers the listed
tools, or raises with the reason in words.

That reason may quote the server's stderr, which may print its own
environment: it is kept as the server's ``check_error`` (and shown) only with
every secret value the server could know redacted (:func:`hidden_for`) and cut
at CHECK_ERROR_LIMIT characters, saying how many more there were.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.module_loading import import_string

from accounts.models import McpServer
from accounts.provider_keys import PROVIDERS_WITH_KEYS, decrypt_values, encrypt_values
from common.addresses import AddressRefused, check_public_url
from common.errors import BadRequest
from common.redact import redact, scrub

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_SERVERS = 20
MAX_SECRETS = 20
ADMIN_TOOLS_TTL = 600        # seconds the administrator's servers' tool lists are fresh (a failed listing: 60)
ADMIN_FAILED_TTL = 60
ADMIN_TOOLS_KEPT = 7 * 86400  # seconds an old list is still served while a fresh one is being made
CHECK_ERROR_LIMIT = 2000     # characters of a check's error that are kept (the rest is counted)




ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Variables that make a program run code, or load files, of the value's choosing before (or instead of) what it
# was asked to run: the dynamic loader's (LD_*, and glibc's list of variables it ignores in setuid programs),
# glibc's allocator's, and the shells' start-up files and options. A stdio server's environment reaches programs
# on the host that start the sandbox (prlimit, bubblewrap) and the bash that starts the server: through these a
# user could run code there, outside the sandbox. Variables a language reads (PYTHONPATH, NODE_OPTIONS, PERL5OPT,
# ...) are allowed: only the server's own interpreter, inside the sandbox, reads them, and it runs the user's own
# command, which can do anything those could.
DENIED_ENV_PREFIXES = ("LD_", "MALLOC_", "BASH_FUNC_", "DYLD_")
DENIED_ENV_NAMES = frozenset({
    "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "NIS_PATH", "NLSPATH",
    "RESOLV_HOST_CONF", "RES_OPTIONS", "TZDIR",     # glibc: unsafe for setuid programs, so unsafe here
    "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "BASH_XTRACEFD",    # a shell's start-up: files run, tracing
})


def env_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be in a stdio server's environment, in words naming it (None: it can)."""
    if not ENV_NAME.match(name):
        return f"{name!r} is not a variable name (letters, digits and '_', not starting with a digit)"
    if name in DENIED_ENV_NAMES or name.startswith(DENIED_ENV_PREFIXES):
        return (f"{name!r} is not allowed: it makes the loader or the shell that start the server run code or "
                "load files of its choosing")
    return None


def _strings(value: Any, what: str) -> dict[str, str]:
    if value in (None, {}):
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and k and isinstance(v, str)
                                              for k, v in value.items()):
        raise BadRequest(f"{what} must be an object of non-empty names to strings")
    if len(value) > MAX_SECRETS:
        raise BadRequest(f"{what}: at most {MAX_SECRETS} entries")
    return dict(value)


def admin_names() -> set[str]:
    return {str(entry.get("name")) for entry in settings.MCP_SERVERS if isinstance(entry, dict)}


def secret_values(entry: dict) -> list[str]:
    """An entry's ``env`` and ``headers`` values (a user's decrypted by :func:`entry`, or an administrator's)."""
    return [str(value) for what in ("env", "headers") if isinstance(entry.get(what), dict)
            for value in entry[what].values()]


def deployment_secrets() -> list[str]:
    """What no MCP server's words may show, whoever's server it is: the keys that protect stored secrets
    (``SECRET_KEY``, ``PROVIDER_KEYS_SECRET``), the deployment's provider API keys and the administrator's servers'
    ``env`` and header values. A sandboxed server sees none of them; one started with ``AGENT_SANDBOX=off`` runs as
    the app's own user, and may read them where the app keeps them."""
    found = [str(getattr(settings, name, "") or "") for name in ("SECRET_KEY", "PROVIDER_KEYS_SECRET")]
    found += [str(getattr(settings, f"{provider.upper()}_API_KEY", "") or "") for provider in PROVIDERS_WITH_KEYS]
    for server in settings.MCP_SERVERS:
        if isinstance(server, dict):
            found += secret_values(server)
    return [value for value in found if value]


def hidden_for(server_entry: dict) -> list[str]:
    """What a check's error about this server may not show: its own secrets, and the deployment's."""
    return [*secret_values(server_entry), *deployment_secrets()]


def describe(server: McpServer) -> dict:
    """What the API shows: everything but the secrets' values."""
    return {"id": server.id, "name": server.name, "kind": server.kind, "command": server.command,
            "args": list(server.args or []), "url": server.url,
            ("header_names" if server.kind == "http" else "env_names"): list(server.secret_names or []),
            "tools": [{"name": t.get("name"), "description": t.get("description", "")} for t in server.tools or []],
            "checked_at": server.checked_at.isoformat() if server.checked_at else None,
            "check_error": _shown_error(server)}


def _shown_error(server: McpServer) -> str | None:
    """The last check's error; one stored before errors were redacted (already cut at CHECK_ERROR_LIMIT then) is
    redacted as it is shown."""
    if not server.check_error:
        return None
    return redact(server.check_error, hidden_for(entry(server)))


def list_for(user: User) -> list[dict]:
    admin = [{"name": str(e.get("name")), "kind": "http" if e.get("url") else "stdio", "admin": True}
             for e in settings.MCP_SERVERS if isinstance(e, dict)]
    return [describe(s) for s in McpServer.objects.filter(user=user)] + admin


def create(user: User, *, name: str, command: str = "", args: list[str] | None = None, env: Any = None, url: str = "",
           headers: Any = None) -> McpServer:
    if not NAME.match(name or ""):
        raise BadRequest("name: 1 to 40 letters, digits, '_' or '-' (it prefixes the server's tools when names clash)")
    if bool(command) == bool(url):
        raise BadRequest("give exactly one of `command` (a stdio server) or `url` (a streamable-HTTP server)")
    if name in admin_names():
        raise BadRequest(f"name: '{name}' is the name of a server the administrator provides; choose another")
    if McpServer.objects.filter(user=user, name=name).exists():
        raise BadRequest(f"name: you already have an MCP server named '{name}'", status=409)
    if McpServer.objects.filter(user=user).count() >= MAX_SERVERS:
        raise BadRequest(f"you have {MAX_SERVERS} MCP servers already; delete one first")
    if url:
        if not re.match(r"^https?://[^/\s]+", url):
            raise BadRequest("url: must be an http:// or https:// URL")
        if not settings.MCP_URLS_ALLOW_PRIVATE:
            try:
                check_public_url(url)
            except AddressRefused as exc:
                raise BadRequest(f"url: {exc}; only public addresses are allowed (an administrator can allow "
                                 "private ones with MCP_URLS_ALLOW_PRIVATE=1)") from None
        secrets = _strings(headers, "headers")
        return McpServer.objects.create(user=user, name=name, kind="http", url=url,
                                        encrypted_headers=encrypt_values(secrets), secret_names=sorted(secrets))
    if not isinstance(args or [], list) or not all(isinstance(a, str) for a in args or []):
        raise BadRequest("args: must be a list of strings")
    secrets = _strings(env, "env")
    for variable in secrets:
        if problem := env_name_problem(variable):
            raise BadRequest(f"env: {problem}")
    return McpServer.objects.create(user=user, name=name, kind="stdio", command=command, args=list(args or []),
                                    encrypted_env=encrypt_values(secrets), secret_names=sorted(secrets))


def get(user: User, server_id: int) -> McpServer:
    found = McpServer.objects.filter(user=user, pk=server_id).first()
    if found is None:
        raise BadRequest(f"no MCP server {server_id} of yours", status=404)
    return found


def delete(user: User, server_id: int) -> None:
    get(user, server_id).delete()


def entry(server: McpServer) -> dict:
    """The server as the runtime reads it, secrets decrypted (never shown, logged or stored elsewhere)."""
    if server.kind == "http":
        # A secret changed since they were stored: the server is used without them, and its calls say it is refused.
        return {"name": server.name, "url": server.url, "headers": decrypt_values(server.encrypted_headers)}
    return {"name": server.name, "command": server.command, "args": list(server.args or []),
            "env": decrypt_values(server.encrypted_env)}


def entries_for(user_id: int) -> list[tuple[dict, list[dict]]]:
    """A run owner's servers for a run: (entry, tools known from the last check)."""
    return [(entry(s), list(s.tools or [])) for s in McpServer.objects.filter(user_id=user_id)]


def check(user: User, server_id: int) -> dict:
    """Connect to the server and list its tools; the list is kept for the editor (or the error, in words)."""
    server = get(user, server_id)
    checked = entry(server)
    try:
        tools = import_string(settings.MCP_CHECKER)(checked, owner="user")
    except Exception as exc:  # the checker says why in words; whatever it is, the answer is a clear error
        # Those words may quote the server's stderr: stored and shown only without any secret it could know.
        server.check_error = scrub(str(exc), hidden_for(checked), CHECK_ERROR_LIMIT) or exc.__class__.__name__
        server.save(update_fields=["check_error"])
        return {"ok": False, "error": server.check_error, "server": describe(server)}
    server.tools = [{"name": t["name"], "description": t.get("description", ""),
                     "input_schema": t.get("input_schema") or {"type": "object"}} for t in tools]
    server.checked_at = timezone.now()
    server.check_error = ""
    server.save(update_fields=["tools", "checked_at", "check_error"])
    return {"ok": True, "error": None, "server": describe(server)}


def _admin_key(server: dict) -> str:
    return "mcp-admin-tools:" + hashlib.sha256(json.dumps(server, sort_keys=True).encode()).hexdigest()


def _list_admin(server: dict, key: str, lock: str) -> list[dict]:
    """Connect to one administrator's server, keep what it lists (or, failing, nothing for a minute); free the lock."""
    try:
        try:
            tools = [{"name": t["name"], "description": t.get("description", "")}
                     for t in import_string(settings.MCP_CHECKER)(server, owner="admin")]
            fresh_for = ADMIN_TOOLS_TTL
        except Exception:  # a server down now: its tools are unknown until it answers again
            tools, fresh_for = [], ADMIN_FAILED_TTL
        cache.set(key, {"tools": tools, "until": time.time() + fresh_for}, ADMIN_TOOLS_KEPT)
        return tools
    finally:
        cache.delete(lock)


def _admin_tools(server: dict) -> list[dict]:
    """One administrator's server's tools from the cache. Only the caller that takes the server's lock (an atomic
    ``cache.add``, across processes with Redis) connects: when nothing is known yet it lists the tools itself and
    the others wait for it; when what is known is old, it is served as it is while a thread lists anew."""
    key = _admin_key(server)
    known = cache.get(key)
    if known is not None and known["until"] > time.time():
        return known["tools"]
    lock = key + ":listing"
    if cache.add(lock, 1, timeout=int(settings.MCP_START_TIMEOUT) + 30):
        if known is None:
            return _list_admin(server, key, lock)
        threading.Thread(target=_list_admin, args=(server, key, lock), name="mcp-admin-tools", daemon=True).start()
        return known["tools"]
    deadline = time.monotonic() + settings.MCP_START_TIMEOUT + 5
    while known is None and time.monotonic() < deadline and cache.get(lock) is not None:
        time.sleep(0.1)  # another request is listing them right now: its answer, not a second server
        known = cache.get(key)
    known = known or cache.get(key)
    return known["tools"] if known is not None else []


def admin_catalogue() -> list[dict]:
    """The administrator's servers' tools (``{"name", "description", "server"}``), listed by connecting to them
    at most every ADMIN_TOOLS_TTL seconds (they have no check button); a server that fails is left out a minute.
    One listing at a time per server, whoever asks: see :func:`_admin_tools`."""
    out = []
    for server in settings.MCP_SERVERS:
        if isinstance(server, dict):
            out += [{**tool, "server": str(server.get("name"))} for tool in _admin_tools(server)]
    return out


def tool_catalogue(user: User | AnonymousUser | None, *, admin: bool = True) -> list[dict]:
    """The MCP tools a run of ``user`` would have, as known now: the administrator's servers' (listed, cached),
    then the user's own from their last successful check. ``{"name", "description", "server"}``, MCP names.

    Nobody signed in gets none: listing the administrator's servers starts their processes or connects to them,
    which no anonymous request may cause."""
    if user is None or not user.is_authenticated:
        return []
    found = admin_catalogue() if admin else []
    taken = {t["server"] for t in found}
    for server in McpServer.objects.filter(user=user).exclude(checked_at=None):
        if server.name in taken:
            continue
        for tool in server.tools or []:
            found.append({"name": str(tool.get("name")), "description": str(tool.get("description") or ""),
                          "server": server.name})
    return found

"""Provider failures in words: what went wrong and what to do about it.

A run that fails on its provider shows this text; it names the provider, the
HTTP status when there was one, and the fix (a key, a model name, a wait).
"""
from __future__ import annotations

from runtime.providers import catalog

ACCOUNT = "your account page (/account/)"


def label(name: str) -> str:
    return "The simulated provider" if name == "simulated" else catalog.label(name)


def missing_key(name: str, *, workspace_name: str = "", workspace_id: int | None = None, personal: bool = True,
                server_has_it: bool = False) -> str:
    """No key for ``name`` where the run would be; the fix named for that place (runtime.providers.keys.why_missing)."""
    where = f" in workspace {workspace_name!r}" if workspace_name and not personal else ""
    store = (f"add one on {ACCOUNT}" if personal or workspace_id is None
             else f"add one in the workspace's settings (/workspaces/{workspace_id})")
    if server_has_it:
        return (f"No {label(name)} API key{where}: {store}, or ask the server's owner to grant this workspace the "
                f"server's keys (the server has one; it is not granted here).")
    return (f"No {label(name)} API key{where}: {store}, or ask the administrator to set "
            f"{catalog.key_settings(name)} for the server.")


def api_error(name: str, status: int, message: str) -> str:
    who = label(name)
    detail = f"({status}: {message})" if message else f"({status})"
    text = message.lower()
    if status in (401, 403) or "api key not valid" in text or "security token included in the request is invalid" in text:
        return f"{who} refused the API key {detail}. Check the key on {ACCOUNT}."
    if status == 429:
        return f"{who} is rate limiting this key {detail}. Wait a little and run again, or lower the loop's concurrency."
    if status == 404 or ("model" in text and ("not found" in text or "does not exist" in text or "unknown" in text
                                            or "identifier is invalid" in text)):
        return f"{who} does not know this model {detail}. Check the model name on the agent, the step or the run dialog."
    if status >= 500:
        return f"{who} had a server error {detail}; the step's retries may help, or run again later."
    return f"{who} API error {detail}."


def redirected(name: str, status: int, where: str | None) -> str:
    """A 3xx answer, never followed: the base URL must be the address that answers."""
    said = f"to {where}" if where else "without saying where to"
    return (f"{label(name)} answered with a redirect ({status}) {said}; redirects are not followed: give its final "
            f"address as the base URL on {ACCOUNT} (or in {catalog.url_settings(name)}).")


def unreachable(name: str, detail: str) -> str:
    return (f"Cannot reach {label(name)}: {detail}. Check the base URL on {ACCOUNT} "
            f"(or the server's network and {catalog.url_settings(name)}).")

"""The account page's MCP server forms: lines typed in text areas parsed into what accounts.mcp_servers takes.

The service is the one judge of a server (names, URLs, duplicates); these forms only turn "NAME=value" and
"Name: value" lines into dicts and put the service's refusal next to the field it names. A variable the service
refuses (accounts.mcp_servers.env_name_problem) is named with its line, by the service's own rule.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from django import forms

from accounts import mcp_servers
from common.errors import BadRequest

MAX_LINES = 100
SECRET_FIELDS = ("env", "headers")  # written once, never rendered back (not even after a refused submit)
_ENV_NAME = mcp_servers.ENV_NAME
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP token (RFC 9110)


def _lines(text: str) -> list[tuple[int, str]]:
    found = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(found) > MAX_LINES:
        raise forms.ValidationError(f"at most {MAX_LINES} lines")
    return found


def _pairs(text: str, separator: str, name_rule: re.Pattern, example: str,
           name_problem: Callable[[str], str | None] = lambda name: None) -> dict[str, str]:
    out: dict[str, str] = {}
    for number, line in _lines(text):
        name, found, value = line.partition(separator)
        name, value = name.strip(), value.strip()
        if not found or not name_rule.match(name):
            raise forms.ValidationError(f"line {number}: write one {example} per line")
        if problem := name_problem(name):
            raise forms.ValidationError(f"line {number}: {problem}")
        if not value:
            raise forms.ValidationError(f"line {number}: '{name}' has no value")
        if name in out:
            raise forms.ValidationError(f"line {number}: '{name}' is given twice")
        out[name] = value
    return out


class McpStdioForm(forms.Form):
    name = forms.CharField(max_length=40)
    command = forms.CharField(max_length=500)
    args = forms.CharField(required=False, widget=forms.Textarea, max_length=20000)
    env = forms.CharField(required=False, widget=forms.Textarea, max_length=20000)

    def clean_args(self) -> list[str]:
        return [line for _, line in _lines(self.cleaned_data["args"])]

    def clean_env(self) -> dict[str, str]:
        return _pairs(self.cleaned_data["env"], "=", _ENV_NAME, "NAME=value", mcp_servers.env_name_problem)


class McpHttpForm(forms.Form):
    name = forms.CharField(max_length=40)
    url = forms.CharField(max_length=500)
    headers = forms.CharField(required=False, widget=forms.Textarea, max_length=20000)

    def clean_headers(self) -> dict[str, str]:
        return _pairs(self.cleaned_data["headers"], ":", _HEADER_NAME, "Name: value")


def refused(form: forms.Form, exc: BadRequest) -> None:
    """The service's refusal, next to the field it starts with ("url: ...") or above the form."""
    message = str(exc)
    field, _, rest = message.partition(": ")
    if field in form.fields and rest:
        form.add_error(field, rest)
    else:
        form.add_error(None, message)

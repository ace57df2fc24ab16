"""Shared pieces of the document commands: reading inputs, printing diagnostics."""
from __future__ import annotations

import sys
from pathlib import Path

from designer.diagnostics import Diagnostic


class InputError(Exception):
    """A path that cannot be read (exit code 2)."""


def read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None


def format_diagnostic(path: str, diagnostic: Diagnostic) -> str:
    where = path
    if diagnostic.line is not None:
        where += f":{diagnostic.line}:{diagnostic.column}"
    text = f"{where}: {diagnostic.severity} [{diagnostic.code}] {diagnostic.message}"
    if diagnostic.path:
        text += f" (at {diagnostic.path})"
    if diagnostic.hint:
        text += f"\n    hint: {diagnostic.hint}"
    return text

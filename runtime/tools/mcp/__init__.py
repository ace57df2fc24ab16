"""MCP tool servers: their tools become a run's tools, beside the built-in ones.

:mod:`.config` says what a server is (administrators' ``MCP_SERVERS`` and
users' own) and the deployment's options, :mod:`.launch` how a stdio server
starts in the run's sandbox, :mod:`.client` one connection over the official
``mcp`` SDK, :mod:`.servers` a run's servers (started at run start, tools named
with the ``<server>__<tool>`` prefix rule on collisions, stopped at run end)
and :mod:`.deployment` what the settings and the run owner's account give.

Only :mod:`.config` is light: the SDK takes about a second to import, so the
modules that use it are imported where a run or a check has servers to start.
"""
from runtime.tools.mcp.config import HTTP, STDIO, ConfigError, McpOptions, ServerConfig, parse, parse_all

__all__ = ["HTTP", "STDIO", "ConfigError", "McpOptions", "ServerConfig", "parse", "parse_all"]

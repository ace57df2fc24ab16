"""The run's shared memory: string values under ``agent/key``, as upstream zenflow keeps them.

An agent writes only under its own name (``shared_memory_write`` by agent ``auditor`` with key
``found`` stores ``auditor/found``) and reads any fully qualified key (``shared_memory_read``). A
``/`` in an agent's name becomes ``_``, so no agent can write into another's namespace. A later
write replaces the value. :meth:`SharedMemory.snapshot` / :meth:`SharedMemory.restore` carry the
entries through a checkpoint as a plain dict.
"""
from __future__ import annotations


class SharedMemory:
    """Namespaced key-value strings shared by a run's agents."""

    def __init__(self) -> None:
        self._entries: dict[str, str] = {}

    @staticmethod
    def qualified(agent: str, key: str) -> str:
        """The key an agent's write lands under: ``<agent>/<key>``, a ``/`` in the agent's name made ``_``."""
        return f"{agent.replace('/', '_')}/{key}"

    def write(self, agent: str, key: str, value: str) -> str:
        """Store ``value`` under ``agent``'s namespace; returns the tool's answer (``written: <agent>/<key>``)."""
        name = self.qualified(agent, key)
        self._entries[name] = value
        return f"written: {name}"

    def read(self, key: str) -> str | None:
        """The value under a fully qualified ``key`` (any agent's), or None when nothing was written there."""
        return self._entries.get(key)

    def answer(self, key: str) -> str:
        """``shared_memory_read``'s answer: the value itself, or a sentence saying the key holds nothing."""
        value = self.read(key)
        if value is not None:
            return value
        return f'not found: nothing is stored under "{key}" (keys are written as <agent>/<key>)'

    def snapshot(self) -> dict[str, str]:
        """Every entry, for a checkpoint (a copy)."""
        return dict(self._entries)

    def restore(self, entries: object) -> None:
        """Load a :meth:`snapshot` (entries written since are kept unless the snapshot has them too)."""
        if not isinstance(entries, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in entries.items()):
            raise ValueError("a shared memory snapshot must map `agent/key` strings to string values")
        self._entries.update(entries)

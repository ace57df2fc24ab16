"""Messages between a run's step agents and its coordinator, and the agents' shared memory.

Plain Python with no Django and no engine: the engine owns one :class:`MessageRouter` and one
:class:`SharedMemory` per run and drives them. Hub and spoke, as upstream zenflow's runner does it:
a step's mailbox opens when its agent starts (:meth:`MessageRouter.open`) and closes when the step
ends (:meth:`MessageRouter.close`); the agent drains it at the start of every model turn
(:meth:`MessageRouter.drain`). Steps send only to the coordinator (inbox ``coordinator``); the
coordinator forwards to a step by its id, bare (``worker``) or namespaced (``loop.0.worker``).
A message that cannot be delivered is handed to the router's ``on_drop`` callback exactly once,
with one of upstream's drop reasons, so the engine emits exactly one ``message_dropped`` for it.

What each module owns:

* :mod:`~runtime.messaging.messages`: a message, its kind, the drop reasons (wire strings) and a drop.
* :mod:`~runtime.messaging.addressing`: how a ``to`` resolves against the running executions.
* :mod:`~runtime.messaging.router`: the mailboxes, sending, draining, drops, snapshot and restore.
* :mod:`~runtime.messaging.shared_memory`: the ``agent/key`` store behind ``shared_memory_write`` / ``_read``.
* :mod:`~runtime.messaging.inbox`: the coordinator's inbox: queued messages and lifecycle notices in arrival order.
"""
from runtime.messaging.inbox import LIFECYCLE_EVENTS, CoordinatorInbox, InboxItem
from runtime.messaging.messages import COORDINATOR, Drop, DropReason, Message, MessageKind, message_kind
from runtime.messaging.router import DEFAULT_CAPACITY, MessageRouter, RouterSnapshot, SendResult
from runtime.messaging.shared_memory import SharedMemory

__all__ = [
    "COORDINATOR",
    "DEFAULT_CAPACITY",
    "LIFECYCLE_EVENTS",
    "CoordinatorInbox",
    "Drop",
    "DropReason",
    "InboxItem",
    "Message",
    "MessageKind",
    "MessageRouter",
    "RouterSnapshot",
    "SendResult",
    "SharedMemory",
    "message_kind",
]

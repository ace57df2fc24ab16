"""One view per watched run per server process, shared by its sockets.

The hub joins the run's broadcast group on a channel of its own, folds each
event once (however many sockets watch), and every :data:`PATCH_INTERVAL`
sends what changed to every socket: at most ten messages a second per socket,
whatever the event rate. A socket that joins gets the whole view first. The
view starts from the stored events, so a hub made after a restart, or for a
run that finished long ago, shows the same thing a hub that saw it all does.
The layer may drop messages: a gap in ``seq`` and, while the run is active, a
slow poll of the run's ``last_seq`` are refilled from the database. It may
also fail a read (Redis restarting): the hub rejoins the group and carries on,
and its sockets get the run's status as it stands, which no event carries.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

import orjson
from channels.layers import BaseChannelLayer, get_channel_layer

from common.orm import off_loop
from common.types import RunId
from runtime.live.announce import status_payload
from runtime.live.broadcast import run_group
from runtime.live.view.state import FOLDED_TYPES, RunView
from runtime.models import ACTIVE_STATUSES, Run, RunEvent

log = logging.getLogger(__name__)

PATCH_INTERVAL = 0.1      # seconds: at most ten patches a second to each socket
POLL_EVERY = 20           # flushes between looks at the run's last_seq (2 s)
IDLE_GRACE = 30.0         # seconds a hub outlives its last socket (a reload reconnects at once)
PAGE = 5000
READ_RETRY_S = 1.0        # seconds after the layer failed a read before the hub rejoins and reads again

Send = Callable[[str], Awaitable[None]]


def _rows(run_id: RunId, after: int) -> tuple[list[str], int]:
    """The next page of what the fold reads after ``after``, and the seq that page covers up to."""
    upto = Run.objects.filter(pk=run_id).values_list("last_seq", flat=True).first() or 0
    rows = list(RunEvent.objects.filter(run_id=run_id, seq__gt=after, seq__lte=upto, type__in=FOLDED_TYPES)
                .exclude(type="agent_turn", event_json__contains='"phase": "request"')  # prompts: large, unread
                .order_by("seq").values_list("seq", "event_json")[:PAGE])
    covered = rows[-1][0] if len(rows) == PAGE else upto
    return [text for _, text in rows], covered


def _run_state(run_id: RunId) -> tuple[str, int] | None:
    return Run.objects.filter(pk=run_id).values_list("status", "last_seq").first()


def _stored_view(run_id: RunId) -> dict | None:
    """A finished run's view as stored, when it covers every event."""
    found = Run.objects.filter(pk=run_id).values_list("status", "last_seq", "view").first()
    if found is None or found[0] in ACTIVE_STATUSES or not found[2] or found[2].get("seq") != found[1]:
        return None
    return found[2]


def _save_view(run_id: RunId, snapshot: dict) -> None:
    Run.objects.filter(pk=run_id, last_seq=snapshot["seq"]).exclude(status__in=ACTIVE_STATUSES).update(view=snapshot)


def store_view(run_id: RunId) -> None:
    """Fold a finished run's events once and keep the view with the run (its page then opens at once)."""
    if _stored_view(run_id) is not None:
        return  # a hub that watched it to the end kept it already
    view = RunView()
    while True:
        texts, covered = _rows(run_id, view.seq)
        for text in texts:
            view.apply(orjson.loads(text))
        view.skip_to(covered)
        if len(texts) < PAGE:
            break
    _save_view(run_id, view.snapshot())


class ViewHub:
    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.view = RunView()
        self.watchers: dict[int, Send] = {}
        self.lock = asyncio.Lock()
        self.tasks: list[asyncio.Task] = []
        self.channel: str | None = None
        self.idle_since: float | None = None
        self.stopped = False
        self.frozen: dict | None = None  # a finished run's stored view, served as it is

    async def start(self) -> None:
        layer = get_channel_layer()
        if layer is not None:
            # Subscribe before reading what is stored: nothing lands in between unseen.
            self.channel = await layer.new_channel()
            await layer.group_add(run_group(self.run_id), self.channel)
            self.tasks.append(asyncio.create_task(self._read(layer)))
        stored = await off_loop(_stored_view)(self.run_id)
        if stored is not None:
            self.frozen = stored  # a finished run: nothing more will come
        else:
            await self._refill()
            self.view.patch()  # nobody watched what was stored: it goes out as the snapshot
        self.tasks.append(asyncio.create_task(self._flush_loop()))

    async def stop(self) -> None:
        self.stopped = True
        current = asyncio.current_task()
        for task in self.tasks:
            if task is not current:  # the flush loop stops a hub from inside, then returns
                task.cancel()
        layer = get_channel_layer()
        if layer is not None and self.channel is not None:
            with contextlib.suppress(Exception):
                await layer.group_discard(run_group(self.run_id), self.channel)

    async def attach(self, key: int, send: Send) -> None:
        async with self.lock:
            await self._flush()  # the sockets already here get what is pending; the newcomer the whole view
            self.watchers[key] = send
            self.idle_since = None
            await send(json.dumps({"kind": "view", "view": self.frozen or self.view.snapshot()}))

    def detach(self, key: int) -> None:
        self.watchers.pop(key, None)
        if not self.watchers:
            self.idle_since = asyncio.get_running_loop().time()

    async def run_status(self, run: dict) -> None:
        """A status change goes out at once (with the view as it is), not at the next tick."""
        async with self.lock:
            if run.get("status") not in ACTIVE_STATUSES and self.frozen is None:
                await self._refill()
                await off_loop(_save_view)(self.run_id, self.view.snapshot())
            await self._flush()
            text = json.dumps({"kind": "run", "run": run}, default=str)
            await self._send_all(text)

    # -- inside ------------------------------------------------------------------
    async def _refill(self) -> None:
        while True:
            texts, covered = await off_loop(_rows)(self.run_id, self.view.seq)
            for text in texts:
                self.view.apply(orjson.loads(text))
            self.view.skip_to(covered)
            if len(texts) < PAGE:
                return

    async def _read(self, layer: BaseChannelLayer) -> None:
        while True:
            try:
                message = await layer.receive(self.channel)
            except Exception:  # the task must outlive Redis going away, or the sockets hear no status again
                log.warning("view of run %s: the channel layer failed a read", self.run_id, exc_info=True)
                await self._rejoin(layer)
                continue
            try:
                if message.get("type") == "run.events":
                    async with self.lock:
                        if message["last"] <= self.view.seq:
                            continue
                        if message["first"] != self.view.seq + 1:
                            await self._refill()  # a gap: the database has it all
                            continue
                        for text in message["texts"]:
                            self.view.apply(orjson.loads(text))
                elif message.get("type") == "run.status":
                    await self.run_status(message["run"])
            except Exception:  # one bad message must not stop the view
                log.exception("view of run %s: a message could not be applied", self.run_id)

    async def _rejoin(self, layer: BaseChannelLayer) -> None:
        """After a failed read: back into the group (a restarted Redis has forgotten it), then the run's status as
        it stands to every socket. Events missed meanwhile come from the database at the flush loop's next poll."""
        await asyncio.sleep(READ_RETRY_S)
        try:
            await layer.group_add(run_group(self.run_id), self.channel)
            found = await off_loop(status_payload)(self.run_id)
            if found is not None:
                await self.run_status(found[1])
        except Exception:  # still away: the next read fails too and comes back here
            log.warning("view of run %s: could not rejoin its group yet", self.run_id, exc_info=True)

    async def _flush(self) -> None:
        patch = self.view.patch()
        if patch is not None:
            await self._send_all(json.dumps({"kind": "patch", **patch}))

    async def _send_all(self, text: str) -> None:
        if self.watchers:
            await asyncio.gather(*(send(text) for send in list(self.watchers.values())), return_exceptions=True)

    async def _flush_loop(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(PATCH_INTERVAL)
            ticks += 1
            try:
                async with self.lock:
                    if self.frozen is None and ticks % POLL_EVERY == 0:
                        state = await off_loop(_run_state)(self.run_id)
                        if state is not None and state[1] > self.view.seq:
                            await self._refill()  # the layer lost the tail
                    await self._flush()
            except Exception:  # a database hiccup: the next tick tries again
                log.exception("view of run %s: a flush failed", self.run_id)
            if self.idle_since is not None and asyncio.get_running_loop().time() - self.idle_since > IDLE_GRACE:
                await _forget(self)
                return


_hubs: dict[str, ViewHub] = {}
_creating: dict[int, asyncio.Lock] = {}  # per event loop: a lock belongs to the loop that uses it


async def watch(run_id: str) -> ViewHub:
    """The process's hub for a run, started if needed."""
    lock = _creating.setdefault(id(asyncio.get_running_loop()), asyncio.Lock())
    async with lock:
        hub = _hubs.get(run_id)
        if hub is None or hub.stopped:
            hub = ViewHub(run_id)
            await hub.start()
            _hubs[run_id] = hub
        return hub


async def _forget(hub: ViewHub) -> None:
    if _hubs.get(hub.run_id) is hub and not hub.watchers:
        del _hubs[hub.run_id]
        await hub.stop()

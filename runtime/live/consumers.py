"""Websockets: one run's events (replay, then live, by seq), and the user's run list.

Consumers only authenticate, subscribe and forward. The channel layer is
at-most-once, so a run socket tracks the last ``seq`` it sent: a gap is
refilled from the database, a duplicate is dropped, and while the run is
active a slow poll catches anything the layer lost at the tail.
"""
from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import member_group
from accounts.workspaces import member_workspace_ids
from common.orm import off_loop
from common.types import Message, RunId
from runtime.live.broadcast import run_group, workspace_runs_group
from runtime.live.recorder import event_frame, events_frame
from runtime.live.serializers import run_dict
from runtime.live.view import hub as hubs
from runtime.models import ACTIVE_STATUSES, Run, RunEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import User

POLL_SECONDS = 2.0


REPLAY_PAGE = 2000


class _Consumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: Message) -> None:
        # Channels hops to the one shared sync thread before every message to close stale
        # database connections. Fifty sockets on a busy run queue behind that hop (it was
        # the largest cost of a broadcast); these consumers read only through off_loop,
        # which does that cleanup in its own thread.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _join_credential(self) -> None:
        """Follow the token or session this socket was opened with: revoked or logged out, it closes."""
        self.credential = self.scope.get("credential")
        if self.credential:
            await self.channel_layer.group_add(self.credential, self.channel_name)

    async def _leave_credential(self) -> None:
        if getattr(self, "credential", None):
            await self.channel_layer.group_discard(self.credential, self.channel_name)

    async def auth_ended(self, message: Message) -> None:
        await self.close(code=4401)

    async def _join_membership(self, workspace_ids: Iterable[int]) -> None:
        """Follow the user's membership of these workspaces: taken out of one, the socket stops watching it."""
        self.memberships = [member_group(w, self.scope["user"].pk) for w in workspace_ids]
        for group in self.memberships:
            await self.channel_layer.group_add(group, self.channel_name)

    async def _leave_memberships(self) -> None:
        for group in getattr(self, "memberships", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def access_ended(self, message: Message) -> None:
        # A socket on one run: the run is no longer theirs to watch.
        await self.close(code=4403)


def _run_of(user: User, run_id: RunId) -> Run | None:
    try:
        # A member of the run's workspace, any role, may watch it.
        run = Run.objects.labelled().filter(pk=run_id, workspace__memberships__user=user).first()
    except Exception:  # a malformed id
        return None
    return run


_owned_run = off_loop(_run_of)


def _event_rows(run_id: RunId, after: int, upto: int | None) -> list[tuple[int, str]]:
    rows = RunEvent.objects.filter(run_id=run_id, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq").values_list("seq", "event_json")[:REPLAY_PAGE])


_events_between = off_loop(_event_rows)


@off_loop
def _open(user: User, run_id: RunId, after: int) -> tuple[Run, list[tuple[int, str]]] | None:
    """The owned run and the first page of its replay, in one trip to a thread (sockets often
    open many at once), or None."""
    run = _run_of(user, run_id)
    return None if run is None else (run, _event_rows(run_id, after, None))


@off_loop
def _run_state(run_id: RunId) -> tuple[str, int] | None:
    return Run.objects.filter(pk=run_id).values_list("status", "last_seq").first()


class RunConsumer(_Consumer):
    group: str | None  # the run's broadcast group while subscribed

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        try:  # the id as the broadcaster names the group, whatever case or dashes the URL used
            self.run_id = str(uuid.UUID(self.scope["url_route"]["kwargs"]["run_id"]))
        except ValueError:
            await self.close(code=4404)
            return
        self.group = run_group(self.run_id)
        # Subscribe before reading the run and replaying its events: a status change or an
        # event that lands in between still reaches this socket.
        await self.channel_layer.group_add(self.group, self.channel_name)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            self.last = max(0, int(query.get("after", ["0"])[0]))
        except ValueError:
            self.last = 0
        # Clients that understand {"kind": "events"} get many events per message.
        self.batch = query.get("batch", ["0"])[0] in ("1", "true")
        opened = await _open(user, self.run_id, self.last)
        if opened is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await self.close(code=4404)
            return
        run, rows = opened
        await self._join_credential()
        await self._join_membership([run.workspace_id])
        self.lock = asyncio.Lock()
        await self.accept()
        async with self.lock:
            await self._deliver([text for _, text in rows])
            if rows:
                self.last = rows[-1][0]
            if len(rows) == REPLAY_PAGE:
                await self._refill(None)
        # run_dict reads only what _owned_run loaded: no query, so no thread hop.
        await self.send(text_data=json.dumps({"kind": "run", "run": run_dict(run)}, default=str))
        self.polled = -1
        self.poller = asyncio.create_task(self._poll())

    async def disconnect(self, code: int) -> None:
        await self._leave_credential()
        await self._leave_memberships()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        poller = getattr(self, "poller", None)
        if poller:
            poller.cancel()

    async def _deliver(self, texts: list[str]) -> None:
        if not texts:
            return
        if self.batch:
            await self.send(text_data=events_frame(texts))
        else:
            for text in texts:
                await self.send(text_data=event_frame(text))

    async def _refill(self, upto: int | None) -> None:
        while True:
            rows = await _events_between(self.run_id, self.last, upto)
            await self._deliver([text for _, text in rows])
            if rows:
                self.last = rows[-1][0]
            if len(rows) < REPLAY_PAGE:
                return

    async def run_events(self, message: Message) -> None:
        async with self.lock:
            first, last = message["first"], message["last"]
            if last <= self.last:
                return  # already sent (a replay got there first)
            if first != self.last + 1:
                # A gap (the layer dropped a message) or an overlap: the database has all of it.
                await self._refill(last)
                return
            await self._deliver(list(message["texts"]))
            self.last = last

    async def run_status(self, message: Message) -> None:
        async with self.lock:
            if message["run"]["status"] not in ACTIVE_STATUSES:
                await self._refill(None)
            await self.send(text_data=json.dumps({"kind": "run", "run": message["run"]}, default=str))

    async def _poll(self) -> None:
        # Fifty sockets opened together must not all query at the same instant.
        await asyncio.sleep(POLL_SECONDS * random.uniform(0.5, 1.0))  # noqa: S311 - jitter for a poll, not a secret
        while True:
            seen = self.last
            state = await _run_state(self.run_id)
            if state is None:
                return
            status, last_seq = state
            # Gaps in the middle are refilled when the next message shows them; only a tail
            # lost with nothing after it leaves a socket stuck behind the database.
            if last_seq > self.last and (self.last == self.polled or status not in ACTIVE_STATUSES):
                async with self.lock:
                    await self._refill(None)
            if status not in ACTIVE_STATUSES and self.last >= last_seq:
                # The last word is the run's final record, in case its announcement was missed.
                run = await _owned_run(self.scope["user"], self.run_id)
                if run is not None:
                    await self.send(text_data=json.dumps({"kind": "run", "run": run_dict(run)}, default=str))
                return
            self.polled = seen
            await asyncio.sleep(POLL_SECONDS)


class RunListConsumer(_Consumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        # Every run of every workspace the user is in, as it changes.
        workspaces = list(await off_loop(member_workspace_ids)(user))
        self.groups_joined = [workspace_runs_group(w) for w in workspaces]
        await self._join_credential()
        await self._join_membership(workspaces)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self._leave_credential()
        await self._leave_memberships()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def access_ended(self, message: Message) -> None:
        # The list goes on with the user's other workspaces; this one's runs stop arriving.
        group = workspace_runs_group(message["workspace_id"])
        if group in self.groups_joined:
            self.groups_joined.remove(group)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def run_status(self, message: Message) -> None:
        await self.send(text_data=json.dumps({"kind": "run", "run": message["run"]}, default=str))

    async def run_events(self, message: Message) -> None:
        return None


class RunViewConsumer(_Consumer):
    """The run's view (:mod:`runtime.live.view`): the whole view on connect, then patches at most ten times a
    second, and the run's record when its status changes. For pages that draw big runs; the raw events
    stay on :class:`RunConsumer` and ``GET /runs/{id}/events``."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        try:
            self.run_id = str(uuid.UUID(self.scope["url_route"]["kwargs"]["run_id"]))
        except ValueError:
            await self.close(code=4404)
            return
        run = await _owned_run(user, self.run_id)
        if run is None:
            await self.close(code=4404)
            return
        await self._join_credential()
        await self._join_membership([run.workspace_id])
        await self.accept()
        await self.send(text_data=json.dumps({"kind": "run", "run": run_dict(run)}, default=str))
        self.hub = await hubs.watch(self.run_id)
        await self.hub.attach(id(self), self._send_text)

    async def _send_text(self, text: str) -> None:
        await self.send(text_data=text)

    async def disconnect(self, code: int) -> None:
        await self._leave_credential()
        await self._leave_memberships()
        hub = getattr(self, "hub", None)
        if hub is not None:
            hub.detach(id(self))

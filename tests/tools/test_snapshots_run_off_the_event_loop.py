"""A workspace snapshot never runs on the event loop: it is walked and hashed a chunk at a time in worker threads,
the loop free between chunks (other requests go on), and each chunk's contents are stored before the next is read,
never more than the store has room for held in memory. Proved by where and how the code runs, not by a clock;
bench/snapshot.py measures GET /me while a 30,000-file workspace is snapshotted on a real server."""
from __future__ import annotations

import asyncio
import itertools
import threading

import pytest

from runtime.tools import session, snapshots
from runtime.tools.session import MemoryStore, RunTools

FILES = 3000


def make_files(root, count=FILES, size=64):
    for i in range(count):
        folder = root / f"d{i % 30}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.txt").write_bytes(f"{i}".encode().ljust(size, b"."))


@pytest.fixture
def calls(monkeypatch):
    """Each Scanner.step: the thread it ran in, whether an event loop runs in that thread, and the loop's ticks
    (how often the loop had run other work) when it began."""
    seen: list[dict] = []
    real = snapshots.Scanner.step
    ticks = {"n": 0}

    def step(self, *args, **kwargs):
        try:
            asyncio.get_running_loop()
            on_a_loop = True
        except RuntimeError:
            on_a_loop = False
        seen.append({"thread": threading.get_ident(), "on_a_loop": on_a_loop, "ticks": ticks["n"]})
        return real(self, *args, **kwargs)

    monkeypatch.setattr(snapshots.Scanner, "step", step)
    return seen, ticks


async def ticking(ticks):
    while True:
        ticks["n"] += 1
        await asyncio.sleep(0)


async def test_a_big_workspace_is_snapshotted_in_chunks_off_the_loop_with_the_loop_free_between(tmp_path, calls):
    seen, ticks = calls
    make_files(tmp_path / "ws")
    store = MemoryStore()
    tools = RunTools(tmp_path / "ws", store=store)
    loop_thread = threading.get_ident()
    ticker = asyncio.create_task(ticking(ticks))
    try:
        record = await tools.snapshot("all")
    finally:
        ticker.cancel()
    assert record is not None and len(record.manifest) == FILES and record.changes.counts()["added"] == FILES
    assert len(store.blobs) == FILES  # every content stored, through the chunks
    # Chunks of at most CHUNK_FILES entries (the 30 folders are entries too), none on the loop's thread.
    assert len(seen) >= FILES // snapshots.CHUNK_FILES
    assert all(call["thread"] != loop_thread and not call["on_a_loop"] for call in seen)
    # Between any two chunks the loop ran other work (the ticker): a request waits for a chunk at most.
    assert all(later["ticks"] > earlier["ticks"] for earlier, later in itertools.pairwise(seen))


async def test_even_a_tiny_workspace_is_never_scanned_on_the_loop(tmp_path, calls):
    seen, _ = calls
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "one.txt").write_text("1")
    record = await RunTools(tmp_path / "ws", store=MemoryStore()).snapshot("one")
    assert record is not None and list(record.manifest) == ["one.txt"]
    assert seen and not any(call["on_a_loop"] for call in seen)


class CountingStore(MemoryStore):
    """Room for ``room`` bytes; records each chunk of contents handed to it."""

    def __init__(self, room):
        super().__init__()
        self.left = room
        self.chunks: list[int] = []

    async def room(self):
        return self.left, "not stored: this run's snapshot storage (1 MB) is full"

    async def save_blobs(self, blobs):
        self.chunks.append(len(blobs))
        return await super().save_blobs(blobs)


async def test_contents_past_the_stores_room_are_never_held_in_memory_and_the_snapshot_says_why(tmp_path,
                                                                                               monkeypatch):
    root = tmp_path / "ws"
    root.mkdir()
    for i in range(10):
        (root / f"f{i}.bin").write_bytes(bytes([i]) * 300_000)
    kept_flags: list[bool] = []
    real = snapshots._hash_at

    def hash_at(dir_fd, name, *, keep=True):
        kept_flags.append(keep)
        return real(dir_fd, name, keep=keep)

    monkeypatch.setattr(snapshots, "_hash_at", hash_at)
    store = CountingStore(room=2**20)
    record = await RunTools(root, store=store).snapshot("big")
    assert len(store.blobs) == 3 and sum(map(len, store.blobs.values())) <= 2**20  # 3 x 300 KB fit in 1 MB
    # Checked before reading: from the 4th on, each file is only hashed (streamed), its content never kept.
    assert kept_flags == [True] * 3 + [False] * 7
    assert record.not_stored == 7 and record.note == "not stored: this run's snapshot storage (1 MB) is full"
    assert len(record.manifest) == 10  # all listed, with sizes and digests


async def test_contents_reach_the_store_in_batches_as_the_scan_goes(tmp_path):
    make_files(tmp_path / "ws", count=FILES)
    store = CountingStore(room=None)
    await RunTools(tmp_path / "ws", store=store).snapshot("all")
    # A batch is handed over once it holds SAVE_FILES contents: never all of a big workspace's at once.
    assert sum(store.chunks) == FILES and len(store.chunks) >= FILES // session.SAVE_FILES
    assert max(store.chunks) < session.SAVE_FILES + snapshots.CHUNK_FILES


async def test_a_cancelled_snapshot_closes_its_walk(tmp_path, monkeypatch):
    make_files(tmp_path / "ws", count=2000)
    scanners: list[snapshots.Scanner] = []
    real_init = snapshots.Scanner.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        scanners.append(self)

    monkeypatch.setattr(snapshots.Scanner, "__init__", init)
    tools = RunTools(tmp_path / "ws", store=MemoryStore())
    task = asyncio.create_task(tools.snapshot("all"))
    while not scanners or scanners[0].chunks < 2:
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(2000):
        if scanners[0].done:
            break
        await asyncio.sleep(0.005)
    assert scanners[0].done  # closed in its thread once the chunk running then was through

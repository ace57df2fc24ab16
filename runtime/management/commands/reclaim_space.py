"""Give the database's free space back to the disk: deleted runs' snapshot contents, events and the rest.

Deleting a run (or its workflow, its workspace, its owner) deletes its rows, but SQLite keeps the pages they
held inside its file for later rows: the file does not shrink. ``manage.py reclaim_space`` runs ``VACUUM`` there,
which rewrites the file without them, and says the file's size before and after. On PostgreSQL autovacuum makes
deleted rows' space reusable by the database, and that is usually enough; ``--full`` runs ``VACUUM FULL`` on the
snapshot contents table (``runtime_workspaceblob``), which gives its space back to the disk but locks the table
while it runs (no run can take a snapshot meanwhile). docs/production.md says when to run it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from runtime.models import WorkspaceBlob


def sqlite_bytes(name: str) -> int:
    """The database file's size with its write-ahead log (where a VACUUM's pages wait until a checkpoint)."""
    return sum(os.path.getsize(path) for path in (name, f"{name}-wal") if os.path.exists(path))


class Command(BaseCommand):
    help = ("Give space freed by deleted runs back to the disk: VACUUM on SQLite (says the file's size before and "
            "after); on PostgreSQL autovacuum's job, or VACUUM FULL of the snapshot contents table with --full.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--full", action="store_true",
                            help="PostgreSQL: VACUUM FULL the snapshot contents table (locks it while it runs)")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.in_atomic_block:
            raise CommandError("VACUUM cannot run inside a transaction")
        vendor = connection.vendor
        if vendor == "sqlite":
            self._sqlite()
        elif vendor == "postgresql":
            self._postgresql(full=bool(options["full"]))
        else:
            raise CommandError(f"reclaim_space knows SQLite and PostgreSQL, not {vendor}")

    def _sqlite(self) -> None:
        name = str(connection.settings_dict["NAME"])
        if not Path(name).is_file():
            raise CommandError(f"the SQLite database {name} is not a file (in memory?): nothing to give back")
        before = sqlite_bytes(name)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM")
            # In WAL mode the rewritten pages are in the log until a checkpoint: copy them back, empty the log.
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        after = sqlite_bytes(name)
        self.stdout.write(f"{name}: {before / 2**20:.1f} MB before, {after / 2**20:.1f} MB after: "
                          f"{(before - after) / 2**20:.1f} MB freed")

    def _postgresql(self, *, full: bool) -> None:
        if not full:
            self.stdout.write("PostgreSQL: autovacuum makes the space of deleted rows reusable by the database; "
                              "nothing to do. `reclaim_space --full` runs VACUUM FULL on the snapshot contents table "
                              "to give its space back to the disk (it locks the table while it runs).")
            return
        table = WorkspaceBlob._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            before = int(cursor.fetchone()[0])
            cursor.execute(f"VACUUM FULL {connection.ops.quote_name(table)}")
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            after = int(cursor.fetchone()[0])
        self.stdout.write(f"{table}: {before / 2**20:.1f} MB before, {after / 2**20:.1f} MB after: "
                          f"{(before - after) / 2**20:.1f} MB freed")

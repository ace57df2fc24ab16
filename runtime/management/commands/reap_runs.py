from typing import Any

from django.core.management.base import BaseCommand

from runtime.execution.reaper import prune_workspaces, reap_once


class Command(BaseCommand):
    help = ("Resume runs whose worker stopped sending heartbeats from their last boundary (or fail them, \"worker "
            "lost\", past RUN_MAX_RESUMES or with RESUME_LOST_RUNS=0), and delete the workspace directories of runs "
            "older than WORKSPACE_RETENTION_DAYS.")

    def handle(self, *args: Any, **options: Any) -> None:
        lost = reap_once()
        self.stdout.write(f"{len(lost)} lost run(s)" + (": " + ", ".join(lost) if lost else ""))
        pruned = prune_workspaces()
        self.stdout.write(f"{len(pruned)} workspace(s) pruned")

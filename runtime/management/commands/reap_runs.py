from django.core.management.base import BaseCommand

from runtime.reaper import reap_once


class Command(BaseCommand):
    help = "Mark runs whose worker stopped sending heartbeats as failed (worker lost)."

    def handle(self, *args, **options):
        lost = reap_once()
        self.stdout.write(f"{len(lost)} lost run(s)" + (": " + ", ".join(lost) if lost else ""))

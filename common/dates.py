"""Dates from query parameters: what list filters (`updated_after`, `created_before` ...) take."""
from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from common.errors import BadRequest

_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def moment(field: str, raw: str | None, *, day_end: bool = False) -> datetime | None:
    """An ISO date or date-time from a query parameter, as an aware datetime (UTC when it names no offset).

    A date alone is the start of that day, or with ``day_end`` the start of the next: ``updated_before=D``
    then includes the whole of day D, which is what someone picking a date range means."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    if "T" in text and " " in text:
        # An unencoded `+01:00` in a query string arrives as ` 01:00`: put the sign back.
        text = text.replace(" ", "+")
    try:
        if _DATE_ONLY.match(text):
            day = parse_date(text)
            if day is None:
                raise ValueError(text)
            start = datetime.combine(day, time.min, tzinfo=UTC)
            return start + timedelta(days=1) if day_end else start
        found = parse_datetime(text)
    except (ValueError, OverflowError):
        found = None
    if found is None:
        raise BadRequest(f"`{field}`: {raw!r} is not an ISO date or date-time (e.g. 2026-11-23 or 2026-11-23T10:00:00Z)")
    return found if timezone.is_aware(found) else found.replace(tzinfo=UTC)

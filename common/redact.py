"""Secret values taken out of text that is stored or shown, and long text cut saying how much was cut.

What a program writes about itself (an MCP server's stderr, which may print its
own environment, tokens included) ends up in words a person reads: an account's
MCP check error, a run's ``message`` events. Before it is stored or sent,
every configured secret value in it becomes :data:`MARKER`, and the text is cut
with what was cut said (:func:`cap`). Redact first, cut after: a cut first could
keep the start of a value, which no longer matches the whole value.

Nothing here knows where the secrets come from; the caller names them.
"""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

MARKER = "[redacted]"
# Values shorter than this are left in the text: "1", "on" or "yes" would shred every message they occur in, and a
# value that short is no secret worth the name (a token or a password is longer).
SHORTEST = 4


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of each of ``secrets`` (of SHORTEST characters or more) replaced by MARKER.

    Occurrences that overlap or touch (one value inside another, a value repeated) become one marker, so no part
    of any value is left between two markers. A value found only inside a marker already there is left (a value
    "redacted" would otherwise mangle it): redacting twice, as text passes from one layer to the next, changes
    nothing."""
    values = {value for value in secrets if len(value) >= SHORTEST}
    if not text or not values:
        return text
    markers = [start for start, _ in _occurrences(text, MARKER)]  # ascending, never overlapping one another

    def in_a_marker(start: int, end: int) -> bool:
        before = bisect.bisect_right(markers, start) - 1
        return before >= 0 and end <= markers[before] + len(MARKER)

    spans = [(start, end) for value in values for start, end in _occurrences(text, value)
             if not in_a_marker(start, end)]
    if not spans:
        return text
    spans.sort()
    parts: list[str] = []
    kept_to = 0                      # text[:kept_to] is already in parts
    start, end = spans[0]
    for next_start, next_end in spans[1:]:
        if next_start <= end:        # overlapping or touching: one span
            end = max(end, next_end)
            continue
        parts += [text[kept_to:start], MARKER]
        kept_to, (start, end) = end, (next_start, next_end)
    parts += [text[kept_to:start], MARKER, text[end:]]
    return "".join(parts)


def _occurrences(text: str, value: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every occurrence of ``value`` in ``text``, overlapping ones too."""
    at = text.find(value)
    while at != -1:
        yield at, at + len(value)
        at = text.find(value, at + 1)


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how many more there were; unchanged when it fits."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def scrub(text: str, secrets: Iterable[str], limit: int) -> str:
    """Redacted, then capped: what may be stored or shown of ``text``."""
    return cap(redact(text, secrets), limit)

"""``common.redact``, the one helper every MCP error goes through before it is stored or shown: each secret value
becomes one ``[redacted]`` however the values overlap, values under 4 characters are left alone, redacting twice
changes nothing, and a cut says how many characters it cut, made after the redaction so that no start of a value is
kept."""
from __future__ import annotations

from common.redact import MARKER, cap, redact, scrub


def test_every_occurrence_becomes_the_marker_and_the_rest_stays():
    assert redact("token=abcd1234 again abcd1234.", ["abcd1234"]) == f"token={MARKER} again {MARKER}."


def test_overlapping_touching_and_nested_values_leave_no_part_of_any():
    assert redact("xx abcdefghi xx", ["abcdef", "defghi"]) == f"xx {MARKER} xx"     # overlapping
    assert redact("xx s3cr3ts3cr3t xx", ["s3cr3t"]) == f"xx {MARKER} xx"           # touching
    assert redact("key=pre-abcd-post", ["abcd", "pre-abcd-post"]) == f"key={MARKER}"  # one inside another
    assert redact("aaaaaa", ["aaaa"]) == MARKER                                  # overlapping with itself


def test_values_shorter_than_four_characters_are_left_in_the_text():
    assert redact("turn it on, yes: 1 of 3", ["on", "yes", "1", ""]) == "turn it on, yes: 1 of 3"
    assert redact("four=abcd", ["abcd"]) == f"four={MARKER}"


def test_redacting_twice_changes_nothing_even_for_a_value_inside_the_marker():
    once = redact("user=redacted token=abcd1234", ["redacted", "abcd1234"])
    assert once == f"user={MARKER} token={MARKER}"
    assert redact(once, ["redacted", "abcd1234", "dact"]) == once


def test_a_cut_says_how_many_characters_it_cut():
    assert cap("0123456789", 4) == "0123... (6 more characters)"
    assert cap("0123", 4) == "0123"


def test_a_value_across_the_cut_is_redacted_before_the_cut():
    text = "x" * 8 + "secret-value" + "y" * 10
    assert scrub(text, ["secret-value"], 12) == "x" * 8 + "[red... (16 more characters)"
    assert "secr" not in scrub(text, ["secret-value"], 12)

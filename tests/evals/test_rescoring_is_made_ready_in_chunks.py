"""Re-scoring makes its rounds ready a few runs at a time (runtime/evals/rescoring.py: ``_chunks``), so the calls of
the first runs go while the later ones are read: every round once, in order, and never a run split across two trips."""
from __future__ import annotations

from runtime.evals import rescoring
from runtime.evals.judging import Round


def rounds(per_run: list[int]) -> list[Round]:
    return [Round(f"run-{n:03}", 1, "loop", i, True, 10, 0, 0.0) for n, count in enumerate(per_run) for i in range(count)]


def test_every_round_once_in_order_and_no_run_split():
    asked = rounds([3, 7, 1, 40, 2, 2, 39, 5] * 5)
    chunks = rescoring._chunks(asked)
    assert [r for chunk in chunks for r in chunk] == asked
    runs_seen: list[str] = []
    for chunk in chunks:
        runs = list(dict.fromkeys(r.run_id for r in chunk))
        assert not set(runs) & set(runs_seen), "a run split across two chunks"
        runs_seen += runs
    # Full chunks hold at least READY_AT_ONCE rounds; only the last may hold fewer.
    assert all(len(c) >= rescoring.READY_AT_ONCE for c in chunks[:-1]) and len(chunks) > 1


def test_one_run_bigger_than_a_chunk_stays_whole_and_nothing_is_empty():
    asked = rounds([rescoring.READY_AT_ONCE * 3])
    assert rescoring._chunks(asked) == [asked]
    assert rescoring._chunks([]) == []


def test_the_first_chunk_is_only_as_big_as_the_calls_at_once():
    asked = rounds([3, 3, 3, 3] + [2] * 40)
    chunks = rescoring._chunks(asked, first=8)
    assert [r.run_id for r in chunks[0]] == ["run-000"] * 3 + ["run-001"] * 3 + ["run-002"] * 3
    assert [r for chunk in chunks for r in chunk] == asked
    assert all(len(c) >= rescoring.READY_AT_ONCE for c in chunks[1:-1])

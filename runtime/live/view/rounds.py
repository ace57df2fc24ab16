"""A loop's rounds in fixed-width buckets: what the big-run page charts, in bounded memory.

A forEach of 10,000 items cannot send 10,000 points, and the view must not grow with
the run. Each loop keeps at most :data:`MAX_BUCKETS` buckets of :attr:`RoundBuckets.width`
consecutive rounds (items or iterations); bucket ``b`` holds rounds ``b*width`` to
``(b+1)*width - 1``. A forEach whose size is known picks its width at once; a loop that
grows past the last bucket doubles the width and merges neighbours pairwise, so every
sum stays exact and only the buckets' number shrinks. Each bucket counts its finished
rounds by status and by the judge's verdict, keeps min/sum/max of their durations,
sums their tokens and cost, and keeps min/sum/max of the numeric fields found in the
rounds' and the judge's structured results (the first :data:`MAX_FIELDS` found).

A round run again (a retry policy) is counted once by status, as the grid shows it;
its durations, tokens and fields count every attempt. Tokens and cost go to the round
their turn belongs to when the turn ends, so a judge's turn after its round still counts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_BUCKETS = 500
MAX_FIELDS = 12     # numeric result fields charted per loop; a result of hundreds of numbers is not a picker
MAX_DEPTH = 3       # how deep a field is looked for (judge.scores.clarity is depth 2)
MAX_LEAVES = 64     # leaves looked at per result: a huge result costs no more than this


def _stat_add(stat: list | None, value: float) -> list:
    """[count, sum, min, max] with ``value`` folded in."""
    if stat is None:
        return [1, value, value, value]
    stat[0] += 1
    stat[1] += value
    stat[2] = min(stat[2], value)
    stat[3] = max(stat[3], value)
    return stat


def _stat_merge(a: list | None, b: list | None) -> list | None:
    if a is None or b is None:
        one = a if a is not None else b
        return list(one) if one is not None else None
    return [a[0] + b[0], a[1] + b[1], min(a[2], b[2]), max(a[3], b[3])]


def _add_counts(into: dict[str, int], other: dict[str, int]) -> None:
    for key, n in other.items():
        into[key] = into.get(key, 0) + n


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and abs(value) != float("inf")


def numeric_leaves(value: Any, prefix: tuple[str, ...] = (), depth: int = 1,
                   out: list[tuple[tuple[str, ...], float]] | None = None) -> list[tuple[tuple[str, ...], float]]:
    """A result's numeric fields by path (booleans and arrays are not plotted)."""
    out = [] if out is None else out
    if not isinstance(value, dict) or depth > MAX_DEPTH:
        return out
    for key, item in value.items():
        if len(out) >= MAX_LEAVES:
            break
        if _number(item):
            out.append(((*prefix, str(key)), float(item)))
        elif isinstance(item, dict):
            numeric_leaves(item, (*prefix, str(key)), depth + 1, out)
    return out


@dataclass
class Bucket:
    n: int = 0                                             # finished rounds, each counted once
    status: dict[str, int] = field(default_factory=dict)   # completed / failed / skipped / cancelled
    verdicts: dict[str, int] = field(default_factory=dict) # done / not_done / failed_open
    time: list | None = None                               # [count, sum, min, max] of durations, ms
    tokens: int = 0
    cost: float | None = None                              # None while no turn had a price
    fields: dict[int, list] = field(default_factory=dict)  # field index -> [count, sum, min, max]

    def merge(self, other: Bucket) -> None:
        self.n += other.n
        _add_counts(self.status, other.status)
        _add_counts(self.verdicts, other.verdicts)
        self.time = _stat_merge(self.time, other.time)
        self.tokens += other.tokens
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost
        for index, stat in other.fields.items():
            self.fields[index] = _stat_merge(self.fields.get(index), stat) or stat

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"n": self.n, "status": dict(self.status), "tokens": self.tokens}
        if self.verdicts:
            out["verdicts"] = dict(self.verdicts)
        if self.time is not None:
            out["time"] = [self.time[0], round(self.time[1], 3), self.time[2], self.time[3]]
        if self.cost is not None:
            out["cost"] = round(self.cost, 8)
        if self.fields:
            out["fields"] = {str(k): list(v) for k, v in sorted(self.fields.items())}
        return out


class RoundBuckets:
    def __init__(self, total: int | None = None) -> None:
        self.width = 1
        while isinstance(total, int) and total > self.width * MAX_BUCKETS:
            self.width *= 2
        self.span = 0                                   # highest round seen, plus one
        self.buckets: dict[int, Bucket] = {}
        self.fields: list[tuple[str, tuple[str, ...]]] = []   # (source, path), in order of discovery
        self._field_index: dict[tuple[str, tuple[str, ...]], int] = {}
        self.dirty: set[int] = set()
        self.reset = True                               # the next patch sends every bucket

    # -- reading -----------------------------------------------------------------
    def as_dict(self) -> dict:
        return {"width": self.width, "span": self.span,
                "fields": [{"source": s, "path": list(p)} for s, p in self.fields],
                "buckets": {str(b): self.buckets[b].as_dict() for b in sorted(self.buckets)}}

    def take_patch(self) -> dict | None:
        """What changed since the last call: every bucket after a merge, else the touched ones."""
        if not (self.reset or self.dirty):
            return None
        out = self.as_dict() if self.reset else {
            "width": self.width, "span": self.span, "fields": [{"source": s, "path": list(p)} for s, p in self.fields],
            "buckets": {str(b): self.buckets[b].as_dict() for b in sorted(self.dirty) if b in self.buckets}}
        out["full"] = self.reset
        self.reset, self.dirty = False, set()
        return out

    @staticmethod
    def merge_patch(held: dict | None, patch: dict) -> dict:
        """A patch applied to what a watcher holds (the browser's rule too: frontend/src/run/view/merge.ts)."""
        if patch.get("full") or held is None:
            return {k: v for k, v in patch.items() if k != "full"}
        return {"width": patch["width"], "span": patch["span"], "fields": patch["fields"],
                "buckets": {**held["buckets"], **patch["buckets"]}}

    # -- folding -----------------------------------------------------------------
    def _bucket(self, index: int) -> Bucket:
        while index >= self.width * MAX_BUCKETS:
            self._widen()
        self.span = max(self.span, index + 1)
        b = index // self.width
        self.dirty.add(b)
        bucket = self.buckets.get(b)
        if bucket is None:
            bucket = self.buckets[b] = Bucket()
        return bucket

    def _widen(self) -> None:
        merged: dict[int, Bucket] = {}
        for b in sorted(self.buckets):
            into = merged.get(b // 2)
            if into is None:
                merged[b // 2] = self.buckets[b]
            else:
                into.merge(self.buckets[b])
        self.buckets, self.width, self.reset = merged, self.width * 2, True
        self.dirty = set()

    def _field(self, source: str, path: tuple[str, ...]) -> int | None:
        key = (source, path)
        found = self._field_index.get(key)
        if found is None and len(self.fields) < MAX_FIELDS:
            found = self._field_index[key] = len(self.fields)
            self.fields.append(key)
        return found

    def _fold_result(self, bucket: Bucket, source: str, result: Any) -> None:
        for path, value in numeric_leaves(result):
            index = self._field(source, path)
            if index is not None:
                bucket.fields[index] = _stat_add(bucket.fields.get(index), value)

    def finished(self, index: int, status: str, duration_ms: Any, result: Any, before: str | None) -> None:
        """A round's end; ``before`` is its earlier final status when it ran before."""
        bucket = self._bucket(index)
        if before is not None and bucket.status.get(before):
            bucket.n -= 1
            bucket.status[before] -= 1
            if not bucket.status[before]:
                del bucket.status[before]
        bucket.n += 1
        bucket.status[status] = bucket.status.get(status, 0) + 1
        if _number(duration_ms):
            bucket.time = _stat_add(bucket.time, round(float(duration_ms), 3))
        self._fold_result(bucket, "result", result)

    def spent(self, index: int, tokens: int, cost: Any) -> None:
        bucket = self._bucket(index)
        bucket.tokens += tokens
        if _number(cost):
            bucket.cost = (bucket.cost or 0.0) + float(cost)

    def judged(self, index: int, done: Any, failed_open: bool, result: Any) -> None:
        bucket = self._bucket(index)
        verdict = "failed_open" if failed_open or done is None else "done" if done else "not_done"
        bucket.verdicts[verdict] = bucket.verdicts.get(verdict, 0) + 1
        self._fold_result(bucket, "judge", result)

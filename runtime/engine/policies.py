"""Run policies: stop rules for repeat-until loops and what to do with a failed iteration.

They belong to a run, not to the document (the file stays plain zenflow v1),
and are passed as ``RunOptions(policies={...})`` (runtime.engine.options)::

    {
      "stop_rules": [
        {"kind": "converged", "threshold": 0.95},      # this iteration ~ the previous one
        {"kind": "output_contains", "marker": "DONE"}, # the iteration's content has the marker
        {"kind": "approval"}                            # approval words, and no rejection words
      ],
      "combine": "any",              # or "all": every rule must fire on the same iteration
      "on_iteration_error": "abort", # or "retry" (run it again; counts toward maxIterations)
                                     # or "skip" (record it failed and go on)
      "loops": ["dev-cycle"]         # loop step ids it applies to (absent: every loop)
    }

Stop rules are checked after ``until`` and before the judge (they cost
nothing; the judge costs a turn). The rule that stopped a loop is recorded as
``loop_end.data.stop_rule`` (and in ``RunResult.loops``) with
``break_reason: "policy"``. ``converged`` compares whitespace-normalised text
with :class:`difflib.SequenceMatcher` (threshold 1.0 = identical). ``approval``
looks for approval phrases (approved, LGTM, looks good, ship it ...) and
refuses them when a rejection phrase is also there (not approved, changes
requested, needs work, reject ...), so "not approved" never stops a loop.
The error policy applies to forEach too: ``skip`` lets the other items go on
and the loop complete; ``retry`` runs a failed item once more.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime.engine.context import RunContext

STOP_KINDS = ("converged", "output_contains", "approval")
ERROR_POLICIES = ("abort", "retry", "skip")

APPROVAL = re.compile(r"\b(approved?|approving|lgtm|looks good( to me)?|ship it|ready to (merge|ship)|"
                      r"accept(ed)?|all (tests|checks) pass(ed)?)\b", re.IGNORECASE)
REJECTION = re.compile(r"\b(not (yet )?(approved?|ready|lgtm|good|accept(ed)?)|unapproved|reject(ed|s)?|"
                       r"changes? requested|request(ing)? changes|needs? (more )?(work|changes|fixes)|"
                       r"(do not|don't|cannot|can't) (approve|merge|ship|accept)|blocker|blocking|fail(ed|s|ing)?)\b",
                       re.IGNORECASE)


class PolicyError(ValueError):
    pass


@dataclass
class StopRule:
    kind: str
    threshold: float = 1.0
    marker: str = ""

    def fires(self, content: str, previous: str | None) -> bool:
        if self.kind == "output_contains":
            return bool(self.marker) and self.marker in content
        if self.kind == "approval":
            return approved(content)
        if previous is None:
            return False
        return similarity(content, previous) >= self.threshold


def approved(text: str) -> bool:
    """Approval phrases present and no rejection phrase anywhere (the cross-check)."""
    return bool(APPROVAL.search(text)) and not REJECTION.search(text)


def similarity(a: str, b: str) -> float:
    a, b = " ".join(a.split()), " ".join(b.split())
    if a == b:
        return 1.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < 0.5:
        return matcher.real_quick_ratio()
    return matcher.ratio()


@dataclass
class Policies:
    stop_rules: list[StopRule] = field(default_factory=list)
    combine: str = "any"
    on_iteration_error: str = "abort"
    loops: list[str] | None = None

    @classmethod
    def from_dict(cls, data: Any) -> Policies:
        if isinstance(data, Policies):
            return data
        if not isinstance(data, dict):
            raise PolicyError("policies must be a mapping")
        unknown = set(data) - {"stop_rules", "combine", "on_iteration_error", "loops"}
        if unknown:
            raise PolicyError(f"unknown policy field(s): {', '.join(sorted(unknown))}")
        rules = []
        for i, raw in enumerate(data.get("stop_rules") or []):
            if not isinstance(raw, dict) or raw.get("kind") not in STOP_KINDS:
                raise PolicyError(f"stop_rules[{i}].kind must be one of {', '.join(STOP_KINDS)}")
            threshold = raw.get("threshold", 1.0)
            if not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
                raise PolicyError(f"stop_rules[{i}].threshold must be in (0, 1]")
            marker = raw.get("marker", "")
            if raw["kind"] == "output_contains" and (not isinstance(marker, str) or not marker):
                raise PolicyError(f"stop_rules[{i}].marker: give the text to look for")
            rules.append(StopRule(raw["kind"], float(threshold), marker))
        combine = data.get("combine", "any")
        if combine not in ("any", "all"):
            raise PolicyError("combine must be any or all")
        on_error = data.get("on_iteration_error", "abort")
        if on_error not in ERROR_POLICIES:
            raise PolicyError(f"on_iteration_error must be one of {', '.join(ERROR_POLICIES)}")
        loops = data.get("loops")
        return cls(rules, combine, on_error, list(loops) if loops is not None else None)

    def covers(self, loop_path: str) -> bool:
        return self.loops is None or loop_path in self.loops

    def stop_rule(self, content: str, previous: str | None) -> str | None:
        """The name of the rule (or ``all(...)``) that stops the loop after this iteration, or None."""
        if not self.stop_rules:
            return None
        fired = [r.kind for r in self.stop_rules if r.fires(content, previous)]
        if self.combine == "all":
            return f"all({','.join(fired)})" if len(fired) == len(self.stop_rules) else None
        return fired[0] if fired else None


def attach(ctx: RunContext, policies: Any) -> None:
    ctx.policies = Policies.from_dict(policies)


def for_loop(ctx: RunContext, loop_path: str) -> Policies | None:
    policies = getattr(ctx, "policies", None)
    return policies if policies is not None and policies.covers(loop_path) else None

"""The upstream zenflow spec beside the checkout: its conformance cases and examples, read where they live
(never copied)."""
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO.parent / "shared" / "zenflow-spec-v1"


def cases(kind: str) -> list[Path]:
    found = sorted((SPEC / "testcases" / kind).glob("*.yaml"))
    assert found, f"no {kind} conformance cases found under {SPEC}"
    return found


def read_case(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def examples() -> list[Path]:
    found = sorted((SPEC / "examples").glob("*.yaml"))
    assert len(found) >= 18, f"expected the 18 upstream examples under {SPEC / 'examples'}"
    return found

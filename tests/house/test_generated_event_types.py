"""The front end's event types are generated from runtime/contract.py and checked in: they never drift."""
import re
from typing import get_args

from runtime.contract import EVENT_DATA, EventType
from runtime.contract_ts import TARGET, render

FRONTEND_SRC = TARGET.parents[1]
UNION = re.compile(r"^export type RunEvent =\n((?:  \| \w+\n)*  \| \w+);$", re.M)
# A declaration of its own (`interface RunEvent`, `type RunEvent =`); `export type { RunEvent }` re-exports.
OWN_RUN_EVENT = re.compile(r"\b(?:interface\s+RunEvent\b|type\s+RunEvent\s*[=<])")  # a declaration, not an `import { type RunEvent }`


def test_the_checked_in_typescript_types_match_the_contract():
    assert TARGET.read_text() == render(), "frontend/src/api/events.gen.ts is out of date: run `make contract`"


def test_the_run_event_union_has_one_member_per_event_type_and_its_data():
    text = TARGET.read_text()
    union = UNION.search(text)
    assert union, "events.gen.ts has no `export type RunEvent = | ...;` union"
    members = re.findall(r"\w+", union.group(1))
    assert len(members) == len(set(members))
    narrowed: dict[str, str] = {}
    for member in members:
        body = re.search(rf"^export interface {member} extends EventEnvelope {{\n(.*?)^}}", text, re.M | re.S)
        assert body, f"{member} is in the union but not declared"
        kind = re.search(r'^  type: "(\w+)";$', body.group(1), re.M)
        data = re.search(r"^  data\??: (\w+)", body.group(1), re.M)
        assert kind and data, f"{member} does not narrow type and data"
        assert kind.group(1) not in narrowed, f"two members of the union have type {kind.group(1)!r}"
        narrowed[kind.group(1)] = data.group(1)
        assert re.search(rf"^export interface {data.group(1)} {{", text, re.M), f"{data.group(1)} is not declared"
    assert narrowed == {name: model.__name__ for name, model in EVENT_DATA.items()}
    assert set(narrowed) == set(get_args(EventType))


def test_no_module_of_the_front_end_declares_its_own_run_event():
    own = sorted(
        str(path.relative_to(FRONTEND_SRC))
        for path in FRONTEND_SRC.rglob("*.ts*")
        if path != TARGET and OWN_RUN_EVENT.search(path.read_text())
    )
    assert not own, f"declare no RunEvent of your own: import the contract's union from api/events.gen.ts ({own})"

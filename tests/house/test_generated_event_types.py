"""The front end's event types are generated from runtime/contract.py and checked in: they never drift."""
from runtime.contract_ts import TARGET, render


def test_the_checked_in_typescript_types_match_the_contract():
    assert TARGET.read_text() == render(), "frontend/src/api/events.gen.ts is out of date: run `make contract`"

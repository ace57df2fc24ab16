"""The engine's typed shapes (runtime/engine/shapes.py) say what the run event contract (runtime/contract.py) and
the document schema (designer/schema.py) say, key for key and type for type, so the two cannot drift; and what the
engine and its fold really produce has the keys the shapes give it."""
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
import yaml

from designer import schema as document_schema
from runtime import contract
from runtime.engine import RunOptions, run_workflow, shapes
from runtime.engine.checkpoints import Checkpoint, fold
from runtime.events import ListSink

# Each event data shape, its contract model, and the keys this engine adds that a fold reads (the contract lets
# `data` carry more than its model names).
DATA_SHAPES = [
    ("workflow_start", shapes.WorkflowStartData, set()),
    ("workflow_end", shapes.WorkflowEndData, set()),
    ("step_start", shapes.StepStartData, {"max_iterations"}),
    ("step_end", shapes.StepEndData, set()),
    ("step_skipped", shapes.StepSkippedData, set()),
    ("agent_turn", shapes.AgentTurnData, set()),
    ("tool_call", shapes.ToolCallData, set()),
    ("message", shapes.MessageData, {"retry"}),
    ("iteration_start", shapes.IterationStartData, set()),
    ("iteration_end", shapes.IterationEndData, {"result", "error"}),
    ("judge_verdict", shapes.JudgeVerdictData, set()),
    ("loop_end", shapes.LoopEndData, set()),
    ("run_control", shapes.RunControlData, set()),
]
# The contract's nested models and the shapes that stand for them.
MODELS = {contract.Tokens: shapes.Tokens, contract.Where: shapes.Where}
# StoredEvent.data is the contract's `dict[str, Any]`: which *Data shape it is depends on the event's type.
ENVELOPE = [(contract.Event, shapes.StoredEvent), (contract.Tokens, shapes.Tokens), (contract.Where, shapes.Where)]


def canonical(tp: Any) -> Any:
    """A type as something comparable: unions as sets, Literals as sets of values, the contract's models as their
    shapes, and `X | None` the same as `Optional[X]`."""
    tp = MODELS.get(tp, tp)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return ("union", frozenset(canonical(a) for a in get_args(tp)))
    if origin is Literal:
        return ("literal", frozenset(get_args(tp)))
    if origin is not None:
        return (origin, tuple(canonical(a) for a in get_args(tp)))
    return tp


def assert_shape_is_model(shape: type, model: type, extras: set[str] = frozenset()) -> None:
    fields = model.model_fields
    hints = get_type_hints(shape)
    assert not extras & set(fields), f"{shape.__name__}: {extras & set(fields)} are in the contract now"
    assert set(hints) == set(fields) | extras, f"{shape.__name__} and {model.__name__} name different keys"
    required = {name for name, info in fields.items() if info.is_required()}
    assert shape.__required_keys__ == required, f"{shape.__name__}: required keys differ from {model.__name__}'s"
    for name, info in fields.items():
        assert canonical(hints[name]) == canonical(info.annotation), \
            f"{shape.__name__}.{name} is {hints[name]}, the contract says {info.annotation}"


@pytest.mark.parametrize(("kind", "shape", "extras"), DATA_SHAPES, ids=[k for k, _, _ in DATA_SHAPES])
def test_each_data_shape_has_its_contract_models_keys_and_types(kind: str, shape: type, extras: set[str]):
    assert_shape_is_model(shape, contract.EVENT_DATA[kind], extras)


@pytest.mark.parametrize(("model", "shape"), ENVELOPE, ids=[m.__name__ for m, _ in ENVELOPE])
def test_the_envelope_has_the_contracts_keys_and_types(model: type, shape: type):
    assert_shape_is_model(shape, model)


def test_the_vocabularies_are_the_contracts():
    assert set(get_args(shapes.EventType)) == set(get_args(contract.EventType)) == set(contract.EVENT_DATA)
    assert set(get_args(shapes.StepEndStatus)) == set(get_args(contract.StepEndStatus))
    assert set(get_args(shapes.RunEndStatus)) == set(get_args(contract.RunEndStatus))
    assert set(get_args(shapes.LoopType)) == {"forEach", "repeat-until"}


# ---------------------------------------------------------------- documents (designer/schema.py)

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


def json_types(tp: Any) -> set[str]:
    """The JSON types a shape's hint allows."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return set().union(*(json_types(a) for a in get_args(tp)))
    if origin is Literal:
        return {JSON_TYPES[type(v)] for v in get_args(tp)}
    if is_typeddict(tp):
        return {"object"}
    return {JSON_TYPES[origin or tp]}


def schema_types(prop: dict) -> set[str]:
    if "oneOf" in prop:
        return {p["type"] for p in prop["oneOf"]}
    return {prop["type"]}


def parts():
    whole = document_schema.schema()
    step = whole["properties"]["steps"]["items"]
    return [
        (shapes.WorkflowDoc, whole, document_schema.DOCUMENT_FIELDS),
        (shapes.AgentDoc, whole["properties"]["agents"]["additionalProperties"], document_schema.AGENT_FIELDS),
        (shapes.StepDoc, step, document_schema.STEP_FIELDS),
        (shapes.LoopDoc, step["properties"]["loop"], document_schema.LOOP_FIELDS),
        (shapes.OptionsDoc, whole["properties"]["options"], document_schema.OPTION_FIELDS),
    ]


@pytest.mark.parametrize("index", range(5), ids=["workflow", "agent", "step", "loop", "options"])
def test_each_document_shape_has_its_schemas_keys_and_types(index: int):
    shape, part, names = parts()[index]
    hints = get_type_hints(shape)
    assert set(hints) == set(names) == set(part["properties"])
    assert shape.__required_keys__ == set(part.get("required", []))
    for name, prop in part["properties"].items():
        assert json_types(hints[name]) == schema_types(prop), f"{shape.__name__}.{name}"
        if "enum" in prop:
            assert set(get_args(hints[name])) == set(prop["enum"]), f"{shape.__name__}.{name}"


# ---------------------------------------------------------------- what the engine and the fold produce

RUN = """
name: shapes
agents:
  writer: {description: "Writes.", model: "gpt-x"}
  judge:
    description: "Decides."
    model: "gpt-x"
    resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}
steps:
  - id: plan
    agent: writer
    instructions: "Plan."
  - id: draft
    dependsOn: [plan]
    loop:
      maxIterations: 3
      untilAgent: judge
      steps:
        - {id: write, agent: writer, instructions: "Write."}
        - {id: check, agent: writer, dependsOn: [write], instructions: "Check."}
  - id: each
    dependsOn: [plan]
    agent: writer
    instructions: "Handle."
    loop: {forEach: [a, b, c], maxConcurrency: 2}
  - id: after
    dependsOn: [draft, each]
    condition: "false"
    instructions: "Never."
"""
SCRIPT = {
    "replies": {"judge": [{"content": "again", "result": {"done": False, "reason": "more"}}],
                "draft.1.untilAgent": [{"content": "good", "result": {"done": True, "reason": "enough"}}]},
    "tokens": {"prompt": 10, "completion": 5},
}


def assert_keys(value: Any, shape: type, where: str) -> None:
    assert isinstance(value, dict), where
    assert shape.__required_keys__ <= set(value) <= set(get_type_hints(shape)), \
        f"{where}: keys {sorted(value)} are not a {shape.__name__}"


def assert_checkpoint_keys(checkpoint: Checkpoint) -> None:
    for path, entry in checkpoint.steps.items():
        assert_keys(entry, shapes.StepEntry, f"step {path}")
        if "tokens" in entry:
            assert_keys(entry["tokens"], shapes.Tokens, f"step {path} tokens")
    for path, loop in checkpoint.loops.items():
        assert set(loop) == set(get_type_hints(shapes.LoopEntry)), f"loop {path}"  # a fold's records have every key
        for entry in loop["iterations"]:
            assert_keys(entry, shapes.IterationEntry, f"loop {path} iteration")
            assert ("index" in entry) != ("iteration" in entry)
            if "verdict" in entry:
                assert_keys(entry["verdict"], shapes.VerdictEntry, f"loop {path} verdict")
    assert_keys(checkpoint.spent, shapes.Spent, "spent")
    assert_keys(checkpoint.spent["tokens"], shapes.Tokens, "spent tokens")


async def test_what_the_engine_emits_and_the_fold_keeps_has_the_shapes_keys():
    taken: list[Checkpoint] = []
    sink = ListSink()
    await run_workflow(yaml.safe_load(RUN), RunOptions(run_id="shapes", sink=sink, script=SCRIPT, on_boundary=taken.append,
                                                       prices={"gpt-x": (3.0, 15.0)}))
    events = sink.events
    assert {e["type"] for e in events} >= {"step_skipped", "judge_verdict", "loop_end", "iteration_end"}
    data_shapes = {kind: shape for kind, shape, _ in DATA_SHAPES}
    for event in events:
        assert_keys(event, shapes.StoredEvent, f"event {event['seq']}")
        shape = data_shapes.get(event["type"])
        if shape is not None:  # the contract lets data carry more: only what it must have is checked
            assert shape.__required_keys__ <= set(event.get("data") or {}), f"event {event['seq']} data"
    assert taken
    for checkpoint in [*taken, fold(events)]:
        assert_checkpoint_keys(checkpoint)
    final = fold(events)
    assert any("verdict" in i for loop in final.loops.values() for i in loop["iterations"])
    assert any("tokens" in s for s in final.steps.values())


def test_a_typed_dict_is_a_plain_dict_at_run_time():
    # What "no cost" rests on: building a shape builds a dict, and nothing is checked.
    entry = shapes.StepEntry(status="completed", content="", result=None, blocked=False)
    assert type(entry) is dict
    assert typing.get_origin(shapes.StoredEvent) is None and is_typeddict(shapes.StoredEvent)

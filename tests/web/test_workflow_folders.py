"""Workflows as folders over HTTP: upstream's examples folder imported from one zip, exported back file for file,
hostile zips refused with nothing stored, include cycles across files named with their chain."""
from __future__ import annotations

import io
import json
import stat
import zipfile

import jsonschema
import pytest
import yaml
from django.core.management import call_command

from designer.models import FileBlob, VersionFile, Workflow
from tests.support.api_calls import post, wait_for
from tests.support.upstream_spec import SPEC
from tests.support.zips import upload, zipped

pytestmark = pytest.mark.django_db

EXAMPLES = SPEC / "examples"


def examples_zip() -> bytes:
    files = {str(p.relative_to(EXAMPLES)): p.read_bytes() for p in sorted(EXAMPLES.rglob("*")) if p.is_file()}
    return zipped(files, prefix="examples/")  # as a folder zipped whole: one top folder


def top_level_workflows() -> list[str]:
    out = []
    for p in sorted(EXAMPLES.glob("*")):
        if p.suffix in (".yaml", ".yml", ".json"):
            doc = yaml.safe_load(p.read_text())
            if isinstance(doc, dict) and "steps" in doc:
                out.append(p.name)
    return out


def test_the_examples_folder_becomes_one_workflow_per_example_each_with_what_it_references(owner_client):
    response = upload(owner_client, examples_zip(), main="*")
    assert response.status_code == 201, response.content
    body = response.json()
    made = {w["main_path"]: w for w in body["workflows"]}
    assert sorted(made) == top_level_workflows()
    assert "coordinator-output.json" in made and body["skipped"] == {}
    assert all(w["valid"] for w in made.values()), [w for w in made.values() if not w["valid"]]

    reuse = made["include-reuse.yaml"]
    listing = owner_client.get(f"/api/v1/workflows/{reuse['id']}/files").json()
    assert [f["path"] for f in listing] == ["include-reuse.yaml", "workflows/deploy.yaml"]
    context = made["context-files.yaml"]
    paths = [f["path"] for f in owner_client.get(f"/api/v1/workflows/{context['id']}/files").json()]
    assert paths == ["context-files.yaml", "fixtures/context.txt", "fixtures/sample.pdf", "fixtures/sample.png"]
    minimal = made["minimal.yaml"]
    assert minimal["files"] == 0

    # A binary file reads as binary, a text file as its text.
    png = owner_client.get(f"/api/v1/workflows/{context['id']}/file", {"path": "fixtures/sample.png"}).json()
    assert png["text"] is None and png["size"] == (EXAMPLES / "fixtures/sample.png").stat().st_size
    text = owner_client.get(f"/api/v1/workflows/{context['id']}/file", {"path": "fixtures/context.txt"}).json()
    assert text["text"] == (EXAMPLES / "fixtures/context.txt").read_text()


def test_an_exported_folder_equals_the_imported_files_and_passes_upstreams_schema(owner_client):
    body = upload(owner_client, examples_zip(), main="*").json()
    schema = json.loads((SPEC / "schema.json").read_text())
    for w in body["workflows"]:
        if w["main_path"] not in ("include-reuse.yaml", "context-files.yaml"):
            continue
        response = owner_client.get(f"/api/v1/workflows/{w['id']}/bundle.zip")
        assert response.status_code == 200 and response["Content-Type"] == "application/zip"
        with zipfile.ZipFile(io.BytesIO(response.content)) as zf:
            exported = {name: zf.read(name) for name in zf.namelist()}
        assert exported[w["main_path"]] == (EXAMPLES / w["main_path"]).read_bytes()
        for path, data in exported.items():
            assert data == (EXAMPLES / path).read_bytes(), path
            if path.endswith(".yaml"):
                jsonschema.validate(yaml.safe_load(data), schema)
        assert len(exported) == 1 + w["files"]


def test_one_named_main_keeps_the_whole_folder_and_several_without_a_name_are_asked_for(owner_client):
    asked = upload(owner_client, examples_zip())
    assert asked.status_code == 400
    assert "name the main one" in asked.json()["detail"] and "include-reuse.yaml" in asked.json()["detail"]
    one = upload(owner_client, examples_zip(), main="include-reuse.yaml")
    assert one.status_code == 201
    (made,) = one.json()["workflows"]
    assert made["name"] == "include-reuse"
    files = [f["path"] for f in owner_client.get(f"/api/v1/workflows/{made['id']}/files").json()]
    assert "workflows/deploy.yaml" in files and "fixtures/sample.png" in files and "prompts/coder.md" in files
    # What is not a workflow is skipped and said so; with one workflow left, no name is needed.
    notes = upload(owner_client, zipped({"notes.yaml": b"a: 1\n", "flow.yaml": b"name: f\nsteps: [{id: a, instructions: hi}]\n"}))
    assert notes.status_code == 201 and notes.json()["skipped"] == {"notes.yaml": "has no steps: not a workflow"}
    missing = upload(owner_client, examples_zip(), main="nope.yaml")
    assert missing.status_code == 400 and "has no file 'nope.yaml'" in missing.json()["detail"]


def test_saving_a_version_with_one_edited_prompt_stores_one_new_blob(owner_client):
    made = upload(owner_client, examples_zip(), main="include-reuse.yaml").json()["workflows"][0]
    blobs, rows = FileBlob.objects.count(), VersionFile.objects.count()
    source = owner_client.get(f"/api/v1/workflows/{made['id']}").json()["source"]
    saved = owner_client.put(f"/api/v1/workflows/{made['id']}", data=json.dumps({"source": source + "\n# edited\n"}),
                             content_type="application/json")
    assert saved.status_code == 200 and saved.json()["version"] == 2
    # The new version points at the same stored files: rows added, no content copied.
    assert FileBlob.objects.count() == blobs
    assert VersionFile.objects.count() == rows + made["files"]
    assert saved.json()["valid"] is True


def test_deleting_a_workflow_deletes_the_stored_files_no_other_workflow_holds(owner_client):
    first = upload(owner_client, examples_zip(), main="include-reuse.yaml").json()["workflows"][0]
    second = upload(owner_client, zipped({"flow.yaml": b"name: f\nsteps: [{id: a, instructions: '@notes.md'}]\n",
                                          "notes.md": b"only here\n", "shared.md": (EXAMPLES / "prompts/coder.md").read_bytes()}),
                    main="flow.yaml").json()["workflows"][0]
    held = {w["id"]: set(VersionFile.objects.filter(version__workflow_id=w["id"]).values_list("blob_id", flat=True))
            for w in (first, second)}
    shared = held[first["id"]] & held[second["id"]]
    assert len(shared) == 1 and FileBlob.objects.count() == len(held[first["id"]] | held[second["id"]])

    assert owner_client.delete(f"/api/v1/workflows/{first['id']}").status_code in (200, 204)
    assert set(FileBlob.objects.values_list("sha256", flat=True)) == held[second["id"]]
    # The workflow left reads its files, the shared one too.
    assert owner_client.get(f"/api/v1/workflows/{second['id']}/file", {"path": "shared.md"}).json()["text"] == \
        (EXAMPLES / "prompts/coder.md").read_text()

    assert owner_client.delete(f"/api/v1/workflows/{second['id']}").status_code in (200, 204)
    assert FileBlob.objects.count() == 0


def _symlink_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("main.yaml", "name: x\nsteps: [{id: a, instructions: hi}]\n")
        info = zipfile.ZipInfo("link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def _cp437_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("main.yaml", "name: x\nsteps: [{id: a, instructions: hi}]\n")
        zf.writestr("cafX.md", "x")  # an ASCII name, so no UTF-8 flag ...
    # ... then made a CP437 name (0x82 is é there) in both headers, as old Windows zip tools write them.
    return buffer.getvalue().replace(b"cafX.md", b"caf\x82.md")


def _duplicate_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("main.yaml", "name: x\nsteps: [{id: a, instructions: hi}]\n")
        with pytest.warns(UserWarning):
            zf.writestr("main.yaml", "name: y\nsteps: [{id: b, instructions: hi}]\n")
    return buffer.getvalue()


def _bomb_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.yaml", "name: x\nsteps: [{id: a, instructions: hi}]\n")
        zf.writestr("big.txt", b"\0" * (60 * 2**20))
    return buffer.getvalue()


HOSTILE = {
    "climbing": (lambda: zipped({"main.yaml": b"steps: []", "../evil.md": b"x"}), "outside"),
    "absolute": (lambda: zipped({"main.yaml": b"steps: []", "/etc/evil.md": b"x"}), "absolute"),
    "symlink": (_symlink_zip, "symbolic link"),
    "10,000 files": (lambda: zipped({"main.yaml": b"steps: []", **{f"f/{i}.md": b"x" for i in range(10_000)}}), "files"),
    "bomb": (_bomb_zip, "limit"),
    "duplicate names": (_duplicate_zip, "appears twice"),
    "non-UTF-8 names": (_cp437_zip, "not UTF-8"),
    "not a zip": (lambda: b"PK nonsense", "not a zip"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_zips_are_refused_with_a_clear_message_and_nothing_stored(owner_client, case):
    make, words = HOSTILE[case]
    before = (Workflow.objects.count(), FileBlob.objects.count())
    response = upload(owner_client, make())
    assert response.status_code in (400, 413), response.content
    assert words in response.json()["detail"], response.json()["detail"]
    assert (Workflow.objects.count(), FileBlob.objects.count()) == before


CYCLE = {
    "main.yaml": b"name: main\nsteps:\n  - id: go\n    include: parts/a.yaml\n",
    "parts/a.yaml": b"name: a\nsteps:\n  - id: b\n    include: b.yaml\n",
    "parts/b.yaml": b"name: b\nsteps:\n  - id: back\n    include: a.yaml\n",
}


def test_an_include_cycle_across_files_is_reported_with_its_chain(owner_client):
    response = upload(owner_client, zipped(CYCLE), main="main.yaml")
    assert response.status_code == 201
    made = response.json()["workflows"][0]
    assert made["valid"] is False
    errors = owner_client.get(f"/api/v1/workflows/{made['id']}").json()["errors"]
    cycle = [e for e in errors if e["code"] == "include_cycle"]
    assert cycle and "main.yaml -> parts/a.yaml -> parts/b.yaml -> parts/a.yaml" in cycle[0]["message"], errors
    assert cycle[0]["path"] == "/steps/0/include"


def test_a_missing_include_names_the_file_and_a_stranger_reads_nothing(owner_client, stranger_client):
    files = {"main.yaml": b"name: main\nsteps:\n  - id: go\n    include: gone.yaml\n  - id: p\n    instructions: '@prompts/p.md'\n"}
    made = upload(owner_client, zipped(files), main="main.yaml").json()["workflows"][0]
    errors = owner_client.get(f"/api/v1/workflows/{made['id']}").json()["errors"]
    assert {e["code"] for e in errors} >= {"include_not_found", "file_not_found"}
    assert any("gone.yaml" in e["message"] for e in errors)
    for path in ("files", "bundle.zip", "file?path=main.yaml"):
        assert stranger_client.get(f"/api/v1/workflows/{made['id']}/{path}").status_code == 404


def test_the_commands_import_a_folder_and_export_it_back(owner, tmp_path):
    out = io.StringIO()
    call_command("import-bundle", str(EXAMPLES), "--user", owner.username, "--main", "context-files.yaml", stdout=out)
    workflow_id = int(out.getvalue().split("\t", 1)[0])
    target = tmp_path / "out.zip"
    call_command("export-bundle", str(workflow_id), "-o", str(target), stdout=io.StringIO())
    with zipfile.ZipFile(target) as zf:
        names = set(zf.namelist())
        assert zf.read("context-files.yaml") == (EXAMPLES / "context-files.yaml").read_bytes()
    assert {"fixtures/sample.png", "workflows/deploy.yaml"} <= names


@pytest.mark.django_db(transaction=True)
def test_folder_workflows_run_with_their_includes_and_context_files(owner_client):
    made = {w["main_path"]: w for w in upload(owner_client, examples_zip(), main="*").json()["workflows"]}
    reuse = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": made["include-reuse.yaml"]["id"], "provider": "simulated"})
    assert reuse.status_code == 201, reuse.content
    finished = wait_for(owner_client, reuse.json()["id"], timeout=60)
    assert finished["status"] == "completed", finished["reason"]
    events = owner_client.get(f"/api/v1/runs/{finished['id']}/events").json()
    ended = {e["stepId"] for e in events if e["type"] == "step_end"}
    deploy = yaml.safe_load((EXAMPLES / "workflows/deploy.yaml").read_text())
    inner = [s["id"] for s in deploy["steps"]]
    assert {f"deploy-staging.{i}" for i in inner} <= ended and {f"deploy-production.{i}" for i in inner} <= ended

    context = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": made["context-files.yaml"]["id"], "provider": "simulated"})
    finished = wait_for(owner_client, context.json()["id"], timeout=60)
    assert finished["status"] == "completed", finished["reason"]
    events = owner_client.get(f"/api/v1/runs/{finished['id']}/events").json()
    prompts = [e["data"]["prompt"]["user"] for e in events
               if e["type"] == "agent_turn" and e["stepId"] == "analyze-text" and e["data"].get("prompt")]
    assert prompts and (EXAMPLES / "fixtures/context.txt").read_text().strip() in prompts[0]


def put_file(client, workflow_id, **body):
    return client.put(f"/api/v1/workflows/{workflow_id}/file", data=json.dumps(body), content_type="application/json")


def test_files_are_written_renamed_and_deleted_as_new_versions_rechecked(owner_client, stranger_client):
    made = upload(owner_client, examples_zip(), main="include-reuse.yaml").json()["workflows"][0]
    wid = made["id"]
    blobs = FileBlob.objects.count()
    edited = put_file(owner_client, wid, path="prompts/coder.md", text="You write code. Carefully.\n")
    assert edited.status_code == 200 and edited.json()["version"] == 2 and edited.json()["valid"] is True
    assert FileBlob.objects.count() == blobs + 1  # one new file's content; the other files are shared
    read = owner_client.get(f"/api/v1/workflows/{wid}/file", {"path": "prompts/coder.md"}).json()
    assert read["text"] == "You write code. Carefully.\n"
    assert owner_client.get(f"/api/v1/workflows/{wid}/file", {"path": "prompts/coder.md", "version": 1}).json()["text"] \
        == (EXAMPLES / "prompts/coder.md").read_text()

    # Moving the included file away breaks the include: the version says so, naming the file.
    moved = put_file(owner_client, wid, path="workflows/deploy.yaml", rename_to="old/deploy.yaml")
    assert moved.status_code == 200 and moved.json()["valid"] is False
    errors = owner_client.get(f"/api/v1/workflows/{wid}").json()["errors"]
    assert any(e["code"] == "include_not_found" and "workflows/deploy.yaml" in e["message"] for e in errors)
    back = put_file(owner_client, wid, path="old/deploy.yaml", rename_to="workflows/deploy.yaml")
    assert back.json()["valid"] is True
    image = put_file(owner_client, wid, path="fixtures/new.png", base64="iVBORw0KGgo=")
    assert owner_client.get(f"/api/v1/workflows/{wid}/file", {"path": "fixtures/new.png"}).json() == {
        "path": "fixtures/new.png", "size": 8, "text": None, "truncated": False}
    assert image.status_code == 200
    gone = put_file(owner_client, wid, path="fixtures/sample.png", delete=True)
    assert "fixtures/sample.png" not in [f["path"] for f in gone.json()["files"]]

    for body, words in (({"path": "../x.md", "text": "x"}, "'..'"), ({"path": "include-reuse.yaml", "text": "x"}, "main document"),
                        ({"path": "nope.md", "delete": True}, "no file 'nope.md'"), ({"path": "a.md"}, "give `text`"),
                        ({"path": "a.png", "base64": "%%"}, "not valid base64")):
        refused = put_file(owner_client, wid, **body)
        assert refused.status_code == 400 and words in refused.json()["detail"], refused.content
    assert put_file(stranger_client, wid, path="a.md", text="x").status_code == 404


def test_live_validation_resolves_in_the_workflows_folder(owner_client, stranger_client):
    made = upload(owner_client, examples_zip(), main="include-reuse.yaml").json()["workflows"][0]
    source = (EXAMPLES / "include-reuse.yaml").read_text()

    def check(c, text, **extra):
        return c.post("/api/v1/validate", data=json.dumps({"source": text, **extra}), content_type="application/json")
    assert check(owner_client, source, workflow_id=made["id"]).json()["valid"] is True
    broken = source.replace('deploy: "workflows/deploy.yaml"', 'deploy: "workflows/gone.yaml"')
    answer = check(owner_client, broken, workflow_id=made["id"]).json()
    assert answer["valid"] is False
    assert any(e["code"] == "include_not_found" and "workflows/gone.yaml" in e["message"] for e in answer["errors"])
    # Without a workflow the document alone is checked, as before; someone else's folder is not there to read.
    assert check(owner_client, broken).json()["valid"] is True
    assert check(stranger_client, broken, workflow_id=made["id"]).status_code == 404


def test_each_include_says_whether_a_folder_file_or_a_saved_workflow_runs_it(owner_client):
    files = {
        "main.yaml": b"name: main\nincludes:\n  deploy: workflows/deploy.yaml\nsteps:\n"
                     b"  - id: local\n    include: parts/build.yaml\n"
                     b"  - id: shared\n    include: deploy\n"
                     b"  - id: each\n    loop:\n      maxIterations: 2\n      until: 'true'\n      steps:\n"
                     b"        - id: nowhere\n          include: gone.yaml\n",
        "parts/build.yaml": b"name: build\nsteps:\n  - id: b\n    instructions: Build.\n",
    }
    made = upload(owner_client, zipped(files), main="main.yaml").json()["workflows"][0]
    saved = owner_client.post("/api/v1/workflows", data=json.dumps({"source": "name: deploy\nsteps:\n  - id: d\n    instructions: Go.\n"}),
                              content_type="application/json").json()
    targets = {t["step"]: t for t in owner_client.get(f"/api/v1/workflows/{made['id']}/includes").json()}
    assert targets["local"] == {"path": "/steps/0", "step": "local", "ref": "parts/build.yaml", "kind": "file", "file": "parts/build.yaml"}
    assert targets["shared"]["kind"] == "saved" and targets["shared"]["workflow_id"] == saved["id"]
    assert (targets["shared"]["name"], targets["shared"]["version"], targets["shared"]["valid"]) == ("deploy", 1, True)
    assert targets["nowhere"]["kind"] == "missing" and targets["nowhere"]["path"] == "/steps/2/loop/steps/0"
    assert "gone.yaml" in targets["nowhere"]["message"]

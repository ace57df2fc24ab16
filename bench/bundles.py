"""Workflows as folders at size, through a real server (daphne, SQLite, a temporary data folder).

1. Save a new version of a 200-file workflow with one file changed (PUT /workflows/{id}/file), beside the
   baseline of saving a one-file workflow's document (PUT /workflows/{id}); and the stored bytes each save
   adds (target: <= 50 ms, and no copy of the 199 unchanged files).
2. Validate a workflow with 5 levels of includes in its folder (the main document's check plus the folder's
   references), beside the baseline of the main document's check alone (target: <= 30 ms).
3. An MCP tool call round trip over stdio (sandboxed, as in a run) beside calling the same function directly,
   and the server's start and stop (``bench/mcp.py``, also runnable alone).

Prints p50 and p95 of each with the load average; asserts nothing about time.
"""
from __future__ import annotations

import io
import os
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.common import timings  # noqa: E402
from tests.support.servers import base_env, running_server  # noqa: E402

FILES = 200
LEVELS = 5
MAIN = "name: big\nagents:\n  w: {description: Works., prompt: '@prompts/p0.md'}\nsteps:\n" + "".join(
    f"  - id: s{i}\n    agent: w\n    instructions: '@steps/s{i}.md'\n    contextFiles: ['docs/d{i}.txt']\n"
    for i in range(60))


def p50_p95(samples: list[float]) -> str:
    ordered = sorted(samples)
    return f"p50 {ordered[len(ordered) // 2] * 1000:7.2f} ms   p95 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000:7.2f} ms"


def big_folder() -> dict[str, bytes]:
    files = {"big.yaml": MAIN.encode()}
    files.update({f"steps/s{i}.md": f"Do part {i} of the job.\n".encode() * 40 for i in range(60)})
    files.update({f"docs/d{i}.txt": f"Context {i}.\n".encode() * 400 for i in range(60)})
    files.update({f"prompts/p{i}.md": f"You are worker {i}.\n".encode() * 20 for i in range(FILES - 1 - 120)})
    assert len(files) == FILES
    return files


def nested_includes() -> tuple[str, dict[str, bytes]]:
    files = {}
    for level in range(LEVELS, 0, -1):
        inner = f"  - id: deeper\n    include: l{level + 1}/flow.yaml\n" if level < LEVELS else ""
        path = "/".join(f"l{n}" for n in range(1, level + 1)) + "/flow.yaml"
        files[path] = (f"name: level{level}\nagents:\n  w: {{description: Works.}}\nsteps:\n"
                       f"  - id: work\n    agent: w\n    instructions: '@task.md'\n{inner}").encode()
        files[path.rsplit("/", 1)[0] + "/task.md"] = f"Level {level}.\n".encode()
    main = "name: nested\nsteps:\n  - id: top\n    include: l1/flow.yaml\n"
    return main, files


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return buffer.getvalue()


def stored_bytes() -> int:
    from django.db.models import Sum

    from designer.models import FileBlob

    return int(FileBlob.objects.aggregate(total=Sum("size"))["total"] or 0)


def saves(client) -> None:
    created = client.post("/workflows/import-bundle", files={"file": ("big.zip", zipped(big_folder()), "application/zip")})
    assert created.status_code == 201, created.text
    wid = created.json()["workflows"][0]["id"]
    one = client.post("/workflows", json={"source": MAIN}).json()["id"]
    counter = iter(range(10**9))

    def save_file() -> None:
        r = client.put(f"/workflows/{wid}/file", json={"path": "prompts/p3.md", "text": f"Edited {next(counter)}.\n"})
        assert r.status_code == 200, r.text

    def save_document() -> None:
        r = client.put(f"/workflows/{one}", json={"source": MAIN + f"# save {next(counter)}\n"})
        assert r.status_code == 200, r.text

    def save_folder_document() -> None:
        r = client.put(f"/workflows/{wid}", json={"source": MAIN + f"# save {next(counter)}\n"})
        assert r.status_code == 200, r.text

    repeat = 60
    before = stored_bytes()
    base = timings(save_document, repeat)
    doc_bytes = stored_bytes() - before
    before = stored_bytes()
    edit = timings(save_file, repeat)
    file_bytes = stored_bytes() - before
    folder_doc = timings(save_folder_document, repeat)
    folder = sum(len(d) for d in big_folder().values())
    print(f"  save the document of a one-file workflow (baseline)   {p50_p95(base)}")
    print(f"  save a {FILES}-file folder with one file changed        {p50_p95(edit)}   (target <= 50 ms)")
    print(f"  save the main document of the {FILES}-file folder         {p50_p95(folder_doc)}")
    print(f"  file bytes stored by {repeat + 3} folder saves: {file_bytes:,} (the folder is {folder:,} bytes; "
          f"a copy per save would be {folder * (repeat + 3):,}); by the one-file saves: {doc_bytes:,}")


def validation() -> None:
    from designer.documents import load_source
    from designer.folders import MemoryFolder
    from designer.resolve import resolve_references

    main, files = nested_includes()
    folder = MemoryFolder(files)
    found = resolve_references(load_source(main).document, folder, "main.yaml")
    assert not found.diagnostics and len(found.files) == 2 * LEVELS, (found.diagnostics, found.files)

    def alone() -> None:
        load_source(main)

    def with_folder() -> None:
        loaded = load_source(main)
        resolve_references(loaded.document, folder, "main.yaml")

    repeat = 300
    print(f"  check the main document alone (baseline)              {p50_p95(timings(alone, repeat))}")
    print(f"  check it with {LEVELS} levels of includes in its folder     {p50_p95(timings(with_folder, repeat))}   (target <= 30 ms)")


def main() -> None:
    env = base_env()
    os.environ["DESIGNER_DATA_DIR"] = env["DESIGNER_DATA_DIR"]
    import logging

    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with running_server(env, users=("owner",)) as server, server.client("owner") as client:
        print("Saving versions (daphne on loopback, SQLite):")
        saves(client)
    print("Validating includes (in process):")
    validation()
    print("MCP tool calls (bench/mcp.py):")
    from bench import mcp as mcp_bench

    mcp_bench.main()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

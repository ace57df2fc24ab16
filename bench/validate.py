"""Validation speed: 1-, 10- and 100-step documents (loops included),
through the Python API and through POST /api/v1/validate on a real server.

Target: a 100-step document under 20 ms median through the API.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import httpx

from bench.common import live_server, summary, timings, workflow
from designer.documents import dump_yaml, load_source, validate_document

SIZES = (1, 10, 100)


def main() -> None:
    print("Python API")
    for n in SIZES:
        doc = workflow(n)
        text = dump_yaml(doc)
        assert validate_document(doc).valid and load_source(text).valid
        print(f"  validate_document {n:>3} steps: {summary(timings(lambda doc=doc: validate_document(doc), 200))}")
        print(f"  load_source (YAML) {n:>2} steps: {summary(timings(lambda text=text: load_source(text), 200))}")

    print("POST /api/v1/validate (daphne on loopback, keep-alive client)")
    # Anonymous /validate is rate-limited per address (ANON_RATE): lifted here, the bench measures the work.
    with live_server({"ANON_RATE": "100000/min"}) as base, httpx.Client(base_url=base, timeout=30) as client:
        for n in SIZES:
            doc = workflow(n)
            text = dump_yaml(doc)
            for label, body in (("document", {"document": doc}), ("source  ", {"source": text})):
                def call(body=body):
                    response = client.post("/api/v1/validate", json=body)
                    assert response.status_code == 200 and response.json()["valid"], response.text[:300]
                print(f"  {label} {n:>3} steps: {summary(timings(call, 100))}")


if __name__ == "__main__":
    main()

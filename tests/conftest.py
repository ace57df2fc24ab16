import os
import tempfile
from pathlib import Path

# Tests never touch the developer's data folder.
os.environ.setdefault("DESIGNER_DATA_DIR", tempfile.mkdtemp(prefix="designer-test-"))

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO.parent / "shared" / "zenflow-spec-v1"

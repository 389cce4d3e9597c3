"""Golden JSON files for rendered payloads, media summarised by `mediaparts.testing.summarize`.

The tests use the summary users get (`<image/png 256x256 34.6 KB sha256:1a2b3c>`), not a copy
of it. Set `MEDIAPARTS_UPDATE_GOLDEN=1` to rewrite the files from the current output instead
of comparing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mediaparts.testing import summarize

GOLDEN = Path(__file__).resolve().parent / "golden"


def check_golden(name: str, payload: Any) -> None:
    """Compare the summarised payload with `golden/<name>.json` (or rewrite it when asked)."""
    path = GOLDEN / f"{name}.json"
    # Through JSON, as the file holds it: summarize keeps tuples, the file has lists.
    summary = json.loads(json.dumps(summarize(payload), ensure_ascii=False))
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", "utf-8")
    assert path.is_file(), f"no golden file {path}: run with MEDIAPARTS_UPDATE_GOLDEN=1"
    expected = json.loads(path.read_text("utf-8"))
    assert summary == expected, (
        f"rendered payload differs from {path.relative_to(GOLDEN.parent.parent)}; if the change "
        "is intended, rerun with MEDIAPARTS_UPDATE_GOLDEN=1 and review the diff"
    )


def check_golden_text(name: str, text: str) -> None:
    """Compare text with `golden/<name>.txt` (or rewrite it when asked)."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", "utf-8")
    assert path.is_file(), f"no golden file {path}: run with MEDIAPARTS_UPDATE_GOLDEN=1"
    assert text + "\n" == path.read_text("utf-8"), (
        f"text differs from {path.relative_to(GOLDEN.parent.parent)}; if the change is "
        "intended, rerun with MEDIAPARTS_UPDATE_GOLDEN=1 and review the diff"
    )

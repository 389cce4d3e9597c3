"""Golden JSON files for rendered payloads, with media bytes summarised so they stay readable.

`summarize` replaces raw bytes, data URIs and long base64 strings with descriptors such as
`<image/png 256x256 34567 B sha256:1a2b3c4d>`. Set `MEDIAPARTS_UPDATE_GOLDEN=1` to rewrite the
files from the current output instead of comparing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import mediaparts as mp

GOLDEN = Path(__file__).resolve().parent / "golden"
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_DATA_URI = re.compile(r"data:([^;,]+);base64,(.*)", re.DOTALL)


def describe(raw: bytes) -> str:
    """Return a one-line descriptor of media bytes: type, pixel size for images, size, hash."""
    media_type = mp.detect(raw).media_type
    size = ""
    if media_type.startswith("image/"):
        from PIL import Image

        with Image.open(io.BytesIO(raw)) as image:
            size = f" {image.width}x{image.height}"
    digest = hashlib.sha256(raw).hexdigest()[:8]
    return f"<{media_type}{size} {len(raw)} B sha256:{digest}>"


def _decoded(text: str) -> bytes | None:
    if len(text) < 64 or len(text) % 4 or not _BASE64.fullmatch(text):
        return None
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        return None


def summarize(value: Any) -> Any:
    """Return `value` as plain JSON with every piece of media replaced by its descriptor."""
    if isinstance(value, bytes | bytearray):
        return describe(bytes(value))
    if isinstance(value, str):
        match = _DATA_URI.fullmatch(value)
        if match:
            raw = _decoded(match.group(2))
            if raw is not None:
                return f"data:{match.group(1)};base64,{describe(raw)}"
        raw = _decoded(value)
        return describe(raw) if raw is not None else value
    if isinstance(value, dict):
        return {key: summarize(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [summarize(item) for item in value]
    return value


def check_golden(name: str, payload: Any) -> None:
    """Compare the summarised payload with `golden/<name>.json` (or rewrite it when asked)."""
    path = GOLDEN / f"{name}.json"
    summary = summarize(payload)
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", "utf-8")
    assert path.is_file(), f"no golden file {path}: run with MEDIAPARTS_UPDATE_GOLDEN=1"
    expected = json.loads(path.read_text("utf-8"))
    assert summary == expected, (
        f"rendered payload differs from {path.relative_to(GOLDEN.parent.parent)}; if the change "
        "is intended, rerun with MEDIAPARTS_UPDATE_GOLDEN=1 and review the diff"
    )

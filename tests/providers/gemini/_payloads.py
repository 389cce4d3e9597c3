"""Small Gemini payload pieces the tests of this package share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# An 8x8 PNG (the corpus's), and a signature as Gemini writes one (base64 of opaque bytes).
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAE0lEQVR4nGP8f4IBK2DCLjxYJQBoAAHX62mt7gAAAABJ"
    "RU5ErkJggg=="
)
SIGNATURE = "CtwBAdHtim9Yq0c3WQ5kVx0+2bnzUjLVgEbIHo/BvZ5YhMVtl8Q="
CORPUS = Path(__file__).resolve().parents[2] / "conversations" / "corpus" / "gemini"
REQUESTS = sorted((CORPUS / "requests").glob("*.json"))
RESPONSES = sorted((CORPUS / "responses").glob("*.json"))


def load(path: Path) -> Any:
    """Return a corpus file's JSON."""
    return json.loads(path.read_text(encoding="utf-8"))


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    """Return a body with one user Content of `parts`."""
    return {"contents": [{"role": "user", "parts": list(parts)}]}


def model(*parts: dict[str, Any]) -> dict[str, Any]:
    """Return a body with a user question, then one model Content of `parts`."""
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "Go."}]},
            {"role": "model", "parts": list(parts)},
        ]
    }

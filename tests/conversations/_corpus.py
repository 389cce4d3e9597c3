"""The corpus of real request payloads and responses, written from each SDK's types and docs.

`corpus/<provider>/requests/*.json` are keyword arguments of the SDK call (the conversation
keys that `render` returns, sometimes with `model`, `max_tokens` or `tools` beside them);
`corpus/<provider>/responses/*.json` are response objects as the SDK returns them, dumped.
JSON has no bytes: Bedrock's blobs (`bytes`, `redactedContent`) are written as base64 text
and decoded here, as boto3 takes them. Media URLs are `https://media.example/<name>`, served
from `testdata/` by the tests.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from tests._builders import TESTDATA

CORPUS = Path(__file__).parent / "corpus"
PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock", "mistral")
# A user's provider on each built-in's wire, with its rules (registered by conftest.py).
TWINS = {provider: f"{provider}-twin" for provider in PROVIDERS}
# The built-in whose SDK and corpus folder a name (a built-in or its twin) goes by.
SHAPE = {**{p: p for p in PROVIDERS}, **{twin: p for p, twin in TWINS.items()}}
MEDIA_HOST = "https://media.example/"

# Bedrock fields of blob type (botocore's bedrock-runtime model): bytes for boto3.
_BEDROCK_BLOBS = frozenset({"bytes", "redactedContent"})


def _blobs(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: base64.b64decode(v) if k in _BEDROCK_BLOBS and isinstance(v, str) else _blobs(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_blobs(v) for v in value]
    return value


def load(path: Path) -> dict[str, Any]:
    """Return one corpus file, with Bedrock's blobs as bytes."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return _blobs(data) if path.parent.parent.name == "bedrock" else data


def cases(kind: str) -> list[tuple[str, str]]:
    """Return (provider, file name) of every corpus file of a kind ("requests", "responses")."""
    return [
        (provider, path.name)
        for provider in PROVIDERS
        for path in sorted((CORPUS / provider / kind).glob("*.json"))
    ]


def path_of(provider: str, kind: str, name: str) -> Path:
    return CORPUS / provider / kind / name


def media_files() -> dict[str, Path]:
    """Map each media URL a corpus file may use to the testdata file it serves."""
    return {
        MEDIA_HOST + path.name: path
        for path in TESTDATA.iterdir()
        if path.is_file() and path.suffix not in (".py", ".md")
    }

"""Which file stores a `fileData.fileUri` may name, for the provider served.

A `fileUri` is a page on the web (which the API fetches), or a file in a store: the Files API
(`files.upload` answers `https://generativelanguage.googleapis.com/v1beta/files/<id>`, also
written `files/<id>`), or a Cloud Storage object (`gs://bucket/key`)
(ai.google.dev/gemini-api/docs/files; docs.cloud.google.com/vertex-ai/generative-ai/docs/
model-reference/inference, both read 2026-12). Not every endpoint of this shape reads every
store, so the provider says which it reads (the `file_uris` quirk, URI prefixes); `render`
refuses a part stored elsewhere and `check` flags a `fileUri` naming one. A provider without
the quirk reads any store.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mediaparts._errors import UnsupportedMediaType, excerpt
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._media_sites import Problems
from mediaparts.providers._wire._rendering import Served

__all__ = ["FILES_API", "FILE_URIS", "WEB", "file_uri_problems", "stored_elsewhere"]

FILES_API = "https://generativelanguage.googleapis.com/"
WEB = ("https://", "http://")
# The quirk: the URI prefixes of the stores the provider reads (`("gs://",)`).
FILE_URIS = "file_uris"


def _foreign(uri: str, served: Served) -> bool:
    """Tell whether `uri` names a stored file outside the stores the provider reads."""
    prefixes = served.quirks.get(FILE_URIS)
    if prefixes is None:
        return False
    web = uri.startswith(WEB) and not uri.startswith(FILES_API)
    return not web and not uri.startswith(tuple(prefixes))


def _reads(served: Served) -> str:
    return ", ".join(served.quirks.get(FILE_URIS, ())) or "none"


def stored_elsewhere(item: NormalizedPart, served: Served) -> UnsupportedMediaType | None:
    """Return the error for a part referenced in a store the provider does not read, or None."""
    uri = item.file_id
    if uri is None or not _foreign(uri, served):
        return None
    return UnsupportedMediaType(
        f"{served.name} reads no file {excerpt(uri)}: it reads stored files only from "
        f"{_reads(served)}; give the file's bytes, or store it there",
        media_type=item.media_type,
        provider=served.name,
    )


def file_uri_problems(payload: Any, served: Served) -> Problems:
    """Return a problem for each `fileData` of the contents naming a store the provider does not
    read (the parts of each content, and those nested in a `functionResponse`)."""
    if served.quirks.get(FILE_URIS) is None or not isinstance(payload, dict | list):
        return []
    root = "$" if isinstance(payload, list) else "$.contents"
    contents = payload.get("contents") if isinstance(payload, dict) else payload
    problems: Problems = []
    for at, uri in _file_uris(contents, root):
        if _foreign(uri, served):
            problems.append(
                (
                    at,
                    "file.uri",
                    f"{served.name} reads stored files only from {_reads(served)}, not "
                    f"{excerpt(uri)}",
                )
            )
    return problems


def _file_uris(contents: Any, root: str) -> Iterator[tuple[str, str]]:
    """Yield the path and URI of each `fileData` in the contents, in either spelling."""
    if not isinstance(contents, list):
        return
    for i, content in enumerate(contents):
        parts = content.get("parts") if isinstance(content, dict) else None
        yield from _in_parts(parts, f"{root}[{i}].parts")


def _in_parts(parts: Any, at: str) -> Iterator[tuple[str, str]]:
    if not isinstance(parts, list):
        return
    for j, part in enumerate(parts):
        if not isinstance(part, dict):
            continue
        where = f"{at}[{j}]"
        for key in ("fileData", "file_data"):
            data = part.get(key)
            if isinstance(data, dict):
                uri = data.get("fileUri", data.get("file_uri"))
                if isinstance(uri, str):
                    spelled = "fileUri" if "fileUri" in data else "file_uri"
                    yield f"{where}.{key}.{spelled}", uri
        for key in ("functionResponse", "function_response"):
            inner = part.get(key)
            if isinstance(inner, dict):
                yield from _in_parts(inner.get("parts"), f"{where}.{key}.parts")

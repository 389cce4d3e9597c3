"""`check`: validate an already rendered payload offline, against a provider's rules.

The walker recognises every media block shape the five APIs use, wherever it is nested (tool
results included), decodes its bytes, and checks them the way the provider would: the type
the bytes really are, whether it is accepted, its size as the provider measures it, image
dimensions, counts per request, request size and Bedrock's document-name rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mediaparts._errors import InvalidMedia
from mediaparts._imageinfo import image_size
from mediaparts._sources import b64decode, parse_data_uri
from mediaparts.detection import canonical_media_type, detect, kind_of, media_type_from_filename
from mediaparts.providers import Provider, get
from mediaparts.providers._rules import base64_size

__all__ = ["Violation", "check"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One way a payload breaks a provider's rules.

    Attributes:
        path: JSON path of the offending value, e.g. `$.messages[0].content[1].source.data`.
        rule: Which rule, e.g. `"image.media_type"`, `"image.max_bytes"`, `"request.max_bytes"`.
        message: What is wrong, in words.
    """

    path: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message} ({self.rule})"


@dataclass(frozen=True, slots=True)
class _Site:
    path: str
    kind: str
    declared: str | None
    data: bytes | None = None
    url: str | None = None
    name: str | None = None


# Bedrock's format names (botocore ImageFormat, DocumentFormat, VideoFormat, AudioFormat) that
# are not simply the media type's subtype.
_BEDROCK_FORMATS = {
    "jpeg": "image/jpeg",
    "txt": "text/plain",
    "md": "text/markdown",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "mov": "video/quicktime",
    "mkv": "video/x-matroska",
    "flv": "video/x-flv",
    "wmv": "video/x-ms-wmv",
    "mpg": "video/mpeg",
    "three_gp": "video/3gpp",
    "mp3": "audio/mpeg",
    "m4a": "audio/mp4",
    "mka": "audio/x-matroska",
}
# Bedrock DocumentBlock.name: alphanumerics, single spaces, hyphens, parentheses, brackets.
_BEDROCK_NAME = re.compile(r"^(?!.*\s\s)[A-Za-z0-9\s\-()\[\]]{1,200}$")


def _bedrock_type(kind: str, fmt: Any) -> str | None:
    if not isinstance(fmt, str):
        return None
    if fmt in _BEDROCK_FORMATS:
        return _BEDROCK_FORMATS[fmt]
    top = {"image": "image", "video": "video", "audio": "audio"}.get(kind, "application")
    return canonical_media_type(f"{top}/{fmt}")


def _decode(value: Any, path: str, problems: list[tuple[str, str, str]]) -> bytes | None:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        try:
            return b64decode(value)
        except InvalidMedia as exc:
            problems.append((path, "payload.base64", str(exc)))
    return None


def _sites(node: Any, path: str, problems: list[tuple[str, str, str]]) -> Iterator[_Site]:
    """Yield every media block in a rendered payload, with its JSON path."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from _sites(item, f"{path}[{i}]", problems)
        return
    if not isinstance(node, dict):
        return
    site = _site(node, path, problems)
    if site is not None:
        yield site
        return
    for key, value in node.items():
        yield from _sites(value, f"{path}.{key}", problems)


def _from_url_text(kind: str, text: Any, path: str, problems: list[tuple[str, str, str]]) -> _Site:
    if isinstance(text, str) and text[:5].lower() == "data:":
        try:
            uri = parse_data_uri(text)
        except InvalidMedia as exc:
            problems.append((path, f"{kind}.data_uri", str(exc)))
            return _Site(path, kind, None)
        return _Site(path, kind, uri.media_type, data=uri.data)
    url = text if isinstance(text, str) else None
    guess = media_type_from_filename(url) if url else None
    return _Site(path, kind, guess, url=url)


def _site(node: dict[str, Any], path: str, problems: list[tuple[str, str, str]]) -> _Site | None:
    kind_tag = node.get("type")
    # OpenAI Chat Completions and Responses.
    if kind_tag == "image_url" and isinstance(node.get("image_url"), dict):
        return _from_url_text(
            "image", node["image_url"].get("url"), f"{path}.image_url.url", problems
        )
    if kind_tag == "input_image" and "image_url" in node:
        return _from_url_text("image", node.get("image_url"), f"{path}.image_url", problems)
    if kind_tag == "input_audio" and isinstance(node.get("input_audio"), dict):
        spec = node["input_audio"]
        where = f"{path}.input_audio.data"
        declared = f"audio/{spec.get('format')}" if spec.get("format") else None
        declared = canonical_media_type(declared) if declared else None
        return _Site(where, "audio", declared, data=_decode(spec.get("data"), where, problems))
    if kind_tag in ("file", "input_file"):
        spec = node.get("file", node) if kind_tag == "file" else node
        if isinstance(spec, dict) and spec.get("file_data") is not None:
            where = f"{path}{'.file' if kind_tag == 'file' else ''}.file_data"
            site = _from_url_text("file", spec["file_data"], where, problems)
            if site.data is None and site.url is not None:  # bare base64
                site = _Site(where, "file", None, data=_decode(spec["file_data"], where, problems))
            return site
    # Anthropic.
    if kind_tag in ("image", "document") and isinstance(node.get("source"), dict):
        source = node["source"]
        kind = "image" if kind_tag == "image" else "file"
        if source.get("type") == "base64":
            where = f"{path}.source.data"
            declared = source.get("media_type")
            return _Site(where, kind, declared, data=_decode(source.get("data"), where, problems))
        if source.get("type") == "url":
            return _from_url_text(kind, source.get("url"), f"{path}.source.url", problems)
        return None
    # Gemini (REST camelCase and SDK snake_case).
    inline = node.get("inlineData", node.get("inline_data"))
    if isinstance(inline, dict):
        where = f"{path}.{'inlineData' if 'inlineData' in node else 'inline_data'}.data"
        declared = inline.get("mimeType", inline.get("mime_type"))
        kind = kind_of(canonical_media_type(declared)) if isinstance(declared, str) else "file"
        return _Site(where, kind, declared, data=_decode(inline.get("data"), where, problems))
    # Bedrock Converse.
    for key, kind in (
        ("image", "image"),
        ("document", "file"),
        ("video", "video"),
        ("audio", "audio"),
    ):
        block = node.get(key)
        if isinstance(block, dict) and isinstance(block.get("source"), dict):
            source = block["source"]
            if "bytes" not in source:
                return None
            where = f"{path}.{key}.source.bytes"
            declared = _bedrock_type(kind, block.get("format"))
            data = _decode(source.get("bytes"), where, problems)
            name = None
            if kind == "file":  # a document's name is required and has rules of its own
                given = block.get("name")
                name = given if isinstance(given, str) else ""
            return _Site(where, kind, declared, data=data, name=name)
    return None


def check(
    payload: dict[str, Any], provider: str | Provider, *, model: str | None = None
) -> list[Violation]:
    """Validate a rendered payload offline and return what breaks the provider's rules.

    Args:
        payload: What `mp.render` returned (or any payload of that provider's shape).
        provider: The provider name or a `Provider` (with its rules, overrides included).
        model: The model; reserved for model-dependent limits.

    Returns:
        The violations, each with the JSON path of the offending value; empty when it fits.
    """
    del model  # no model-dependent limit is checked yet
    chosen = get(provider)
    rules = chosen.rules
    problems: list[tuple[str, str, str]] = []
    counts: dict[str, int] = {}
    for site in _sites(payload, "$", problems):
        kind_rules = rules.for_kind(site.kind)
        label = "document" if site.kind == "file" else site.kind
        counts[site.kind] = counts.get(site.kind, 0) + 1
        if kind_rules.max_count is not None and counts[site.kind] == kind_rules.max_count + 1:
            problems.append(
                (
                    site.path,
                    f"{label}.max_count",
                    f"more than {kind_rules.max_count} {label}s in one request",
                )
            )
        if site.name is not None and not _BEDROCK_NAME.match(site.name):
            problems.append(
                (
                    site.path,
                    "document.name",
                    f"document name {site.name!r} breaks Bedrock's rules (1-200 "
                    "letters, digits, single spaces, hyphens, parentheses, brackets)",
                )
            )
        if site.url is not None:
            if not kind_rules.url_types:
                problems.append(
                    (
                        site.path,
                        f"{label}.url",
                        f"{chosen.name} does not fetch {label} URLs; send the bytes",
                    )
                )
            continue
        if site.data is None:
            continue
        found = detect(site.data, declared=site.declared)
        declared = canonical_media_type(site.declared) if site.declared else None
        if declared and found.source == "magic" and found.media_type != declared:
            problems.append(
                (
                    site.path,
                    f"{label}.media_type",
                    f"declared {declared} but the bytes are {found.media_type}",
                )
            )
        actual = found.media_type if found.source == "magic" else (declared or found.media_type)
        accepted = kind_rules.media_types + getattr(kind_rules, "text_types", ())
        if actual not in accepted:
            problems.append(
                (
                    site.path,
                    f"{label}.media_type",
                    f"{chosen.name} does not accept {actual} {label}s",
                )
            )
        if not kind_rules.fits(len(site.data)):
            how = "base64 " if kind_rules.measure == "base64" else ""
            problems.append(
                (
                    site.path,
                    f"{label}.max_bytes",
                    f"{kind_rules.measured(len(site.data)):,} {how}bytes, over the "
                    f"limit of {kind_rules.max_bytes:,}",
                )
            )
        if site.kind == "image":
            size = image_size(site.data, actual)
            limits = (rules.image.max_width, rules.image.max_height)
            if size is not None and any(
                lim is not None and dim > lim for dim, lim in zip(size, limits, strict=True)
            ):
                problems.append(
                    (
                        site.path,
                        "image.dimensions",
                        f"{size[0]}x{size[1]} px is over the limit of {limits[0]}x{limits[1]}",
                    )
                )
    if rules.max_request_bytes is not None:
        total = _request_size(payload)
        if total > rules.max_request_bytes:
            problems.append(
                (
                    "$",
                    "request.max_bytes",
                    f"the request is about {total:,} bytes, over the limit of "
                    f"{rules.max_request_bytes:,}",
                )
            )
    return [Violation(path, rule, message) for path, rule, message in problems]


def _request_size(payload: dict[str, Any]) -> int:
    """Estimate the request's size on the wire, raw bytes counted as their base64 text."""

    def default(value: Any) -> Any:
        if isinstance(value, bytes | bytearray):
            return "x" * base64_size(len(value))
        raise TypeError(type(value).__name__)

    try:
        return len(json.dumps(payload, default=default, separators=(",", ":")).encode())
    except (TypeError, ValueError):
        return 0

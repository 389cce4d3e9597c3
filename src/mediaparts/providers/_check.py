"""`check`: validate an already rendered payload offline, against a provider's rules.

The walker recognises every media block shape the five APIs use, wherever it is nested (tool
results included), decodes its bytes, and checks them the way the provider would: the type
the bytes really are, whether it is accepted, its size as the provider measures it, image
dimensions, counts per request, request size and Bedrock's document-name rule.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mediaparts._errors import InvalidMedia
from mediaparts._sources import b64decode, is_data_uri, parse_data_uri
from mediaparts.detection import canonical_media_type, detect, kind_of, media_type_from_filename
from mediaparts.formats import image_size
from mediaparts.providers import Provider, bedrock, get
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


def _decode(value: Any, path: str, problems: list[tuple[str, str, str]]) -> bytes | None:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        try:
            return b64decode(value)
        except InvalidMedia as exc:
            problems.append((path, "payload.base64", str(exc)))
            return None
    problems.append((path, "payload.data", f"expected base64 text or bytes, got {value!r:.40}"))
    return None


_KEY_SHOWN = 40  # characters of a key shown in a path; a hostile key may be megabytes


@dataclass(frozen=True, slots=True)
class _Where:
    """A JSON path, built as a chain and spelled out only when a site or a problem needs it.

    Spelling every path out while walking costs the depth at every node (quadratic in the
    nesting); most nodes are never named.
    """

    parent: _Where | None
    step: str

    def __str__(self) -> str:
        steps: list[str] = []
        node: _Where | None = self
        while node is not None:
            steps.append(node.step)
            node = node.parent
        return "".join(reversed(steps))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _key_step(key: Any) -> str:
    text = str(key)
    return f".{text[:_KEY_SHOWN]}…" if len(text) > _KEY_SHOWN else f".{text}"


def _sites(payload: Any, problems: list[tuple[str, str, str]]) -> Iterator[_Site]:
    """Yield every media block in a rendered payload, with its JSON path, in document order."""
    # A stack, not recursion: a hostile payload nested thousands deep must not overflow it.
    stack: list[tuple[Any, _Where]] = [(payload, _Where(None, "$"))]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend(
                (item, _Where(where, f"[{i}]")) for i, item in reversed(list(enumerate(node)))
            )
            continue
        if not isinstance(node, dict):
            continue
        site = _site(node, where, problems)
        if site is not None:
            yield site
            continue
        stack.extend(
            (value, _Where(where, _key_step(key))) for key, value in reversed(list(node.items()))
        )


def _from_url_text(kind: str, text: Any, path: str, problems: list[tuple[str, str, str]]) -> _Site:
    if is_data_uri(text):
        try:
            uri = parse_data_uri(text)
        except InvalidMedia as exc:
            problems.append((path, f"{kind}.data_uri", str(exc)))
            return _Site(path, kind, None)
        return _Site(path, kind, uri.media_type, data=uri.data)
    url = text if isinstance(text, str) else None
    guess = media_type_from_filename(url) if url else None
    return _Site(path, kind, guess, url=url)


def _site(node: dict[str, Any], at: _Where, problems: list[tuple[str, str, str]]) -> _Site | None:
    kind_tag = node.get("type")
    # OpenAI Chat Completions and Responses.
    if kind_tag == "image_url" and isinstance(node.get("image_url"), dict):
        return _from_url_text(
            "image", node["image_url"].get("url"), f"{at}.image_url.url", problems
        )
    if kind_tag == "input_image" and "image_url" in node:
        return _from_url_text("image", node.get("image_url"), f"{at}.image_url", problems)
    if kind_tag == "input_audio" and isinstance(node.get("input_audio"), dict):
        spec = node["input_audio"]
        where = f"{at}.input_audio.data"
        declared = f"audio/{spec.get('format')}" if spec.get("format") else None
        declared = canonical_media_type(declared) if declared else None
        return _Site(where, "audio", declared, data=_decode(spec.get("data"), where, problems))
    if kind_tag in ("file", "input_file"):
        spec = node.get("file", node) if kind_tag == "file" else node
        if isinstance(spec, dict) and spec.get("file_data") is not None:
            where = f"{at}{'.file' if kind_tag == 'file' else ''}.file_data"
            site = _from_url_text("file", spec["file_data"], where, problems)
            if site.data is None and site.url is not None:  # bare base64
                site = _Site(where, "file", None, data=_decode(spec["file_data"], where, problems))
            return site
    # Anthropic.
    if kind_tag in ("image", "document") and isinstance(node.get("source"), dict):
        source = node["source"]
        kind = "image" if kind_tag == "image" else "file"
        if source.get("type") == "base64":
            where = f"{at}.source.data"
            declared = source.get("media_type")
            return _Site(where, kind, declared, data=_decode(source.get("data"), where, problems))
        if source.get("type") == "url":
            return _from_url_text(kind, source.get("url"), f"{at}.source.url", problems)
        return None
    # Gemini (REST camelCase and SDK snake_case).
    inline = node.get("inlineData", node.get("inline_data"))
    if isinstance(inline, dict):
        where = f"{at}.{'inlineData' if 'inlineData' in node else 'inline_data'}.data"
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
            given = block.get("name")
            name = (given if isinstance(given, str) else "") if kind == "file" else None
            if "bytes" not in source:
                # An S3 reference or a text document: counted and named, no bytes to check.
                text = kind == "file" and "text" in source
                return _Site(f"{at}.{key}", kind, None, name=name) if text else None
            where = f"{at}.{key}.source.bytes"
            declared = bedrock.media_type_of(kind, block.get("format"))
            data = _decode(source.get("bytes"), where, problems)
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
    if not isinstance(payload, dict):
        got = type(payload).__name__
        return [Violation("$", "payload.shape", f"a rendered payload is a dict, got {got}")]
    problems: list[tuple[str, str, str]] = []
    counts: dict[tuple[str, str], int] = {}
    for site in _sites(payload, problems):
        problems.extend(_site_problems(site, chosen, counts))
    limit = chosen.rules.max_request_bytes
    try:
        total = _request_size(payload)
    except RecursionError:
        # No SDK can encode it either (their JSON encoders recurse too): say so, not crash.
        message = "the payload is nested too deeply to be encoded as JSON"
        problems.append(("$", "payload.shape", message))
    except (TypeError, ValueError):
        total = 0  # values JSON cannot hold are the SDK's to refuse; the size is unknown
    else:
        if limit is not None and total > limit:
            message = f"the request is about {total:,} bytes, over the limit of {limit:,}"
            problems.append(("$", "request.max_bytes", message))
    return [Violation(path, rule, message) for path, rule, message in problems]


# The message a block belongs to, for limits that hold per message (Bedrock's 20 images).
_MESSAGE = re.compile(r"^\$\.(?:messages|contents|input)\[(\d+)\]")


def _site_problems(
    site: _Site, provider: Provider, counts: dict[tuple[str, str], int]
) -> Iterator[tuple[str, str, str]]:
    """Yield what is wrong with one media block."""
    rules = provider.rules.for_kind(site.kind)
    label = "document" if site.kind == "file" else site.kind
    scope = ""
    if rules.count_scope == "message" and (owner := _MESSAGE.match(site.path)):
        scope = owner.group(1)
    key = (site.kind, scope)
    counts[key] = counts.get(key, 0) + 1
    if rules.max_count is not None and counts[key] == rules.max_count + 1:
        where = "one message" if rules.count_scope == "message" else "one request"
        yield site.path, f"{label}.max_count", f"more than {rules.max_count} {label}s in {where}"
    if site.name is not None and not bedrock.VALID_NAME.match(site.name):
        yield (
            site.path,
            "document.name",
            f"document name {site.name!r} breaks Bedrock's rules (1-200 letters, digits, "
            "single spaces, hyphens, parentheses, brackets)",
        )
    if site.url is not None and not rules.url_types:
        yield site.path, f"{label}.url", f"{provider.name} does not fetch {label} URLs"
    if site.data is None:
        return
    declared = site.declared
    if declared is not None and not isinstance(declared, str):
        yield site.path, f"{label}.media_type", f"the declared media type {declared!r} is not text"
        declared = None
    found = detect(site.data, declared=declared)
    if declared and found.source == "magic" and found.media_type != canonical_media_type(declared):
        yield (
            site.path,
            f"{label}.media_type",
            f"declared {canonical_media_type(declared)} but the bytes are {found.media_type}",
        )
    actual = found.media_type if found.source == "magic" else (declared or found.media_type)
    actual = canonical_media_type(actual)
    if actual not in rules.media_types + getattr(rules, "text_types", ()):
        yield site.path, f"{label}.media_type", f"{provider.name} does not accept {actual} {label}s"
    if not rules.fits(len(site.data)):
        how = "base64 " if rules.measure == "base64" else ""
        yield (
            site.path,
            f"{label}.max_bytes",
            f"{rules.measured(len(site.data)):,} {how}bytes, over the limit of {rules.max_bytes:,}",
        )
    if site.kind == "image":
        yield from _image_problems(site.path, site.data, actual, provider)


def _image_problems(
    path: str, data: bytes, media_type: str, provider: Provider
) -> Iterator[tuple[str, str, str]]:
    image = provider.rules.image
    size = image_size(data, media_type)
    limits = (image.max_width, image.max_height)
    if size is not None and any(
        limit is not None and side > limit for side, limit in zip(size, limits, strict=True)
    ):
        over = f"{size[0]}x{size[1]} px is over the limit of {limits[0]}x{limits[1]}"
        yield path, "image.dimensions", over
    if not image.animated and _animated(data):
        yield path, "image.animated", f"{provider.name} takes still images; this one is animated"


def _animated(data: bytes) -> bool:
    """Tell whether an image has more than one frame (GIF, APNG, WebP), from its header."""
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # Only formats that animate, so an icon or TIFF is never decoded here.
            with Image.open(io.BytesIO(data), formats=("GIF", "PNG", "WEBP")) as img:
                return bool(getattr(img, "is_animated", False))
    except Exception:
        return False


def _request_size(payload: dict[str, Any]) -> int:
    """Estimate the request's size on the wire, raw bytes counted as their base64 text."""

    def default(value: Any) -> Any:
        if isinstance(value, bytes | bytearray):
            return "x" * base64_size(len(value))
        raise TypeError(type(value).__name__)

    return len(json.dumps(payload, default=default, separators=(",", ":")).encode())

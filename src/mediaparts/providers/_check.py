"""`check`: validate an already rendered payload offline, against a provider's rules.

The walker finds every media block wherever it is nested (tool results included), as each
registered provider module declares its block shapes (`media_site`), decodes its bytes, and
checks them the way the provider would: the type the bytes really are, whether it is accepted,
its size as the provider measures it, image dimensions, counts per request, request size, the
API's naming rule, and, given a model, the image detail levels that model takes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._conversation._messages import Message
from mediaparts._errors import MediaError, NoDocumentedRule, excerpt
from mediaparts.detection import canonical_media_type, detect
from mediaparts.fetching import offline
from mediaparts.formats import pdf_page_count
from mediaparts.imaging import image_size, is_animated
from mediaparts.providers._budgets._model_rows import check_model, unknown_row
from mediaparts.providers._registry import Provider, get, registered
from mediaparts.providers._render import render
from mediaparts.providers._rules import base64_size
from mediaparts.providers._wire._media_sites import Problems, Site, Where
from mediaparts.providers._wire._protocol import SiteReader

__all__ = ["Violation", "check"]

# Only MediaError leaves check (see Boundary).
_CHECKING = Boundary("checking a payload")


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


def _sites(payload: Any, readers: list[SiteReader], problems: Problems) -> Iterator[Site]:
    """Yield every media block in a rendered payload, with its JSON path, in document order.

    Each JSON object is offered to every provider's `media_site` in turn; the first that
    recognises it as a media block wins, and a block's own content is not walked further.
    """
    # A stack, not recursion: a hostile payload nested thousands deep must not overflow it.
    stack: list[tuple[Any, Where]] = [(payload, Where(None, "$"))]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend(
                (item, Where(where, f"[{i}]")) for i, item in reversed(list(enumerate(node)))
            )
            continue
        if not isinstance(node, dict):
            continue
        site = next((s for read in readers if (s := read(node, where, problems)) is not None), None)
        if site is not None:
            yield site
            continue
        stack.extend((value, where.key(key)) for key, value in reversed(list(node.items())))


def _readers(chosen: Provider) -> list[SiteReader]:
    """Return the block readers of the chosen provider, then of every other registered one.

    Blocks of another API in a payload are checked too (a payload mixing shapes is what a
    hand-edited or converted payload looks like); the chosen provider's reading comes first.
    """
    others = [p.media_site for p in registered() if p.name != chosen.name]
    return [chosen.media_site, *others]


def check(
    payload: dict[str, Any] | Sequence[Any],
    provider: str | Provider,
    *,
    model: str | None = None,
) -> list[Violation]:
    """Validate a rendered payload offline and return what breaks the provider's rules.

    Args:
        payload: What `mp.render` returned (or any payload of that provider's shape); or its
            message list alone (the list under `messages`, `contents` or `input`); or a list
            of `Message`s, such as history an application edited, checked as `render` would
            send it (rendered offline: media by URL that must be loaded raises
            `OfflineError`).
        provider: The provider name or a `Provider` (with its rules, overrides included).
        model: The model the payload is for. Its row of the provider's vision table decides
            which image `detail` levels are valid (`"original"` on gpt-5.4 but not on gpt-4o);
            None reads the payload's own string `"model"` key (the whole `create()` kwargs
            carry one); with neither, no detail level is checked, nor for a model the table
            does not know (an `UnknownModelWarning` says so).

    Returns:
        The violations, each with the JSON path of the offending value; empty when it fits.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: `model` is not a string.
    """
    try:
        chosen = get(provider)
        check_model(model)
        payload = _as_payload(payload, chosen, model)
        if not isinstance(payload, dict | list) or payload == []:
            got = type(payload).__name__
            message = f"a rendered payload is a dict or its message list, got {got}"
            return [Violation("$", "payload.shape", message)]
        if model is None and isinstance(payload, dict) and isinstance(payload.get("model"), str):
            model = payload["model"]
        chosen = get(chosen, model)  # the rules of that model, where they differ by model
        problems: Problems = []
        counts: dict[tuple[str, str], int] = {}
        levels = _detail_levels(chosen, model)
        for site in _sites(payload, _readers(chosen), problems):
            problems.extend(_site_problems(site, chosen, counts, levels))
        structure = getattr(chosen.shape, "check_request", None)
        if structure is not None:
            problems.extend(structure(payload, chosen))
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
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _CHECKING.reraise(exc)


def _as_payload(given: Any, provider: Provider, model: str | None) -> Any:
    """Return what to check: a list of `Message`s rendered offline (as they would be sent),
    any other list as the wire's message list alone, anything else as it is."""
    if isinstance(given, tuple):
        given = list(given)
    if isinstance(given, list) and given and all(isinstance(m, Message) for m in given):
        with offline():
            return render(given, provider, model=model)
    return given


# The message a block belongs to, for limits that hold per message (Bedrock's 20 images).
_MESSAGE = re.compile(r"^\$(?:\.(?:messages|contents|input))?\[(\d+)\]")


def _detail_levels(provider: Provider, model: str | None) -> tuple[str, ...] | None:
    """Return the image detail levels the model takes, or None when not checked."""
    if model is None or not provider.rules.vision:
        return None
    try:
        geometry = provider.rules.vision_for(model, strict=True)
    except NoDocumentedRule:
        # A model the table does not know: nothing documented to check its levels against,
        # and never silently so (UnknownModelWarning, or UnknownModel when configured).
        unknown_row(provider.name, model, provider.rules.vision)
        return None
    return geometry.detail_levels if geometry.documented else None


def _site_problems(
    site: Site,
    provider: Provider,
    counts: dict[tuple[str, str], int],
    levels: tuple[str, ...] | None,
) -> Iterator[tuple[str, str, str]]:
    """Yield what is wrong with one media block."""
    rules = provider.rules.for_kind(site.kind)
    kind = site.kind
    scope = ""
    if rules.count_scope == "message" and (owner := _MESSAGE.match(site.path)):
        scope = owner.group(1)
    key = (site.kind, scope)
    counts[key] = counts.get(key, 0) + 1
    if rules.max_count is not None and counts[key] == rules.max_count + 1:
        where = "one message" if rules.count_scope == "message" else "one request"
        yield site.path, f"{kind}.max_count", f"more than {rules.max_count} {kind}s in {where}"
    if site.name_problem is not None:
        yield site.path, f"{kind}.name", site.name_problem
    if levels is not None and site.detail is not None and site.detail not in levels:
        yield (
            site.path,
            f"{kind}.detail",
            f"detail {excerpt(site.detail)} is not a level of this model (it takes "
            f"{', '.join(levels)})",
        )
    if site.url is not None and not rules.url_types:
        yield site.path, f"{kind}.url", f"{provider.label} does not fetch {kind} URLs"
    if site.data is None:
        return
    actual = yield from _sniffed(site)
    if actual is None:
        return
    if actual not in rules.media_types + getattr(rules, "text_types", ()):
        yield site.path, f"{kind}.media_type", f"{provider.label} does not accept {actual} {kind}s"
    if not rules.fits(len(site.data)):
        how = "base64 " if rules.measure == "base64" else ""
        yield (
            site.path,
            f"{kind}.max_bytes",
            f"{rules.measured(len(site.data)):,} {how}bytes, over the limit of {rules.max_bytes:,}",
        )
    if site.kind == "image":
        yield from _image_problems(site.path, site.data, actual, provider)
    if site.kind == "file" and actual in rules.media_types:
        yield from _request_bytes(site.path, len(site.data), provider, counts)
    if actual == "application/pdf":
        yield from _page_problems(site.path, site.data, provider, counts)


def _sniffed(site: Site) -> Generator[tuple[str, str, str], None, str | None]:
    """Yield what a block's bytes say against it; return the type they are, or None when
    they are no media of its kind at all (nothing more of the block is then checked).

    Nothing the payload declares is trusted: empty data, bytes with no signature of the
    block's kind, text in an image, audio or video block, and a declared type the bytes
    contradict are each a violation.
    """
    kind, data = site.kind, site.data
    if not data:
        yield site.path, f"{kind}.data", f"the {kind} block holds no bytes"
        return None
    declared = site.declared
    if declared is not None and not isinstance(declared, str):
        what = f"the declared media type {excerpt(declared)} is not text"
        yield site.path, f"{kind}.media_type", what
        declared = None
    stated = canonical_media_type(declared) if declared else None
    found = detect(data, declared=declared)
    if found.source == "unknown":
        claim = f" (declared {stated})" if stated else ""
        what = f"the bytes carry no signature of any {kind} format we know{claim}"
        yield site.path, f"{kind}.data", what
        return None
    if found.source == "content" and kind != "file":
        yield site.path, f"{kind}.data", f"the bytes are text ({found.media_type}), not {kind}"
        return None
    if found.mismatch and stated:
        yield (
            site.path,
            f"{kind}.media_type",
            f"declared {stated} but the bytes are {found.media_type}",
        )
    return found.media_type


def _request_total(
    counts: dict[tuple[str, str], int], what: str, added: int, limit: int | None
) -> str | None:
    """Add to the request's running total of `what`; say so where it first passes `limit`."""
    before = counts.get((what, ""), 0)
    counts[(what, "")] = before + added
    if limit is None or not before <= limit < before + added:
        return None
    return f"{before + added:,} {what} here, over the limit of {limit:,} in one request"


def _request_bytes(
    path: str, size: int, provider: Provider, counts: dict[tuple[str, str], int]
) -> Iterator[tuple[str, str, str]]:
    """Yield the document where the request's documents pass the provider's bytes a request."""
    over = _request_total(counts, "bytes of documents", size, provider.rules.file.max_request_bytes)
    if over is not None:
        yield path, "file.max_request_bytes", f"the request reaches {over}"


def _page_problems(
    path: str, data: bytes, provider: Provider, counts: dict[tuple[str, str], int]
) -> Iterator[tuple[str, str, str]]:
    """Yield a PDF over the provider's pages a document, or the request's PDFs (counted up
    to this one) over its pages a request. Pages are read from the page tree by the bounded
    reader of `mediaparts.formats` (check opens no PDF library); a PDF it cannot count adds
    nothing."""
    rules = provider.rules.file
    if rules.max_pages is None and rules.max_request_pages is None:
        return
    try:
        pages = pdf_page_count(data)
    except MediaError:
        return  # past the reader's caps: its tokens and pages are unknown, not wrong
    if pages is None:
        return
    if rules.max_pages is not None and pages > rules.max_pages:
        yield path, "file.max_pages", f"{pages:,} pages, over the limit of {rules.max_pages:,}"
    over = _request_total(counts, "pages", pages, rules.max_request_pages)
    if over is not None:
        yield path, "file.max_request_pages", f"the request's PDFs reach {over}"


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
    if not image.animated and is_animated(data):
        yield path, "image.animated", f"{provider.name} takes still images; this one is animated"


def _request_size(payload: dict[str, Any] | list[Any]) -> int:
    """Estimate the request's size on the wire, raw bytes counted as their base64 text."""

    def default(value: Any) -> Any:
        if isinstance(value, bytes | bytearray):
            return "x" * base64_size(len(value))
        raise TypeError(type(value).__name__)

    return len(json.dumps(payload, default=default, separators=(",", ":")).encode())

"""Write the providers' rules as Markdown, for docs/providers.md, from the rule objects.

Each registered provider module's `RULES` (its tables and their sources included) is read; run
`python scripts/provider_table.py` to print the table, or the docs test with
MEDIAPARTS_UPDATE_GOLDEN=1 to rewrite docs/providers.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts.providers import KindRules, MediaRates, Rules, get, names

__all__ = ["rules_markdown"]


def _mib(n: int | None) -> str:
    if n is None:
        return "—"
    if n % 2**20 == 0:
        return f"{n // 2**20} MiB"
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000} MB"
    return f"{n:,} B"


def _types(rules: KindRules, extra: tuple[str, ...] = ()) -> str:
    types = rules.media_types + extra
    return ", ".join(f"`{t}`" for t in types) if types else "refused"


def _limit(rules: KindRules) -> str:
    if rules.max_bytes is None:
        return "—"
    how = " (base64)" if rules.measure == "base64" else ""
    return _mib(rules.max_bytes) + how


def rules_markdown() -> str:
    """Return one Markdown section per provider: accepted types, limits, model rules, sources."""
    out = []
    for name in names():
        rules = get(name).rules
        image = rules.image
        dims = "—"
        if image.max_width or image.max_height:
            dims = f"{image.max_width or '∞'}×{image.max_height or '∞'} px"
        rows = [
            ("image", _types(image), _limit(image), image.max_count, image.url_types, image.source),
            (
                "audio",
                _types(rules.audio),
                _limit(rules.audio),
                rules.audio.max_count,
                rules.audio.url_types,
                rules.audio.source,
            ),
            (
                "video",
                _types(rules.video),
                _limit(rules.video),
                rules.video.max_count,
                rules.video.url_types,
                rules.video.source,
            ),
            (
                "file",
                _types(rules.file),
                _limit(rules.file),
                rules.file.max_count,
                rules.file.url_types,
                rules.file.source,
            ),
        ]
        out.append(f"## `{name}`\n")
        out.append(f"Speaks the `{get(name).wire}` wire.\n")
        out.append(
            "| kind | accepted inline | max per item | max count | fetched from URLs | source |"
        )
        out.append("|---|---|---|---|---|---|")
        for kind, types, limit, count, urls, source in rows:
            fetched = ", ".join(f"`{t}`" for t in urls) if urls else "—"
            out.append(
                f"| {kind} | {types} | {limit} | {count or '—'} | {fetched} | {source or '—'} |"
            )
        text = ", ".join(f"`{t}`" for t in rules.file.text_types) or "—"
        out.append("")
        out.append(f"- Text files sent as text: {text}")
        out.append(
            f"- Image dimensions: {dims}; animated images: "
            f"{'accepted' if image.animated else 'first frame only'}; detail levels: "
            f"{', '.join(image.detail_levels) or '—'}"
        )
        out.append(
            f"- Request size: {_mib(rules.max_request_bytes)}"
            + (f" ({rules.source})" if rules.source else "")
        )
        pages, request_pages = rules.file.max_pages, rules.file.max_request_pages
        out.append(
            f"- Documents: {pages or '—'} pages each, {request_pages or '—'} pages and "
            f"{_mib(rules.file.max_request_bytes)} a request"
        )
        out.append("")
        out += _models(rules)
    return "\n".join(out)


def _pdf(costs: MediaRates) -> str:
    """A PDF page's rate, or its documented approximation marked as one."""
    if costs.pdf_per_page is None and costs.pdf_per_page_approx is not None:
        return f"about {costs.pdf_per_page_approx:,} (approximate)"
    return _rate(costs, "pdf", costs.pdf_per_page)


def _models(rules: Rules) -> list[str]:
    """Return what models take differently, the model-keyed image rules, media token rates and
    text rules of one provider."""
    out = []
    if rules.models:
        out += [
            f"What models take differently (first matching pattern wins; a model no row names, "
            f"or none, takes the rules above). Source: {rules.models_source or '—'}.",
            "",
            "| model pattern | changes | source |",
            "|---|---|---|",
        ]
        out += [
            f"| `{row.pattern}` | {_changes(row.rule.changes)} | {row.rule.source or '—'} |"
            for row in rules.models
        ]
        out.append("")
    if rules.vision:
        out += [
            f"Image resizing and tokens by model (first matching pattern wins; `model=None` "
            f"takes the first row). Source: {rules.vision_source or '—'}.",
            "",
            "| model pattern | rule |",
            "|---|---|",
        ]
        out += [f"| `{row.pattern}` | {row.rule.describe()} |" for row in rules.vision]
    else:
        out.append(f"No image token rule is documented. Source: {rules.costs_source or '—'}.")
    out += [
        "",
        f"Audio, video and PDF tokens by model. Source: {rules.costs_source or '—'}.",
        "",
        "| model pattern | audio per second | video per second (plus its audio) | PDF page |",
        "|---|---|---|---|",
    ]
    out += [
        f"| `{row.pattern}` | {_rate(row.rule, 'audio', row.rule.audio_per_second)} | "
        f"{_rate(row.rule, 'video', row.rule.video_per_second)} | "
        f"{_pdf(row.rule)} |"
        for row in rules.costs
    ]
    if not rules.text:
        out += ["", f"Text tokens: the generic approximation. Source: {rules.text_source}.", ""]
        return out
    out += [
        "",
        f"Text tokens by model. Source: {rules.text_source or '—'}.",
        "",
        "| model pattern | text | framing | replayed reasoning |",
        "|---|---|---|---|",
    ]
    out += [
        f"| `{row.pattern}` | {row.rule.describe()} | {row.rule.framing or '—'} | "
        f"{row.rule.reasoning.replace('_', ' ')}: {row.rule.reasoning_source or '—'} |"
        for row in rules.text
    ]
    out.append("")
    return out


def _changes(changes: Mapping[str, Any]) -> str:
    """Say a row's changes: `image_media_types`: refused, other values in short."""
    said = []
    for key, value in changes.items():
        if isinstance(value, tuple) and not value:
            said.append(f"`{key}`: none")
        elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            said.append(f"`{key}`: " + ", ".join(f"`{v}`" for v in value))
        elif isinstance(value, int | str):
            said.append(f"`{key}`: {value:,}" if isinstance(value, int) else f"`{key}`: {value}")
        else:
            said.append(f"`{key}`: {type(value).__name__}")
    return "; ".join(said)


def _rate(costs: MediaRates, kind: str, rate: int | None) -> str:
    if kind in costs.not_accepted:
        return "not accepted"
    return "—" if rate is None else str(rate)


if __name__ == "__main__":
    print(rules_markdown())

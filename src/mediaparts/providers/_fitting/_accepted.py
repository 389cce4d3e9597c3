"""What a provider takes, said in one short line: its media types grouped by kind, by their
short names ("images (JPG, PNG, GIF, WEBP), documents (PDF) and text (TXT, MD, ...)").

Refusals say this line; the whole list of media types is on the error's `accepted`. Both come
from the provider's rules, so a rule override (`with_rules`) changes what is said.
"""

from __future__ import annotations

from mediaparts import formats
from mediaparts._errors import MediaError, UnsupportedMediaType, excerpt
from mediaparts.detection import media_type_from_filename
from mediaparts.formats import Kind
from mediaparts.providers._registry import Provider
from mediaparts.providers._rules import Rules

__all__ = ["accepted_types", "extension_name", "refusal", "takes"]

OCTET_STREAM = "application/octet-stream"

# The groups, in the order said: each kind's types, then the text formats read as text.
_GROUPS: tuple[tuple[Kind, str], ...] = (
    ("image", "images"),
    ("audio", "audio"),
    ("video", "video"),
    ("file", "documents"),
)
# Names shown per group; the rest are counted ("+7 more"), so the line stays short (about 200
# characters for the provider that takes the most, Bedrock).
_SHOWN = 4


def accepted_types(rules: Rules) -> tuple[str, ...]:
    """Return every media type the rules take, kind by kind, then the text formats."""
    every = [t for kind, _ in _GROUPS for t in rules.for_kind(kind).media_types]
    every += rules.file.text_types
    return tuple(dict.fromkeys(every))


def extension_name(media_type: str) -> str:
    """Return a media type's short name: its format's usual extension, in capitals (`JPG`)."""
    record = formats.get(media_type)
    if record is not None and record.extensions:
        return record.extensions[0].lstrip(".").upper()
    return media_type.rpartition("/")[2].removeprefix("x-").upper()


def takes(rules: Rules) -> str:
    """Say what the rules take, grouped by kind: `images (PNG) and text (TXT, MD)`."""
    groups = [(label, rules.for_kind(kind).media_types) for kind, label in _GROUPS]
    groups.append(("text", rules.file.text_types))
    said = [f"{label} ({_names(types)})" for label, types in groups if types]
    if not said:
        return "no media at all"
    if len(said) == 1:
        return f"{said[0]} only"
    return f"{', '.join(said[:-1])} and {said[-1]}"


def refusal(
    provider: Provider,
    kind: Kind,
    media_type: str,
    hint: str = "",
    *,
    filename: str | None = None,
) -> MediaError:
    """The error for media a provider does not take, saying what it takes (then `hint`); for
    bytes a name claims to be of a known format (`bogus.pdf`), what the name claimed."""
    named = media_type_from_filename(filename) if filename else None
    why = ""
    if media_type == OCTET_STREAM and named not in (None, OCTET_STREAM):
        # Bytes win (docs/detection.md): a name never stands in for a missing signature.
        why = f" (its name {excerpt(filename)} says {named}, but the bytes are not one)"
    return UnsupportedMediaType(
        f"{provider.label} does not accept {media_type} ({kind}){why}; it takes "
        f"{takes(provider.rules)}{hint}",
        media_type=media_type,
        provider=provider.name,
        accepted=accepted_types(provider.rules),
    )


def _names(media_types: tuple[str, ...]) -> str:
    names = list(dict.fromkeys(extension_name(t) for t in media_types))
    if len(names) <= _SHOWN + 1:  # "+1 more" would be no shorter than the name
        return ", ".join(names)
    return ", ".join([*names[:_SHOWN], f"+{len(names) - _SHOWN} more"])

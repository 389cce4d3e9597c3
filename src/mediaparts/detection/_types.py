"""Media type names: canonical spellings, kinds and extensions, read from the format registry.

Every name (alias, extension, kind) is a fact of a format's record in `mediaparts.formats`;
this module only reads them, and keeps the relations between formats that detection settles
(`same_format`, `family_member`).
"""

from __future__ import annotations

from mediaparts._errors import InvalidMedia
from mediaparts.formats import Format, Kind, by_alias, by_extension, get, registered

__all__ = [
    "OCTET_STREAM",
    "canonical_media_type",
    "describe",
    "extension_for",
    "family_member",
    "is_textual",
    "kind_of",
    "media_type_from_filename",
    "same_format",
]

OCTET_STREAM = "application/octet-stream"

# Formats that differ only in what the same container holds, or in a profile name; a file name
# or declared type naming the other one is not a mismatch (a family, not a disagreement).
_SAME_FORMAT: tuple[frozenset[str], ...] = (
    frozenset({"image/heic", "image/heif"}),
    frozenset({"audio/mp4", "video/mp4"}),
    frozenset({"audio/webm", "video/webm"}),
    frozenset({"audio/ogg", "video/ogg"}),
    frozenset({"audio/x-matroska", "video/x-matroska"}),
    frozenset({"audio/3gpp", "video/3gpp"}),
    frozenset({"audio/3gpp2", "video/3gpp2"}),
)

# Generic container names -> the specific formats built on them. When the bytes only show the
# container (a ZIP whose directory was out of reach, an ISO file with unknown brands, a
# compound file without the usual streams), a file name or declared type naming one of these
# is believed.
_FAMILIES: dict[str, frozenset[str]] = {
    "application/zip": frozenset(
        record.media_type
        for record in registered("file")
        if record.media_type.startswith(
            (
                "application/vnd.openxmlformats-officedocument.",
                "application/vnd.oasis.opendocument.",
                "application/vnd.ms-word.",
                "application/vnd.ms-excel.",
                "application/vnd.ms-powerpoint.",
            )
        )
    )
    | {
        "application/epub+zip",
        "application/java-archive",
        "application/vnd.android.package-archive",
        "application/vnd.ms-visio.drawing",
        "model/3mf",
    },
    "video/mp4": frozenset(
        {
            "video/mp4",
            "audio/mp4",
            "video/quicktime",
            "video/3gpp",
            "video/3gpp2",
            "image/heic",
            "image/heif",
            "image/avif",
        }
    ),
    "application/x-ole-storage": frozenset(
        {
            "application/msword",
            "application/vnd.ms-excel",
            "application/vnd.ms-powerpoint",
            "application/vnd.ms-outlook",
            "application/vnd.visio",
        }
    ),
    "video/x-matroska": frozenset(
        {"video/x-matroska", "audio/x-matroska", "video/webm", "audio/webm"}
    ),
}


def canonical_media_type(media_type: str) -> str:
    """Return the canonical spelling of a media type.

    Lower-cases it, strips parameters (`; codecs=...`) and surrounding space, and folds known
    aliases (`audio/x-wav` -> `audio/wav`, `image/jpg` -> `image/jpeg`). Unknown types are
    returned lower-cased and stripped, not rejected.

    Args:
        media_type: A media type as written anywhere (header, data URI, caller).

    Returns:
        The canonical media type.

    Raises:
        InvalidMedia: `media_type` is not a string.
    """
    if not isinstance(media_type, str):
        raise InvalidMedia(f"a media type must be a string, got {type(media_type).__name__}")
    return by_alias(media_type.split(";", 1)[0].strip().lower())


def kind_of(media_type: str) -> Kind:
    """Return the part kind of a media type.

    A registered format's record says (SVG, which is XML text, is a `"file"`); an unknown
    type's top level does: images, audio and video are their own kinds, everything else,
    every `text/*` type included, is a `"file"`.

    Args:
        media_type: Any media type; it is canonicalised first.

    Returns:
        `"image"`, `"audio"`, `"video"` or `"file"`.
    """
    canonical = canonical_media_type(media_type)
    return _kind(canonical, get(canonical))


def _kind(canonical: str, record: Format | None) -> Kind:
    if record is not None:
        return record.kind
    top = canonical.partition("/")[0]
    if top == "image":
        return "image"
    if top == "audio":
        return "audio"
    if top == "video":
        return "video"
    return "file"


def extension_for(media_type: str) -> str | None:
    """Return the usual file extension (with its dot) for a media type.

    Args:
        media_type: Any media type; it is canonicalised first.

    Returns:
        For example `".jpg"` for `image/jpeg`, or None when the type is unknown or has no
        extension of its own.
    """
    record = get(canonical_media_type(media_type))
    return record.extensions[0] if record is not None and record.extensions else None


def describe(media_type: str) -> tuple[Kind, str | None]:
    """Return `kind_of(media_type)` and `extension_for(media_type)`, canonicalising once."""
    canonical = canonical_media_type(media_type)
    record = get(canonical)
    extension = record.extensions[0] if record is not None and record.extensions else None
    return _kind(canonical, record), extension


def media_type_from_filename(filename: str) -> str | None:
    """Return the media type that a file name's extension stands for, from our own table.

    Accepts bare names, paths (either slash) and URLs, whose query and fragment are ignored.
    The match is case-insensitive.

    Args:
        filename: A file name, path or URL.

    Returns:
        The canonical media type, or None when the extension is missing or unknown.
    """
    if "://" in filename:
        # A URL: the path's last segment names the file; query and fragment do not.
        return _lookup_extension(filename.split("#", 1)[0].split("?", 1)[0])
    found = _lookup_extension(filename)
    if found is None and ("?" in filename or "#" in filename):
        # A relative URL such as "photo.jpg?w=200"; a local name may contain these characters,
        # so it is tried as it stands first.
        found = _lookup_extension(filename.split("#", 1)[0].split("?", 1)[0])
    return found


def _lookup_extension(name: str) -> str | None:
    """Look the extension of a path's last segment up in our table."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    dot = base.rfind(".")
    if dot < 0:
        return None
    return by_extension(base[dot:].lower())


def is_textual(media_type: str) -> bool:
    """Tell whether a canonical media type holds text (so text sniffing can be refined to it)."""
    if media_type.startswith("text/") or media_type.endswith(("+xml", "+json")):
        return True
    record = get(media_type)
    return record is not None and record.textual


def same_format(a: str, b: str) -> bool:
    """Tell whether two canonical media types name the same format (see `_SAME_FORMAT`)."""
    return a == b or any(a in group and b in group for group in _SAME_FORMAT)


def family_member(generic: str, candidate: str) -> bool:
    """Tell whether `candidate` is a specific format built on the generic container `generic`."""
    return candidate in _FAMILIES.get(generic, ())

"""Media type names: canonical spellings, aliases, kinds and our own extension table.

The extension table is ours on purpose: the stdlib `mimetypes` registry reads the host's
`/etc/mime.types` (and the Windows registry), so the same file name maps to different types on
different machines.
"""

from __future__ import annotations

from typing import Literal

from mediaparts._errors import InvalidMedia

__all__ = [
    "OCTET_STREAM",
    "Kind",
    "canonical_media_type",
    "extension_for",
    "family_member",
    "is_textual",
    "kind_of",
    "media_type_from_filename",
    "same_format",
]

Kind = Literal["image", "audio", "video", "file"]

OCTET_STREAM = "application/octet-stream"

# canonical type -> aliases folded into it. The first block is exactly the table in
# shared/corpus/README.md; the rest are spellings seen in the wild (filetype's own names,
# freedesktop shared-mime-info, RFC 9239 for JavaScript, RFC 9512 for YAML).
_ALIASES: dict[str, tuple[str, ...]] = {
    "image/jpeg": ("image/jpg", "image/pjpeg"),
    "image/png": ("image/apng", "image/vnd.mozilla.apng", "image/x-png"),
    "image/bmp": ("image/x-bmp", "image/x-ms-bmp", "image/x-windows-bmp"),
    "image/tiff": ("image/x-tiff",),
    "image/vnd.microsoft.icon": ("image/x-icon", "image/ico", "image/icon"),
    "image/jxl": ("image/x-jxl",),
    "image/svg+xml": ("image/svg",),
    "image/vnd.adobe.photoshop": (
        "image/x-photoshop",
        "image/psd",
        "image/x-psd",
        "application/x-photoshop",
        "application/psd",
    ),
    "audio/wav": ("audio/x-wav", "audio/wave", "audio/vnd.wave", "audio/x-pn-wav"),
    "audio/mpeg": ("audio/mp3", "audio/x-mp3", "audio/mpeg3", "audio/x-mpeg", "audio/mpg"),
    "audio/flac": ("audio/x-flac",),
    "audio/ogg": (
        "application/ogg",
        "audio/opus",
        "audio/vorbis",
        "audio/x-ogg",
        "audio/x-vorbis+ogg",
        "audio/x-opus+ogg",
    ),
    "audio/mp4": ("audio/x-m4a", "audio/m4a", "audio/x-m4b"),
    "audio/aac": ("audio/x-aac", "audio/aacp", "audio/x-hx-aac-adts"),
    "audio/aiff": ("audio/x-aiff", "audio/aif", "audio/aifc", "audio/x-aifc"),
    "audio/midi": ("audio/x-midi", "audio/mid"),
    "video/mp4": ("video/x-m4v",),
    "video/x-matroska": ("video/matroska", "video/mkv"),
    "video/x-msvideo": ("video/avi", "video/msvideo", "video/vnd.avi"),
    "video/x-flv": ("video/flv",),
    "video/mpeg": ("video/mpg", "video/x-mpeg"),
    "video/x-ms-wmv": ("video/x-ms-asf", "video/wmv", "application/vnd.ms-asf"),
    "application/xml": ("text/xml",),
    "application/json": ("text/json",),
    "application/rtf": ("text/rtf",),
    "application/zip": ("application/x-zip-compressed",),
    "text/csv": ("text/x-csv", "application/csv"),
    "text/markdown": ("text/x-markdown",),
    # Extras beyond the corpus table.
    "image/heic": ("image/heic-sequence",),
    "image/heif": ("image/heif-sequence",),
    "image/avif": ("image/avif-sequence",),
    "image/jxr": ("image/vnd.ms-photo",),
    "audio/x-matroska": ("audio/matroska", "audio/mka"),
    "audio/amr": ("audio/x-amr",),
    "audio/webm": ("audio/x-webm",),
    "video/mp2t": ("video/vnd.dlna.mpeg-tts", "video/x-mpegts"),
    "video/quicktime": ("video/x-quicktime",),
    "application/pdf": ("application/x-pdf",),
    "application/gzip": ("application/x-gzip",),
    "application/vnd.rar": ("application/x-rar-compressed", "application/x-rar"),
    "application/zstd": ("application/x-zstd",),
    "application/vnd.microsoft.portable-executable": (
        "application/x-msdownload",
        "application/x-dosexec",
    ),
    "font/woff": ("application/font-woff", "application/x-font-woff"),
    "font/ttf": ("application/font-sfnt", "application/x-font-ttf"),
    "font/otf": ("application/x-font-otf",),
    "text/javascript": ("application/javascript", "application/x-javascript", "text/ecmascript"),
    "application/yaml": ("text/yaml", "text/x-yaml", "application/x-yaml"),
    "text/x-python": ("application/x-python", "text/x-script.python", "text/python"),
    "text/x-shellscript": ("application/x-sh", "text/x-sh", "application/x-shellscript"),
    "application/x-ndjson": ("application/jsonl", "application/x-jsonlines"),
    "text/vcard": ("text/x-vcard",),
}

_CANONICAL: dict[str, str] = {
    alias: canonical for canonical, aliases in _ALIASES.items() for alias in aliases
}

# canonical type -> extensions; the first one is what `extension_for` returns.
_EXTENSIONS: dict[str, tuple[str, ...]] = {
    # Images.
    "image/jpeg": (".jpg", ".jpeg", ".jpe", ".jfif", ".pjpeg", ".pjp"),
    "image/png": (".png", ".apng"),
    "image/gif": (".gif",),
    "image/webp": (".webp",),
    "image/bmp": (".bmp", ".dib"),
    "image/tiff": (".tif", ".tiff"),
    "image/vnd.microsoft.icon": (".ico",),
    "image/x-win-bitmap": (".cur",),
    "image/heic": (".heic", ".heics"),
    "image/heif": (".heif", ".heifs", ".hif"),
    "image/avif": (".avif", ".avifs"),
    "image/jxl": (".jxl",),
    "image/jp2": (".jp2", ".jpg2"),
    "image/jpx": (".jpx", ".jpf"),
    "image/jxr": (".jxr", ".wdp", ".hdp"),
    "image/vnd.adobe.photoshop": (".psd", ".psb"),
    "image/x-icns": (".icns",),
    "image/x-canon-cr2": (".cr2",),
    "image/vnd.djvu": (".djvu", ".djv"),
    "image/svg+xml": (".svg",),
    # Audio.
    "audio/mpeg": (".mp3", ".mpga", ".mp2", ".m2a"),
    "audio/wav": (".wav", ".wave"),
    "audio/flac": (".flac",),
    "audio/ogg": (".ogg", ".oga", ".opus", ".spx"),
    "audio/mp4": (".m4a", ".m4b", ".m4p", ".m4r"),
    "audio/aac": (".aac", ".adts"),
    "audio/aiff": (".aiff", ".aif", ".aifc"),
    "audio/midi": (".mid", ".midi", ".kar", ".rmi"),
    "audio/amr": (".amr",),
    "audio/amr-wb": (".awb",),
    "audio/webm": (".weba",),
    "audio/x-matroska": (".mka",),
    "audio/x-ms-wma": (".wma",),
    "audio/basic": (".au", ".snd"),
    "audio/x-caf": (".caf",),
    # Video.
    "video/mp4": (".mp4", ".m4v", ".mp4v", ".mpg4", ".f4v"),
    "video/quicktime": (".mov", ".qt"),
    "video/webm": (".webm",),
    "video/x-matroska": (".mkv", ".mk3d"),
    "video/x-msvideo": (".avi",),
    "video/x-flv": (".flv",),
    "video/mpeg": (".mpg", ".mpeg", ".mpe", ".m1v", ".m2v", ".vob"),
    "video/mp2t": (".ts", ".m2ts", ".mts"),
    "video/x-ms-wmv": (".wmv", ".asf"),
    "video/3gpp": (".3gp", ".3gpp"),
    "video/3gpp2": (".3g2", ".3gpp2"),
    "video/ogg": (".ogv",),
    # Documents and archives.
    "application/pdf": (".pdf",),
    "application/postscript": (".ps", ".eps"),
    "application/rtf": (".rtf",),
    "application/zip": (".zip",),
    "application/epub+zip": (".epub",),
    "application/java-archive": (".jar",),
    "application/vnd.android.package-archive": (".apk",),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": (".docx",),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template": (".dotx",),
    "application/vnd.ms-word.document.macroenabled.12": (".docm",),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": (".xlsx",),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template": (".xltx",),
    "application/vnd.ms-excel.sheet.macroenabled.12": (".xlsm",),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": (".pptx",),
    "application/vnd.openxmlformats-officedocument.presentationml.slideshow": (".ppsx",),
    "application/vnd.openxmlformats-officedocument.presentationml.template": (".potx",),
    "application/vnd.ms-powerpoint.presentation.macroenabled.12": (".pptm",),
    "application/vnd.ms-visio.drawing": (".vsdx",),
    "application/vnd.oasis.opendocument.text": (".odt",),
    "application/vnd.oasis.opendocument.spreadsheet": (".ods",),
    "application/vnd.oasis.opendocument.presentation": (".odp",),
    "application/vnd.oasis.opendocument.graphics": (".odg",),
    "application/vnd.oasis.opendocument.text-template": (".ott",),
    "application/vnd.oasis.opendocument.spreadsheet-template": (".ots",),
    "application/vnd.oasis.opendocument.presentation-template": (".otp",),
    "application/msword": (".doc", ".dot"),
    "application/vnd.ms-excel": (".xls", ".xlt"),
    "application/vnd.ms-powerpoint": (".ppt", ".pps", ".pot"),
    "application/vnd.ms-outlook": (".msg",),
    "application/vnd.visio": (".vsd",),
    "application/x-ole-storage": (),
    "model/3mf": (".3mf",),
    "application/gzip": (".gz", ".tgz"),
    "application/x-bzip2": (".bz2",),
    "application/x-xz": (".xz",),
    "application/zstd": (".zst",),
    "application/x-7z-compressed": (".7z",),
    "application/vnd.rar": (".rar",),
    "application/x-tar": (".tar",),
    "application/x-sqlite3": (".sqlite", ".sqlite3"),
    "application/wasm": (".wasm",),
    "application/vnd.microsoft.portable-executable": (".exe", ".dll"),
    "application/dicom": (".dcm",),
    "font/woff": (".woff",),
    "font/woff2": (".woff2",),
    "font/ttf": (".ttf",),
    "font/otf": (".otf",),
    "application/octet-stream": (".bin",),
    # Text.
    "text/plain": (".txt", ".text", ".log"),
    "text/csv": (".csv",),
    "text/tab-separated-values": (".tsv", ".tab"),
    "text/markdown": (".md", ".markdown", ".mdown", ".mkd"),
    "text/html": (".html", ".htm"),
    "application/xhtml+xml": (".xhtml",),
    "application/xml": (".xml", ".xsd", ".xsl", ".xslt"),
    "application/json": (".json",),
    "application/x-ndjson": (".ndjson", ".jsonl"),
    "application/ld+json": (".jsonld",),
    "application/geo+json": (".geojson",),
    "application/rss+xml": (".rss",),
    "application/atom+xml": (".atom",),
    "text/css": (".css",),
    "text/javascript": (".js", ".mjs", ".cjs"),
    "text/x-python": (".py", ".pyi"),
    "text/x-shellscript": (".sh", ".bash"),
    "text/x-c": (".c", ".h"),
    "text/x-c++": (".cpp", ".cc", ".cxx", ".hpp"),
    "text/x-java": (".java",),
    "text/x-rust": (".rs",),
    "text/x-go": (".go",),
    "text/x-tex": (".tex",),
    "text/x-rst": (".rst",),
    "application/yaml": (".yaml", ".yml"),
    "application/toml": (".toml",),
    "application/sql": (".sql",),
    "text/calendar": (".ics",),
    "text/vcard": (".vcf",),
    "text/vtt": (".vtt",),
    "application/x-subrip": (".srt",),
}

_BY_EXTENSION: dict[str, str] = {}
for _media_type, _extensions in _EXTENSIONS.items():
    for _extension in _extensions:
        # First writer wins, so a shared extension keeps its most common meaning
        # (".mpg" is MPEG video before anything else).
        _BY_EXTENSION.setdefault(_extension, _media_type)

# Types that hold text, beyond `text/*`, `*+xml` and `*+json`: a file name may refine content
# sniffing's generic "text/plain" to one of these.
_TEXTUAL = frozenset(
    {
        "application/json",
        "application/xml",
        "application/x-ndjson",
        "application/yaml",
        "application/toml",
        "application/sql",
        "application/x-subrip",
        "application/rtf",
        "application/postscript",
    }
)

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
        media_type
        for media_type in _EXTENSIONS
        if media_type.startswith(
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
    bare = media_type.split(";", 1)[0].strip().lower()
    return _CANONICAL.get(bare, bare)


def kind_of(media_type: str) -> Kind:
    """Return the part kind of a media type.

    Images, audio and video are their own kinds; everything else, including SVG (which is
    XML text) and every `text/*` type, is a `"file"`.

    Args:
        media_type: Any media type; it is canonicalised first.

    Returns:
        `"image"`, `"audio"`, `"video"` or `"file"`.
    """
    canonical = canonical_media_type(media_type)
    top = canonical.partition("/")[0]
    if top == "image" and canonical != "image/svg+xml":
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
    extensions = _EXTENSIONS.get(canonical_media_type(media_type))
    return extensions[0] if extensions else None


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
    return _BY_EXTENSION.get(base[dot:].lower())


def is_textual(media_type: str) -> bool:
    """Tell whether a canonical media type holds text (so text sniffing can be refined to it)."""
    return (
        media_type.startswith("text/")
        or media_type.endswith(("+xml", "+json"))
        or media_type in _TEXTUAL
    )


def same_format(a: str, b: str) -> bool:
    """Tell whether two canonical media types name the same format (see `_SAME_FORMAT`)."""
    return a == b or any(a in group and b in group for group in _SAME_FORMAT)


def family_member(generic: str, candidate: str) -> bool:
    """Tell whether `candidate` is a specific format built on the generic container `generic`."""
    return candidate in _FAMILIES.get(generic, ())

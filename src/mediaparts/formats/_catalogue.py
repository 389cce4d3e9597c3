"""The built-in records of audio, video, document and text formats: names and kinds.

Most flags are off for these: mediaparts passes them through or reads them as text, never
decodes them. The aliases are spellings seen in the wild (the corpus's README table, filetype's
own names, freedesktop shared-mime-info, RFC 9239 for JavaScript, RFC 9512 for YAML). The
extension table is ours on purpose: the stdlib `mimetypes` registry reads the host's
`/etc/mime.types` (and the Windows registry), so the same file name maps to different types on
different machines.
"""

from __future__ import annotations

from mediaparts.formats._registry import Format, register

__all__: list[str] = []


def _audio(media_type: str, extensions: tuple[str, ...], aliases: tuple[str, ...] = ()) -> Format:
    return Format(media_type, "audio", extensions, aliases)


def _video(media_type: str, extensions: tuple[str, ...], aliases: tuple[str, ...] = ()) -> Format:
    return Format(media_type, "video", extensions, aliases)


def _file(
    media_type: str,
    extensions: tuple[str, ...],
    aliases: tuple[str, ...] = (),
    *,
    textual: bool = False,
) -> Format:
    """A document, archive or text format (textual: holds text beyond text/*, +xml, +json)."""
    return Format(media_type, "file", extensions, aliases, textual=textual)


for _format in (
    # audio
    _audio(
        "audio/mpeg",
        (".mp3", ".mpga", ".mp2", ".m2a"),
        ("audio/mp3", "audio/x-mp3", "audio/mpeg3", "audio/x-mpeg", "audio/mpg"),
    ),
    _audio(
        "audio/wav",
        (".wav", ".wave"),
        ("audio/x-wav", "audio/wave", "audio/vnd.wave", "audio/x-pn-wav"),
    ),
    _audio("audio/flac", (".flac",), ("audio/x-flac",)),
    _audio(
        "audio/ogg",
        (".ogg", ".oga", ".opus", ".spx"),
        (
            "application/ogg",
            "audio/opus",
            "audio/vorbis",
            "audio/x-ogg",
            "audio/x-vorbis+ogg",
            "audio/x-opus+ogg",
        ),
    ),
    _audio(
        "audio/mp4", (".m4a", ".m4b", ".m4p", ".m4r"), ("audio/x-m4a", "audio/m4a", "audio/x-m4b")
    ),
    _audio("audio/aac", (".aac", ".adts"), ("audio/x-aac", "audio/aacp", "audio/x-hx-aac-adts")),
    _audio(
        "audio/aiff",
        (".aiff", ".aif", ".aifc"),
        ("audio/x-aiff", "audio/aif", "audio/aifc", "audio/x-aifc"),
    ),
    _audio("audio/midi", (".mid", ".midi", ".kar", ".rmi"), ("audio/x-midi", "audio/mid")),
    _audio("audio/amr", (".amr",), ("audio/x-amr",)),
    _audio("audio/amr-wb", (".awb",)),
    _audio("audio/webm", (".weba",), ("audio/x-webm",)),
    _audio("audio/x-matroska", (".mka",), ("audio/matroska", "audio/mka")),
    _audio("audio/x-ms-wma", (".wma",)),
    _audio("audio/basic", (".au", ".snd")),
    _audio("audio/x-caf", (".caf",)),
    # video
    _video("video/mp4", (".mp4", ".m4v", ".mp4v", ".mpg4", ".f4v"), ("video/x-m4v",)),
    _video("video/quicktime", (".mov", ".qt"), ("video/x-quicktime",)),
    _video("video/webm", (".webm",)),
    _video("video/x-matroska", (".mkv", ".mk3d"), ("video/matroska", "video/mkv")),
    _video("video/x-msvideo", (".avi",), ("video/avi", "video/msvideo", "video/vnd.avi")),
    _video("video/x-flv", (".flv",), ("video/flv",)),
    _video(
        "video/mpeg",
        (".mpg", ".mpeg", ".mpe", ".m1v", ".m2v", ".vob"),
        ("video/mpg", "video/x-mpeg"),
    ),
    _video("video/mp2t", (".ts", ".m2ts", ".mts"), ("video/vnd.dlna.mpeg-tts", "video/x-mpegts")),
    _video(
        "video/x-ms-wmv",
        (".wmv", ".asf"),
        ("video/x-ms-asf", "video/wmv", "application/vnd.ms-asf"),
    ),
    _video("video/3gpp", (".3gp", ".3gpp")),
    _video("video/3gpp2", (".3g2", ".3gpp2")),
    _video("video/ogg", (".ogv",)),
    # file
    _file("image/svg+xml", (".svg",), ("image/svg",)),
    _file("application/pdf", (".pdf",), ("application/x-pdf",)),
    _file("application/postscript", (".ps", ".eps"), textual=True),
    _file("application/rtf", (".rtf",), ("text/rtf",), textual=True),
    _file("application/zip", (".zip",), ("application/x-zip-compressed",)),
    _file("application/epub+zip", (".epub",)),
    _file("application/java-archive", (".jar",)),
    _file("application/vnd.android.package-archive", (".apk",)),
    _file("application/vnd.openxmlformats-officedocument.wordprocessingml.document", (".docx",)),
    _file("application/vnd.openxmlformats-officedocument.wordprocessingml.template", (".dotx",)),
    _file("application/vnd.ms-word.document.macroenabled.12", (".docm",)),
    _file("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", (".xlsx",)),
    _file("application/vnd.openxmlformats-officedocument.spreadsheetml.template", (".xltx",)),
    _file("application/vnd.ms-excel.sheet.macroenabled.12", (".xlsm",)),
    _file("application/vnd.openxmlformats-officedocument.presentationml.presentation", (".pptx",)),
    _file("application/vnd.openxmlformats-officedocument.presentationml.slideshow", (".ppsx",)),
    _file("application/vnd.openxmlformats-officedocument.presentationml.template", (".potx",)),
    _file("application/vnd.ms-powerpoint.presentation.macroenabled.12", (".pptm",)),
    _file("application/vnd.ms-visio.drawing", (".vsdx",)),
    _file("application/vnd.oasis.opendocument.text", (".odt",)),
    _file("application/vnd.oasis.opendocument.spreadsheet", (".ods",)),
    _file("application/vnd.oasis.opendocument.presentation", (".odp",)),
    _file("application/vnd.oasis.opendocument.graphics", (".odg",)),
    _file("application/vnd.oasis.opendocument.text-template", (".ott",)),
    _file("application/vnd.oasis.opendocument.spreadsheet-template", (".ots",)),
    _file("application/vnd.oasis.opendocument.presentation-template", (".otp",)),
    _file("application/msword", (".doc", ".dot")),
    _file("application/vnd.ms-excel", (".xls", ".xlt")),
    _file("application/vnd.ms-powerpoint", (".ppt", ".pps", ".pot")),
    _file("application/vnd.ms-outlook", (".msg",)),
    _file("application/vnd.visio", (".vsd",)),
    _file("application/x-ole-storage", ()),
    _file("model/3mf", (".3mf",)),
    _file("application/gzip", (".gz", ".tgz"), ("application/x-gzip",)),
    _file("application/x-bzip2", (".bz2",)),
    _file("application/x-xz", (".xz",)),
    _file("application/zstd", (".zst",), ("application/x-zstd",)),
    _file("application/x-7z-compressed", (".7z",)),
    _file("application/vnd.rar", (".rar",), ("application/x-rar-compressed", "application/x-rar")),
    _file("application/x-tar", (".tar",)),
    _file("application/x-sqlite3", (".sqlite", ".sqlite3")),
    _file("application/wasm", (".wasm",)),
    _file(
        "application/vnd.microsoft.portable-executable",
        (".exe", ".dll"),
        ("application/x-msdownload", "application/x-dosexec"),
    ),
    _file("application/dicom", (".dcm",)),
    _file("font/woff", (".woff",), ("application/font-woff", "application/x-font-woff")),
    _file("font/woff2", (".woff2",)),
    _file("font/ttf", (".ttf",), ("application/font-sfnt", "application/x-font-ttf")),
    _file("font/otf", (".otf",), ("application/x-font-otf",)),
    _file("application/octet-stream", (".bin",)),
    _file("text/plain", (".txt", ".text", ".log")),
    _file("text/csv", (".csv",), ("text/x-csv", "application/csv")),
    _file("text/tab-separated-values", (".tsv", ".tab")),
    _file("text/markdown", (".md", ".markdown", ".mdown", ".mkd"), ("text/x-markdown",)),
    _file("text/html", (".html", ".htm")),
    _file("application/xhtml+xml", (".xhtml",)),
    _file("application/xml", (".xml", ".xsd", ".xsl", ".xslt"), ("text/xml",), textual=True),
    _file("application/json", (".json",), ("text/json",), textual=True),
    _file(
        "application/x-ndjson",
        (".ndjson", ".jsonl"),
        ("application/jsonl", "application/x-jsonlines"),
        textual=True,
    ),
    _file("application/ld+json", (".jsonld",)),
    _file("application/geo+json", (".geojson",)),
    _file("application/rss+xml", (".rss",)),
    _file("application/atom+xml", (".atom",)),
    _file("text/css", (".css",)),
    _file(
        "text/javascript",
        (".js", ".mjs", ".cjs"),
        ("application/javascript", "application/x-javascript", "text/ecmascript"),
    ),
    _file(
        "text/x-python",
        (".py", ".pyi"),
        ("application/x-python", "text/x-script.python", "text/python"),
    ),
    _file(
        "text/x-shellscript",
        (".sh", ".bash"),
        ("application/x-sh", "text/x-sh", "application/x-shellscript"),
    ),
    _file("text/x-c", (".c", ".h")),
    _file("text/x-c++", (".cpp", ".cc", ".cxx", ".hpp")),
    _file("text/x-java", (".java",)),
    _file("text/x-rust", (".rs",)),
    _file("text/x-go", (".go",)),
    _file("text/x-tex", (".tex",)),
    _file("text/x-rst", (".rst",)),
    _file(
        "application/yaml",
        (".yaml", ".yml"),
        ("text/yaml", "text/x-yaml", "application/x-yaml"),
        textual=True,
    ),
    _file("application/toml", (".toml",), textual=True),
    _file("application/sql", (".sql",), textual=True),
    _file("text/calendar", (".ics",)),
    _file("text/vcard", (".vcf",), ("text/x-vcard",)),
    _file("text/vtt", (".vtt",)),
    _file("application/x-subrip", (".srt",), textual=True),
):
    register(_format)

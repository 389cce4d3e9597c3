"""Every regular expression in src is reviewed, and linear by construction.

`REVIEWED` lists each compiled pattern with the input it runs over and the worst input known
for its shape; the hostile-input harness times them. A pattern that is added or changed fails
`test_regex_every_pattern_in_src_is_reviewed` until it is reviewed here, and one that is not
linear by construction (see `tests/robustness/_linear_regex.py`) fails `test_regex_is_linear`.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers.wires import converse
from tests.robustness._linear_regex import Mode, problems

pytestmark = pytest.mark.slow  # every module of src scanned, every pattern's worst input timed

SRC = Path(__file__).parent.parent.parent / "src"
_MATCH_METHODS = frozenset({"match", "fullmatch"})
_UNTRUSTED = "untrusted"


@dataclass(frozen=True)
class Reviewed:
    """One pattern as reviewed: its text, what it runs over, and its worst known input.

    Attributes:
        text: The pattern's source, as reviewed; a change needs a new review.
        runs_over: The input, its bound, and whether a client controls it.
        worst: Builds an adversarial input of about `n` characters for the pattern's shape.
    """

    text: str | bytes
    runs_over: str
    worst: Callable[[int], Any]


REVIEWED: dict[str, Reviewed] = {
    # --- detection: the 64 KiB prefix of any input ---------------------------------------------
    "mediaparts.formats._pdf:PDF_OBJECT": Reviewed(
        rb"(?<!\d)\d{1,10}\s+\d{1,10}\s+obj\b",
        f"detection prefix (64 KiB) after %PDF-; the whole PDF in _pdf; {_UNTRUSTED}",
        lambda n: b"%PDF-1.7 x\n" + b"1" * n,
    ),
    "mediaparts.detection._office:_CONTENT_TYPE": Reviewed(
        rb'ContentType="([^"]*)"',
        f"[Content_Types].xml of a ZIP, at most 16 KiB inflated; {_UNTRUSTED}",
        lambda n: b'ContentType="' * (n // 13),
    ),
    "mediaparts.detection._sniff:CONTROL_CHARS": Reviewed(
        "[\x00-\x08\x0e-\x19\x1c-\x1f\x7f]",
        f"UTF-16/32 text decoded from the prefix (64 KiB); {_UNTRUSTED}",
        lambda n: "\x00" * n,
    ),
    "mediaparts.detection._sniff:_NAME": Reviewed(
        r"<([A-Za-z_][\w.:-]*)",
        f"decoded prefix, at the root element (match); {_UNTRUSTED}",
        lambda n: "<a" + "a" * n,
    ),
    "mediaparts.detection._sniff:_SHEBANG": Reviewed(
        r"#![^\n]{0,253}?\b(python[\d.]{0,16}|sh|bash|zsh|dash|node)\b",
        f"decoded prefix starting #! (match); {_UNTRUSTED}",
        lambda n: "#!" + "python" * (n // 6),
    ),
    "mediaparts.detection._delimited:_HEADING": Reviewed(
        r"^#{1,6}[ \t]+\S",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "#" + " \t" * (n // 2),
    ),
    "mediaparts.detection._delimited:_SETEXT": Reviewed(
        r"^\S[^\n]*\n(?:=+|-+)[ \t]*$",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "a\n" + "=" * n + "x",
    ),
    "mediaparts.detection._delimited:_FENCE": Reviewed(
        r"^[ \t]{0,3}(?:```|~~~)",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "  ``\n" * (n // 5),
    ),
    "mediaparts.detection._delimited:_LINK": Reviewed(
        r'!?\[[^\[\]\n]+\]\([^)\]\s]+(?:\s+"[^"]*")?\)',
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "[a](" * (n // 4),
    ),
    "mediaparts.detection._delimited:_LIST": Reviewed(
        r"^[ \t]{0,3}(?:[-*+]|\d{1,3}[.)])[ \t]+\S",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "1." + " " * n,
    ),
    "mediaparts.detection._delimited:_EMPHASIS": Reviewed(
        r"\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "**" + "a" * n,
    ),
    "mediaparts.detection._delimited:_QUOTE": Reviewed(
        r"^>[ \t]?\S",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "> \n" * (n // 3),
    ),
    "mediaparts.detection._delimited:_TABLE_RULE": Reviewed(
        r"^\|?[ \t]*:?-{3,}:?[ \t]*\|",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "|" + " " * (n // 2) + "-" * (n // 2),
    ),
    "mediaparts.detection._delimited:_ESCAPE": Reviewed(
        r"\\[!#*_`\[\](){}.+-]",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "\\" * n,
    ),
    "mediaparts.detection._delimited:_COMMENT_RUN": Reviewed(
        r"^#[^\n]*\n#",
        f"first 8 KiB of decoded text; {_UNTRUSTED}",
        lambda n: "#" * n,
    ),
    "mediaparts.detection._detect:_MEDIA_TYPE": Reviewed(
        r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*",
        f"a declared media type, e.g. an upload's Content-Type (fullmatch); {_UNTRUSTED}",
        lambda n: "a" * n,
    ),
    # --- PDF page count: the whole file ----------------------------------------------------------
    "mediaparts.formats._pdf:_STREAM": Reviewed(
        rb"\bstream\r?\n",
        f"each object's body in the PDF, bodies disjoint; {_UNTRUSTED}",
        lambda n: b"stream\r" * (n // 7),
    ),
    "mediaparts.formats._pdf:_PAGES": Reviewed(
        rb"/Type\s*/Pages\b",
        f"each object's dictionary, disjoint; {_UNTRUSTED}",
        lambda n: b"/Type" + b" " * n,
    ),
    "mediaparts.formats._pdf:_PAGE": Reviewed(
        rb"/Type\s*/Page\b",
        f"each object's dictionary, disjoint; {_UNTRUSTED}",
        lambda n: b"/Type" + b" " * n,
    ),
    "mediaparts.formats._pdf:_COUNT": Reviewed(
        rb"/Count\s+(\d{1,10})(?!\d)",
        f"a /Pages dictionary; {_UNTRUSTED}",
        lambda n: b"/Count " + b"9" * n,
    ),
    "mediaparts.formats._pdf:_FIRST": Reviewed(
        rb"/First\s+(\d{1,10})(?!\d)",
        f"an /ObjStm dictionary; {_UNTRUSTED}",
        lambda n: b"/First" + b" " * n,
    ),
    "mediaparts.formats._pdf:_NUMBER": Reviewed(
        rb"\d{1,10}",
        f"an object stream's header, at most 2 x MAX_OBJECTS numbers read; {_UNTRUSTED}",
        lambda n: b"9" * n,
    ),
    # --- sources, parts, providers ---------------------------------------------------------------
    "mediaparts._inline:_WHITESPACE": Reviewed(
        rb"\s+",
        f"base64 text of a data URI, dict or upload; {_UNTRUSTED}",
        lambda n: b" \t" * (n // 2),
    ),
    "mediaparts._inline:_NOT_BASE64": Reviewed(
        rb"[^A-Za-z0-9+/=]",
        f"base64 text whose length is wrong, for the error message; {_UNTRUSTED}",
        lambda n: b"A" * n,
    ),
    "mediaparts._paths:_BASE64_TEXT": Reviewed(
        r"[A-Za-z0-9+/_-]{64,}={0,2}",
        f"a path that names no file (fullmatch), to tell base64 text passed as one; {_UNTRUSTED}",
        lambda n: "A" * n + "!",
    ),
    "mediaparts.fetching._attempt:_ERRNO": Reviewed(
        r"\[Errno -?\d+\]\s*",
        f"a network error's text (httpx's, the OS's; a server's bytes may be in it); {_UNTRUSTED}",
        lambda n: "[Errno 1" * (n // 8),
    ),
    "mediaparts.fetching._attempt:_CAMEL": Reviewed(
        r"(?<=[a-z])(?=[A-Z])",
        "the class name of a network error httpx raised (a short identifier)",
        lambda n: "aA" * (n // 2),
    ),
    "mediaparts.providers.wires.messages._render:_TOOL_USE_ID": Reviewed(
        r"[a-zA-Z0-9_-]+",
        "a tool call's id (fullmatch), from a payload or the application",
        lambda n: "a" * n + "!",
    ),
    "mediaparts.providers.wires.converse._render:_TOOL_USE_ID": Reviewed(
        r"[a-zA-Z0-9_.:-]{1,64}",
        "a tool call's id (fullmatch), from a payload or the application",
        lambda n: "a" * n + "!",
    ),
    "mediaparts._conversation._make_part:_URL": Reviewed(
        r"[A-Za-z][A-Za-z0-9+.-]+://",
        "a str given to mp.part (match); the application's own value",
        lambda n: "a" * n,
    ),
    "mediaparts.providers._check:_MESSAGE": Reviewed(
        r"^\$(?:\.(?:messages|contents|input))?\[(\d+)\]",
        "a JSON path mp.check built itself (match); trusted",
        lambda n: "$.messages[" + "1" * n,
    ),
    "mediaparts.providers.wires.converse._shapes:VALID_NAME": Reviewed(
        r"\A(?!.{0,199}\s\s)[A-Za-z0-9\s\-()\[\]]{1,200}\Z",
        f"a document name in a payload given to mp.check (match); {_UNTRUSTED}",
        lambda n: "a " * (n // 2),
    ),
    "mediaparts.providers.wires.converse._shapes:NAME_BAD": Reviewed(
        r"[^A-Za-z0-9\s\-()\[\]]+",
        f"an upload's file name, made ASCII; {_UNTRUSTED}",
        lambda n: "-é" * (n // 2),
    ),
    "mediaparts.providers.wires.messages._check:_ID": Reviewed(
        r"[a-zA-Z0-9_-]+",
        f"a tool_use id in a payload given to mp.check (fullmatch); {_UNTRUSTED}",
        lambda n: "a" * n + "!",
    ),
    "mediaparts.providers.wires.converse._check:_ID": Reviewed(
        r"[a-zA-Z0-9_.:-]{1,64}",
        f"a toolUseId in a payload given to mp.check (fullmatch); {_UNTRUSTED}",
        lambda n: "a" * n + "!",
    ),
    "mediaparts.providers.wires.converse._check:_NAME": Reviewed(
        r"[a-zA-Z0-9_-]{1,64}",
        f"a toolUse name in a payload given to mp.check (fullmatch); {_UNTRUSTED}",
        lambda n: "a" * n + "!",
    ),
    "mediaparts.formats._imageinfo:_ENTROPY_END": Reviewed(
        rb"\xff[^\x00\xd0-\xd7]",
        f"a JPEG's entropy-coded data, from one scan to the next marker; {_UNTRUSTED}",
        lambda n: b"\xff\x00" * (n // 2),
    ),
    "mediaparts._surrogates:SURROGATE": Reviewed(
        "[\ud800-\udfff]",
        f"a part's file name, URL or media type; {_UNTRUSTED}",
        lambda n: "\ud800" * n,
    ),
    "mediaparts.fetching._policy:_SCHEME": Reviewed(
        r"[A-Za-z][A-Za-z0-9+.\-]*:",
        f"a URL being redacted for a message (match); {_UNTRUSTED}",
        lambda n: "a" * n,
    ),
    "mediaparts.fetching._policy:_AUTHORITY_END": Reviewed(
        r"[/?#\\]",
        f"a URL or password being redacted; {_UNTRUSTED}",
        lambda n: "a" * n,
    ),
    "mediaparts._upload:_PATTERN": Reviewed(
        r"\*/\*|[a-z0-9][a-z0-9!#$&^_.+-]*/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)",
        "an accept pattern the application gives from_upload (fullmatch); trusted",
        lambda n: "a" * n,
    ),
    "mediaparts.cli._files:_UNSAFE_NAME": Reviewed(
        r'[\x00-\x1f\x7f/\\:*?"<>|\ud800-\udfff]',
        f"a URL's file name, for normalize --out; {_UNTRUSTED}",
        lambda n: "\x00" * n,
    ),
    "mediaparts._conversation._messages:_RFC3339_START": Reviewed(
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}",
        f"a message dict's created_at text (match, anchored, fixed width); {_UNTRUSTED}",
        lambda n: "1" * n,
    ),
    "mediaparts._conversation._descriptors:_CONTROL": Reviewed(
        r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]",
        f"every text mp.show prints (sub), e.g. a conversation file; {_UNTRUSTED}",
        lambda n: "\x1b" * n,
    ),
    "mediaparts._conversation._descriptors:_BARE": Reviewed(
        r"[\w.:/@+#=-]+",
        f"a header value mp.show prints: a name, an id (fullmatch); {_UNTRUSTED}",
        lambda n: "a" * n + " ",
    ),
    "mediaparts._conversation._summary:_BASE64": Reviewed(
        r"[A-Za-z0-9+/]+={0,2}",
        "strings of a rendered payload in a test (fullmatch); trusted",
        lambda n: "A" * n + "!",
    ),
    "mediaparts._conversation._summary:_HEX": Reviewed(
        r"[0-9A-Fa-f]+",
        "strings of a rendered payload in a test (fullmatch); trusted",
        lambda n: "0" * n + "g",
    ),
    # --- Office packages and RTF: bounded by TransformPolicy.max_expanded_bytes -----------------
    "mediaparts.converting._zipguard:_DECLARED": Reviewed(
        r"""\bencoding\s*=\s*["']([^"']*)""",
        f"an XML part's declaration, at most 1,024 characters (search); {_UNTRUSTED}",
        lambda n: "encoding='" * (n // 10),
    ),
    "mediaparts.converting._zipguard:_DOCTYPE": Reviewed(
        r"<!\s*(?:[Dd][Oo][Cc][Tt][Yy][Pp][Ee]|[Ee][Nn][Tt][Ii][Tt][Yy])",
        f"an Office package's XML part, decoded, whole (search); {_UNTRUSTED}",
        lambda n: "<!" + " " * n,
    ),
    "mediaparts.converting._zipguard:_DOCTYPE_BYTES": Reviewed(
        rb"<!\s*(?:[Dd][Oo][Cc][Tt][Yy][Pp][Ee]|[Ee][Nn][Tt][Ii][Tt][Yy])",
        f"an Office package's XML part, its bytes, whole (search); {_UNTRUSTED}",
        lambda n: b"<!" + b" " * n,
    ),
    "mediaparts.converting._docx:_HEADING": Reviewed(
        r"heading (\d)",
        f"a Word style's name (match); {_UNTRUSTED}",
        lambda n: "heading " * (n // 8),
    ),
    "mediaparts.converting._docx:_LIST": Reviewed(
        r"list (bullet|number)(?: (\d))?",
        f"a Word style's name (match); {_UNTRUSTED}",
        lambda n: "list " * (n // 5),
    ),
    "mediaparts.converting._rtf:_TOKEN": Reviewed(
        r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'[0-9a-fA-F]{0,2}|\\.?|[{}]|[^\\{}]+",
        f"an RTF file, whole, token by token (finditer); {_UNTRUSTED}",
        lambda n: "\\a1 " * (n // 4),
    ),
    # --- SVG: the whole document, bounded by TransformPolicy.max_expanded_bytes ------------------
    "mediaparts.converting._svg_scan:_REFERENCE": Reviewed(
        r"&([^\s&;#<>\"']+);",
        f"an SVG's text, once, when its DTD declares entities (findall); {_UNTRUSTED}",
        lambda n: "&" + "a" * n,
    ),
    "mediaparts.converting._svg_geometry:_NUMBER": Reviewed(
        r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?",
        f"an SVG attribute's text: a path's data, points, a viewBox (findall); {_UNTRUSTED}",
        lambda n: "1e+" * (n // 3),
    ),
    "mediaparts.converting._svg_geometry:_COMMAND": Reviewed(
        r"([MmZzLlHhVvCcSsQqTtAa])",
        f"a path's data (split: one character class); {_UNTRUSTED}",
        lambda n: "M" * n,
    ),
    "mediaparts.converting._svg_geometry:_TRANSFORM": Reviewed(
        r"(?<![A-Za-z])([A-Za-z]+)\s*\(([^()]*)\)",
        f"an SVG transform attribute (findall); {_UNTRUSTED}",
        lambda n: "a(" * (n // 2),
    ),
    # --- batch files: a caller's request id --------------------------------------------------------
    "mediaparts.providers.anthropic._batch:CUSTOM_ID": Reviewed(
        r"[a-zA-Z0-9_-]{1,64}",
        f"a batch request's id, any length (fullmatch: one bounded class run); {_UNTRUSTED}",
        lambda n: "a" * n + "!",
    ),
}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_re_call(node: ast.AST) -> str | None:
    """The `re` function a node calls (`re.compile(...)` -> "compile"), or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        owner = node.func.value
        if isinstance(owner, ast.Name) and owner.id == "re":
            return node.func.attr
    return None


@cache
def _scan() -> tuple[dict[str, ast.AST], list[str], dict[str, set[str]]]:
    """Find every pattern in src: module-level compiles, stray uses, and the methods called.

    Returns:
        The compiled patterns by "module:NAME"; the places that use `re` otherwise; and for
        each NAME, how it is used ("match", "fullmatch", ..., or "other" when passed around).
    """
    compiled: dict[str, ast.AST] = {}
    stray: list[str] = []
    trees = {path: ast.parse(path.read_text()) for path in sorted(SRC.rglob("*.py"))}
    for path, tree in trees.items():
        module = _module_name(path)
        parents = _parents(tree)
        for node in ast.walk(tree):
            where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.ImportFrom) and node.module == "re":
                stray.append(f"{where}: from re import ...")
            if isinstance(node, ast.Import) and any(
                alias.name == "re" and alias.asname for alias in node.names
            ):
                stray.append(f"{where}: import re as ...")
            function = _is_re_call(node)
            if function is None or function == "escape":
                continue
            parent = parents.get(node)
            if (
                function == "compile"
                and isinstance(parent, ast.Assign)
                and parents.get(parent) is tree
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                compiled[f"{module}:{parent.targets[0].id}"] = node
            else:
                stray.append(f"{where}: re.{function}() outside a module-level NAME = re.compile")
    names = {key.partition(":")[2] for key in compiled}
    uses: dict[str, set[str]] = {name: set() for name in names}
    for tree in trees.values():
        parents = _parents(tree)
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
            if name not in names or isinstance(getattr(node, "ctx", None), ast.Store):
                continue
            parent = parents.get(node)
            called = isinstance(parent, ast.Attribute) and isinstance(parents.get(parent), ast.Call)
            uses[name].add(parent.attr if called and isinstance(parent, ast.Attribute) else "other")
    return compiled, stray, uses


def _pattern(key: str) -> re.Pattern[Any]:
    module, _, name = key.partition(":")
    found = getattr(importlib.import_module(module), name)
    assert isinstance(found, re.Pattern)
    return found


def _mode(key: str) -> Mode:
    methods = _scan()[2][key.partition(":")[2]]
    return "match" if methods and methods <= _MATCH_METHODS else "search"


def test_regex_every_pattern_in_src_is_reviewed() -> None:
    """Each compiled pattern in src is in REVIEWED, with the text that was reviewed."""
    compiled, _, _ = _scan()
    assert set(compiled) == set(REVIEWED), (
        "review each new pattern for linear time (tests/robustness/_linear_regex.py) and add it to "
        "REVIEWED with what it runs over and its worst input; remove patterns that are gone"
    )
    changed = [key for key in REVIEWED if _pattern(key).pattern != REVIEWED[key].text]
    assert not changed, f"changed since review: {changed}; review them and update REVIEWED"


def test_regex_is_only_used_through_reviewed_constants() -> None:
    """No `re.search(...)`-style call or aliased import bypasses the reviewed table."""
    _, stray, _ = _scan()
    assert not stray, "compile the pattern as a module constant and review it:\n" + "\n".join(stray)


@pytest.mark.parametrize("key", sorted(REVIEWED))
def test_regex_is_linear(key: str) -> None:
    """Each pattern is linear by construction for the way src uses it."""
    assert problems(_pattern(key), _mode(key)) == []


@pytest.mark.parametrize("key", sorted(REVIEWED))
def test_regex_worst_input_runs(key: str) -> None:
    """Each worst input is of the pattern's type and goes through the pattern as src uses it."""
    pattern = _pattern(key)
    data = REVIEWED[key].worst(1 << 16)
    assert isinstance(data, type(pattern.pattern))
    assert len(data) >= 1 << 15
    if _mode(key) == "match":
        pattern.match(data)
    else:
        list(pattern.finditer(data))


@pytest.mark.parametrize(
    ("text", "flags", "mode"),
    [
        (rb"\d+\s+\d+\s+obj\b", 0, "search"),  # detection before issue 10: 25 s for 65 KB
        (r"!?\[[^\]\n]+\]\([^)\s]+(?:\s+\"[^\"]*\")?\)", 0, "search"),  # quadratic: 0.3 s per 8 KiB
        (r'"(?:[^"]|"")*"', 0, "search"),
        (r"#![^\n]*?\b(python[\d.]*|sh|bash|zsh|dash|node)\b", 0, "match"),
        (rb'ContentType="([^"]+)\.main\+xml"', 0, "search"),
        (r"^(?!.*\s\s)[A-Za-z0-9\s\-()\[\]]{1,200}$", 0, "match"),
        (r"(a+)+$", 0, "match"),
        (r"(a|a)*b", 0, "search"),
        (r"\s+$", 0, "search"),
        (r"a.{0,1000}b", 0, "search"),
        (r"(\w)\1", 0, "search"),
        (r"[a-z]+x", re.IGNORECASE, "search"),
    ],
)
def test_regex_checker_refuses_superlinear_shapes(
    text: str | bytes, flags: int, mode: Mode
) -> None:
    """The checker refuses the shapes that backtrack: the old patterns and the classics."""
    assert problems(re.compile(text, flags), mode)


def test_detect_pdf_header_then_a_line_of_digits_is_text() -> None:
    """`%PDF-1.7 x` and 65,000 digits is text (the header line is prose), found in linear time."""
    found = mp.detect(b"%PDF-1.7 x\n" + b"1" * 65_000)
    assert found.media_type == "text/plain"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[a](" * 16_384, "text/plain"),
        ("# Title\n\nSee [Foo](https://en.wikipedia.org/wiki/Foo_(bar)).\n", "text/markdown"),
        (
            "# Title\n\n[![Build](https://ci.example/badge.svg)](https://ci.example)\n",
            "text/markdown",
        ),
    ],
    ids=["link-openers", "link-with-parentheses", "badge-inside-link"],
)
def test_detect_markdown_links(text: str, expected: str) -> None:
    """Links still count for Markdown; a line of link openers is plain text, found linearly."""
    assert mp.detect(text.encode()).media_type == expected


@pytest.mark.parametrize(
    "name",
    ["a\x1cb", "x\u3000y", "a\u00a0b", "a" * 200 + "\n", "\nab  cd"],
    ids=[
        "file-separator",
        "ideographic-space",
        "no-break-space",
        "201-with-newline",
        "double-space-after-newline",
    ],
)
def test_bedrock_valid_name_refuses_what_bedrock_refuses(name: str) -> None:
    """Bedrock's ASCII, whole-string name rule: Unicode spaces, any double space, a 201st fail."""
    assert converse.VALID_NAME.match(name) is None


@pytest.mark.parametrize("name", ["a b", "Report (final) [v2]", "a-b", "a" * 200, "a\tb"])
def test_bedrock_valid_name_accepts_what_bedrock_accepts(name: str) -> None:
    """Letters, digits, single whitespace, hyphens, parentheses and brackets, 1-200 chars."""
    assert converse.VALID_NAME.match(name) is not None

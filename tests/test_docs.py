"""The docs are code that runs: every Python block of README.md and docs/*.md, and the
generated parts (the providers' rules table, the CLI's help) match the code.

Run with MEDIAPARTS_UPDATE_GOLDEN=1 to rewrite the generated parts after a deliberate change.

How the Python blocks run: the blocks of one page run in order in one namespace (a page reads
as one session), in a fresh folder holding `testdata/` and the files the pages name (FILES),
offline: the URLs they name are served by `media_urls` (URLS), any other fetch is refused.
Blocks fenced as ```python, ```py or ```pycon run; those starting with `>>>` run as doctests.
Output blocks (```text, ```json, ...) do not. Top-level `await` works, as in an async function.
An HTML comment on the line before a block says what it needs or why it cannot run:

    <!-- given: client, upload -->     names the block uses without defining (GIVEN, below)
    <!-- not-run: needs an API key --> not run; test_docs_not_run_blocks_are_few lists them
"""

from __future__ import annotations

import ast
import asyncio
import base64
import contextlib
import doctest
import importlib.util
import inspect
import io
import itertools
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.cli import main
from mediaparts.testing import MediaFactory, MediaURLs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# The docs generator is a script of the repository, not part of the wheel.
_SPEC = importlib.util.spec_from_file_location(
    "provider_table", ROOT / "scripts" / "provider_table.py"
)
assert _SPEC is not None and _SPEC.loader is not None
provider_table = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(provider_table)
TESTDATA = ROOT / "testdata"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
RUN = {"python", "py", "pycon"}
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S,
)
MARK = re.compile(r"<!--\s*(?P<kind>given|not-run):\s*(?P<value>.*?)\s*-->")

# The files the pages name, made from testdata/ (the README names testdata/ itself).
FILES = {
    "photo.jpg": "photo.jpg",
    "photo.heic": "photo.heic",
    "song.m4a": "tone.m4a",
    "a.jpg": "upright.jpg",
    "a.png": "alpha.png",
    "b.png": "palette.png",
    "crop.png": "alpha.png",
    "uploads/cat.png": "alpha.png",
    "tests/data/report.pdf": "document.pdf",
    "report.pdf": "document.pdf",
    "clip.mp4": "clip.mp4",
}
# The URLs the pages fetch, served from memory (each by its testdata file).
URLS = {
    "https://example.com/cat": "photo.jpg",
    "https://example.com/report.pdf": "document.pdf",
    "https://cdn.example.com/i/8f3a": "photo.jpg",
    "https://x/y.png": "alpha.png",
    "https://x/b.pdf": "document.pdf",
}
# Blocks that do not run, by page and reason: keep this list short, and say why for each.
NOT_RUN: list[tuple[str, str]] = []


@dataclass(frozen=True)
class Block:
    page: str  # README.md or docs/<name>.md
    line: int  # of the block's first code line, 1-based
    lang: str
    code: str
    given: tuple[str, ...]
    not_run: str | None


def blocks(path: Path) -> Iterator[Block]:
    """Yield the fenced blocks of a Markdown page, with the marker on the line before each."""
    text = path.read_text()
    for found in FENCE.finditer(text):
        before = text[: found.start()].rstrip("\n").rpartition("\n")[2]
        mark = MARK.fullmatch(before.strip())
        given = not_run = None
        if mark and mark["kind"] == "given":
            given = tuple(name.strip() for name in mark["value"].split(","))
        elif mark:
            not_run = mark["value"]
        code = "\n".join(line.removeprefix(found["indent"]) for line in found["body"].split("\n"))
        yield Block(
            page=path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name,
            line=text.count("\n", 0, found.start("body")) + 1,
            lang=found["lang"],
            code=code,
            given=given or (),
            not_run=not_run,
        )


def _anthropic_client() -> Any:
    """The Anthropic SDK's client, answered in memory; a recording stand-in without the SDK."""
    try:
        import anthropic
        import httpx2
    except ImportError:
        return SimpleNamespace(messages=SimpleNamespace(create=lambda **kwargs: kwargs))
    reply = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, json=reply))
    http = httpx2.Client(transport=transport)
    return anthropic.Anthropic(api_key="docs-test", http_client=http, max_retries=0)


def _upload() -> Any:
    """A FastAPI / Starlette UploadFile of a photo (it serves from_upload and afrom_upload)."""
    starlette = pytest.importorskip("starlette.datastructures")
    data = (TESTDATA / "photo.jpg").read_bytes()
    return starlette.UploadFile(io.BytesIO(data), filename="photo.jpg")


def _files_client(name: str) -> Any:
    """A provider SDK client answered by a fake file store (docs/provider-files.md)."""
    servers = pytest.importorskip("tests.uploading._servers")  # skips without the SDKs
    return servers.docs_client(name)


def _streaming(provider: str, name: str, *, raw: bool = False) -> Any:
    """A provider SDK's client answering with a recorded stream (docs/streams.md), or with
    `raw`, the HTTP response holding its body."""
    clients = pytest.importorskip("tests.providers._stream_clients")
    if provider == "bedrock":
        return clients.bedrock_client(clients.case(provider, name)["events"])
    body = clients.body(provider, name)
    if raw:
        return clients.response_body(body)
    make = {"openai": clients.openai_client, "openai-responses": clients.openai_client,
            "anthropic": clients.anthropic_client, "gemini": clients.gemini_client}  # fmt: skip
    return make[provider](body)


def _pil(data: bytes) -> Any:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return image.copy()


def _long_edge(limit: int) -> Callable[[int, int], tuple[int, int]]:
    def target(width: int, height: int) -> tuple[int, int]:
        scale = min(1.0, limit / max(width, height))
        return round(width * scale), round(height * scale)

    return target


def _send_client(provider: str) -> Any:
    """A provider's own SDK client answered with a canned reply (docs/providers.md)."""
    clients = pytest.importorskip("tests.providers._send_clients")
    return clients.CLIENTS[provider]()


# The names a `<!-- given: ... -->` block may use, each made fresh for the page.
GIVEN: dict[str, Callable[[MediaFactory, MediaURLs], object]] = {
    "groq_client": lambda media, urls: _send_client("groq"),
    "azure_openai_client": lambda media, urls: _send_client("azure-openai"),
    "azure_openai_responses_client": lambda media, urls: _send_client("azure-openai-responses"),
    "openrouter_client": lambda media, urls: _send_client("openrouter"),
    "vertex_client": lambda media, urls: _send_client("vertex"),
    "anthropic_vertex_client": lambda media, urls: _send_client("anthropic-vertex"),
    "anthropic_bedrock_client": lambda media, urls: _send_client("anthropic-bedrock"),
    "mistral_client": lambda media, urls: _send_client("mistral"),
    "xai_client": lambda media, urls: _send_client("xai"),
    "xai_responses_client": lambda media, urls: _send_client("xai-responses"),
    "deepseek_client": lambda media, urls: _send_client("deepseek"),
    "ollama_client": lambda media, urls: _send_client("ollama"),
    "client": lambda media, urls: _anthropic_client(),
    "upload": lambda media, urls: _upload(),
    "media": lambda media, urls: media,
    "media_urls": lambda media, urls: urls,
    "png_bytes": lambda media, urls: (TESTDATA / "alpha.png").read_bytes(),
    "raw": lambda media, urls: (TESTDATA / "photo.jpg").read_bytes(),
    "data": lambda media, urls: (TESTDATA / "photo.jpg").read_bytes(),
    "text": lambda media, urls: base64.b64encode((TESTDATA / "alpha.png").read_bytes()).decode(),
    "uri": lambda media, urls: media.image(8, 8).to_data_uri(),
    "image": lambda media, urls: _pil(media.image(64, 48).data),
    "pil_img": lambda media, urls: _pil(media.image(64, 48).data),
    "fileobj": lambda media, urls: io.BytesIO((TESTDATA / "document.pdf").read_bytes()),
    "path": lambda media, urls: "photo.jpg",
    "part": lambda media, urls: mp.part("https://example.com/cat"),
    "payload": lambda media, urls: mp.render(
        mp.User("Hi", files=[media.image(64, 64)]), "anthropic"
    ),
    "phone_photo": lambda media, urls: media.image(4032, 3024, format="jpeg", orientation=6).data,
    "long_edge_1568": lambda media, urls: _long_edge(1568),
    "openai_client": lambda media, urls: _files_client("openai"),
    "async_openai_client": lambda media, urls: _files_client("async-openai"),
    "anthropic_client": lambda media, urls: _files_client("anthropic"),
    "gemini_client": lambda media, urls: _files_client("gemini"),
    "s3": lambda media, urls: _files_client("s3"),
    "openai_stream_client": lambda media, urls: _streaming("openai", "text_usage"),
    "responses_stream_client": lambda media, urls: _streaming(
        "openai-responses", "web_search_url_citations"
    ),
    "anthropic_stream_client": lambda media, urls: _streaming("anthropic", "thinking"),
    "anthropic_stream_body": lambda media, urls: _streaming("anthropic", "thinking", raw=True),
    "gemini_stream_client": lambda media, urls: _streaming("gemini", "text_chunks"),
    "bedrock_stream_client": lambda media, urls: _streaming("bedrock", "text_with_usage"),
}


def _run(block: Block, namespace: dict[str, Any]) -> None:
    """Run one block in the page's namespace; a traceback names the Markdown file and line."""
    name = f"{block.page}:{block.line}"
    if block.code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(
            block.code, namespace, name, block.page, block.line - 1
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, clear_globs=False)
        assert runner.failures == 0, f"{name}: {runner.failures} doctest example(s) failed"
        return
    source = "\n" * (block.line - 1) + block.code  # so tracebacks give the Markdown line
    code = compile(source, block.page, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(code, namespace)  # the docs' own examples
    if inspect.iscoroutine(result):
        asyncio.run(result)


def _runnable(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.lang in RUN and b.not_run is None]


CODE_PAGES = [page for page in PAGES if _runnable(page)]
# Pages whose examples take seconds, each with why: the slow tier (pytest -m "not slow" leaves
# them out).
SLOW_PAGES = {
    "distributed.md": "starts a local Ray, about 10 s",
}


@pytest.mark.mediaparts(assert_all_requested=False)
@pytest.mark.parametrize(
    "page",
    [
        pytest.param(p, id=p.name, marks=[pytest.mark.slow] if p.name in SLOW_PAGES else [])
        for p in CODE_PAGES
    ],
)
def test_docs_python_blocks_run(
    page: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    media: MediaFactory,
    media_urls: MediaURLs,
) -> None:
    """Every Python block of the page runs, in order, offline, in a folder of example files."""
    (tmp_path / "testdata").symlink_to(TESTDATA)
    for name, source in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TESTDATA / source, tmp_path / name)
    for url, source in URLS.items():
        media_urls.add(url, (TESTDATA / source).read_bytes())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEDIAPARTS_CACHE_DIR", str(tmp_path / ".cache"))  # the upload cache
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    try:
        for block in _runnable(page):
            unknown = set(block.given) - GIVEN.keys()
            assert not unknown, f"{block.page}:{block.line}: no GIVEN for {sorted(unknown)}"
            namespace.update({name: GIVEN[name](media, media_urls) for name in block.given})
            _run(block, namespace)
    finally:
        mp.configure(fetch=mp.FetchPolicy())  # a page may set the default policy


def test_docs_not_run_blocks_are_few() -> None:
    """The Python blocks that do not run are the listed few, each with its reason."""
    skipped = [
        (b.page, b.not_run)
        for page in PAGES
        for b in blocks(page)
        if b.lang in RUN and b.not_run is not None
    ]
    assert skipped == NOT_RUN
    assert all(reason for _, reason in skipped)


def test_docs_blocks_are_found() -> None:
    """The block reader finds the pages' Python blocks (a broken pattern would pass vacuously)."""
    found = [b for page in PAGES for b in _runnable(page)]
    assert len(found) >= 20
    assert {b.page for b in found} >= {"README.md", "docs/testing.md", "docs/uploads.md"}


def _block(path: Path, name: str, generated: str) -> None:
    """Compare (or, when updating, rewrite) the text between a doc's start and end markers."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = path.read_text()
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)
    assert pattern.search(text), f"{path.name} has no {start} ... {end} block"
    wanted = f"{start}\n{generated}{end}"
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        path.write_text(pattern.sub(lambda _: wanted, text))
        return
    assert pattern.search(text).group(0) == wanted, (  # type: ignore[union-attr]
        f"{path.name} is out of date; rerun with MEDIAPARTS_UPDATE_GOLDEN=1"
    )


def test_docs_providers_table_is_generated() -> None:
    """docs/providers.md holds the table generated from the rule objects."""
    _block(DOCS / "providers.md", "rules", provider_table.rules_markdown() + "\n")


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["inspect"],
        ["normalize"],
        ["render"],
        ["carry"],
        ["show"],
        ["batch", "write"],
        ["batch", "read"],
    ],
)
def test_docs_cli_help_is_current(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md shows each command's --help as the code prints it."""
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps help to the terminal's width
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*command, "--help"])
    name = "help-" + ("-".join(command) or "main")
    _block(DOCS / "cli.md", name, "```text\n" + out.getvalue() + "```\n")


def test_docs_block_reader_reads_markers_and_doctests(tmp_path: Path) -> None:
    """The reader takes each block's language, first line and marker; doctest blocks run."""
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n<!-- given: media, client -->\n```python\nx = 1\n```\n\n"
        "<!-- not-run: needs an API key -->\n```py\nsend()\n```\n\n"
        "```text\nout\n```\n\n- item\n\n  ```pycon\n  >>> x + 1\n  2\n  ```\n"
    )
    found = list(blocks(page))
    assert [(b.lang, b.line, b.given, b.not_run) for b in found] == [
        ("python", 5, ("media", "client"), None),
        ("py", 10, (), "needs an API key"),
        ("text", 14, (), None),
        ("pycon", 20, (), None),
    ]
    namespace: dict[str, Any] = {}
    _run(found[0], namespace)
    _run(found[3], namespace)  # the doctest sees x from the block before
    with pytest.raises(AssertionError, match="1 doctest example"):
        _run(Block("page.md", 1, "pycon", ">>> x\n5\n", (), None), namespace)


SHELL = {"sh", "bash", "shell", "console"}
# A package a `pip install` line names: a local path ('.', '-e .', "'.[heif]'") or a name.
PIP_ARGUMENT = re.compile(r"""(?:^|\s)(?!-)['"]?(?P<spec>[^\s'"]+)['"]?""")
EXTRAS = re.compile(r"\[(?P<extras>[^\]]*)\]")


def _shell_lines(page: Path) -> Iterator[tuple[int, str]]:
    """Each command line of the page's shell blocks, with its line number; comments dropped."""
    for block in blocks(page):
        if block.lang in SHELL:
            for offset, line in enumerate(block.code.splitlines()):
                command = line.split(" #", 1)[0].strip().removeprefix("$ ")
                if command and not command.startswith("#"):
                    yield block.line + offset, command


def _pip_specs(command: str) -> list[str]:
    """The package specs of every `pip install` in a command line (options left out)."""
    specs: list[str] = []
    for part in command.split("&&"):
        words = part.split("pip install", 1)
        if len(words) == 2:
            arguments = re.sub(r"--group \S+|-[-\w]+", " ", words[1])
            specs += [m["spec"] for m in PIP_ARGUMENT.finditer(arguments)]
    return specs


def test_docs_install_commands_work_from_a_clone() -> None:
    """Every `pip install` the pages show installs mediaparts from the clone ('.', with
    extras that exist), never by its name: it is not published yet, so that line would fail
    with "No matching distribution" (the published name may appear in a comment)."""
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = set(pyproject["project"]["optional-dependencies"])
    checked = 0
    for page in PAGES:
        for line, command in _shell_lines(page):
            for spec in _pip_specs(command):
                where = f"{page.relative_to(ROOT)}:{line}: {spec}"
                assert not spec.startswith("mediaparts"), f"{where}: install from the clone, '.'"
                if spec.startswith("."):
                    checked += 1
                    named = EXTRAS.search(spec)
                    unknown = set(named["extras"].split(",")) - extras if named else set()
                    assert not unknown, f"{where}: no such extra {sorted(unknown)}"
    assert checked >= 3  # the Quick start's two and the Install section's


def test_docs_cli_inspect_commands_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every `mediaparts inspect` of files the pages show runs on the files they name
    (testdata/ and the docs' example files), and exits 0 unless the page shows it failing;
    a transcript (`$ mediaparts ...` and its output) shows what it prints."""
    (tmp_path / "testdata").symlink_to(TESTDATA)
    for name, source in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TESTDATA / source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    ran = 0
    for page in PAGES:
        text = page.read_text()
        for line, command in _shell_lines(page):
            found = re.search(r"(?:^|/|\s)mediaparts (inspect .*)", command)
            if not found or "://" in command:  # a URL needs its server: files only here
                continue
            # A transcript shows a failure in the output under the command: an "error:" line
            # (exit 2) or an input rejected or unreadable (exit 1).
            shown = list(
                itertools.takewhile(
                    lambda out: not out.startswith(("```", "$ ")), text.splitlines()[line:]
                )
            )
            expected_error = any(re.search(r"error:|rejected|cannot", out) for out in shown)
            code = main(found[1].split())
            output = capsys.readouterr()
            where = f"{page.relative_to(ROOT)}:{line}"
            assert (code != 0) is expected_error, f"{where}: exit {code}\n{output.err}"
            if text.splitlines()[line - 1].startswith("$ "):  # a transcript: its output too
                printed = (output.out + output.err).splitlines()
                assert printed == shown, f"{where}: the transcript is not what it prints"
            ran += 1
    assert ran >= 4


def test_docs_models_are_not_deprecated() -> None:
    """No page names an Anthropic model the installed SDK deprecates (a call with it warns)."""
    deprecated: dict[str, str] = {}
    with contextlib.suppress(ImportError):
        from anthropic.resources.messages import messages as sdk_messages

        deprecated = dict(getattr(sdk_messages, "DEPRECATED_MODELS", {}))
    if not deprecated:
        pytest.skip("the anthropic SDK (with its list of deprecated models) is not installed")
    named = {
        (page.relative_to(ROOT).as_posix(), model)
        for page in PAGES
        for model in re.findall(r"\bclaude-[a-z0-9.-]*[a-z0-9]", page.read_text())
        if model in deprecated
    }
    assert named == set()


def test_docs_index_leads_to_every_page() -> None:
    """docs/index.md links every page of docs/ (a new page joins the index)."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+\.md)(?:#[^)]*)?\)", index))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")} - {"index.md"}
    assert sorted(pages - linked) == []


# The recipes of docs/architecture.md ("Where each kind of change goes"): each names the files
# a change touches, and each must keep naming files and names that exist.
_RECIPES = ("A provider on an existing wire", "A wire", "A media format", "A part kind")
_SRC = ROOT / "src" / "mediaparts"


def _recipe(title: str) -> str:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    start = text.index(f"\n### {title}\n")
    end = text.find("\n### ", start + 1)
    return text[start : end if end != -1 else None]


def _file_of(token: str) -> Path | None:
    """Return the file or folder a recipe's backticked path names, if it exists anywhere."""
    token = token.rstrip("/")
    for base in (ROOT, _SRC, _SRC / "providers", _SRC / "providers" / "wires"):
        for path in (base / token, base / f"{token}.py"):  # a folder, a file, or a module
            if path.exists():
                return path
    name = Path(token).name
    found = [p for p in [*_SRC.rglob(name), *(ROOT / "tests").rglob(name)] if p.exists()]
    return found[0] if found else None


@pytest.mark.parametrize("title", _RECIPES)
def test_docs_recipe_names_files_that_exist(title: str) -> None:
    """Each recipe lists the files it touches, and every file and name it cites exists (a
    `NAME` in `file` is in that file), so a move or a rename cannot leave it stale."""
    recipe = _recipe(title)
    paths = [
        t
        for t in re.findall(r"`([\w./<>-]+)`", recipe)
        if ("/" in t or t.endswith(".py")) and "<" not in t and not t.startswith(".")
    ]
    assert len(set(paths)) >= 3, paths
    missing = [t for t in paths if _file_of(t) is None]
    assert missing == []
    for name, where in re.findall(r"`(\w+)` (?:in|of|to) `([\w./-]+\.py)`", recipe):
        path = _file_of(where)
        assert path is not None and name in path.read_text(encoding="utf-8"), (name, where)

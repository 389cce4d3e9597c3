"""mediaparts.testing: the pytest plugin's fixtures, marker and payload helpers.

The plugin's behaviour as users see it (outcomes, teardown failures, failure text) is tested by
running their test modules with `pytester`, under the strict configuration a careful project
has (`--strict-markers --strict-config`, warnings as errors). Until the `pytest11` entry point
is installed, those runs load the plugin by hand (`plugins=` in process, `-p mediaparts.testing`
in a subprocess); once it is, pytest loads it by itself.

This module takes the `media` and `media_urls` fixtures by importing them rather than through
`pytest_plugins`: the plugin is already imported here, and pytest warns (an error under
`filterwarnings = error`) when a module it is asked to load as a plugin is already imported.
"""

from __future__ import annotations

import asyncio
import base64
import glob
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import wave
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageOps

import mediaparts as mp
import mediaparts.testing
from mediaparts.fetching import _fetch
from mediaparts.testing import MediaFactory, MediaURLs, _plugin, assert_fits, describe, summarize

pytest_plugins = ["pytester"]
# The plugin's fixtures, found by pytest in this module's namespace (see the docstring).
media = _plugin.media
media_urls = _plugin.media_urls

# pytester runs load the plugin by hand only while the entry point is not installed: loading it
# twice (by hand and by its entry point) is an error.
_INSTALLED = any(ep.value == "mediaparts.testing" for ep in entry_points(group="pytest11"))
PLUGIN_OBJECTS = [] if _INSTALLED else [mediaparts.testing]
PLUGIN_ARGS = [] if _INSTALLED else ["-p", "mediaparts.testing"]
SRC = str(Path(mp.__file__).resolve().parent.parent)

PROVIDERS = mp.providers.names()
BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}")
DESCRIPTOR = re.compile(r"<[a-z]+/[-+.\w]+( \d+x\d+)? \d+(\.\d)? [KMG]?B sha256:[0-9a-f]{6}>")

# A strict user's configuration, written into every pytester folder so the runs do not depend on
# this repository's pyproject.toml.
STRICT_CONFIG = """
[tool.pytest.ini_options]
addopts = ["--strict-markers", "--strict-config"]
filterwarnings = ["error"]
"""

USER_MODULE = """
import asyncio
import copy
import json
import re
import shutil

import pytest

import mediaparts as mp
from mediaparts.testing import assert_fits, summarize

PROVIDERS = mp.providers.names()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_fits(media, media_urls, provider):
    photo = media.image(640, 480, format="jpeg", orientation=6)
    url = media_urls.add("https://example.com/chart.png", media.image(320, 200))
    message = mp.User("What is in these?", files=[photo, mp.ImagePart.from_url(url)])
    payload = mp.render(message, provider, urls="inline")
    assert_fits(payload, provider)
    assert media_urls.requests == [url]
    dumped = json.dumps(summarize(payload))
    assert not re.search(r"[A-Za-z0-9+/]{40,}", dumped)
    assert "<image/jpeg 640x480 " in dumped  # turned upright by render


def test_unregistered_url_is_refused(media_urls):
    with pytest.raises(mp.OfflineError, match="media_urls.add"):
        mp.ImagePart.from_url("https://example.com/elsewhere.png").data


def test_async_load(media, media_urls):
    url = media_urls.add("https://example.com/a.wav", media.audio(0.5))
    part = asyncio.run(mp.AudioPart.from_url(url).aload())
    assert part.data == media.audio(0.5).data


def test_tiff_claim_does_not_fit_anthropic(media):
    payload = mp.render(media.image(64, 48), "anthropic")
    tampered = copy.deepcopy(payload)
    tampered["messages"][0]["content"][0]["source"]["media_type"] = "image/tiff"
    assert_fits(payload, "anthropic")
    with pytest.raises(AssertionError, match=r"source\\.data: declared image/tiff"):
        assert_fits(tampered, "anthropic")
"""


@pytest.fixture
def strict(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester folder with a strict user's configuration."""
    pytester.makepyprojecttoml(STRICT_CONFIG)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args, plugins=PLUGIN_OBJECTS)


# -- the plugin as a user runs it --------------------------------------------------------------


def test_plugin_user_module_passes(strict: pytest.Pytester) -> None:
    """A user's module using media, media_urls, assert_fits and summarize passes."""
    strict.makepyfile(test_user=USER_MODULE)
    run(strict).assert_outcomes(passed=len(PROVIDERS) + 3)


@pytest.mark.slow  # pytest in a second Python process
def test_plugin_user_module_passes_in_a_subprocess(
    strict: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same module passes in a fresh interpreter, as in CI."""
    paths = [SRC, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    strict.makepyfile(test_user=USER_MODULE)
    result = strict.runpytest_subprocess(*PLUGIN_ARGS, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=len(PROVIDERS) + 3)


def test_plugin_unused_registration_fails_at_teardown(strict: pytest.Pytester) -> None:
    """A registered URL never requested fails the test at teardown, saying how to fix it."""
    strict.makepyfile(
        """
        def test_registers(media, media_urls):
            media_urls.add("https://example.com/unused.png", media.image(8, 8))
        """
    )
    result = run(strict)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_registers*",
            "media_urls: 1 registered URL was never requested:",
            "  - https://example.com/unused.png",
            "Fetch it in the test (part.data, load(), aload() or mp.render with urls='inline'),"
            " remove the media_urls.add() call, or mark the test"
            " @pytest.mark.mediaparts(assert_all_requested=False) if that is on purpose.",
        ]
    )


def test_plugin_unused_registrations_are_all_listed(strict: pytest.Pytester) -> None:
    """Every unused registration is listed, in the order added, and a used one is not."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_registers(media_urls):
            media_urls.add("https://example.com/b.txt", "b")
            media_urls.add("https://example.com/used.txt", "used")
            media_urls.add("https://example.com/a.txt", "a")
            mp.FilePart.from_url("https://example.com/used.txt").load()
        """
    )
    result = run(strict)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "media_urls: 2 registered URLs were never requested:",
            "  - https://example.com/b.txt",
            "  - https://example.com/a.txt",
            "Fetch them in the test *, remove the media_urls.add() calls, or mark the test *",
        ]
    )


def test_plugin_unregistered_url_fails_with_the_fix(strict: pytest.Pytester) -> None:
    """A fetch of an unregistered URL fails the test with OfflineError saying how to fix it."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_typo(media, media_urls):
            media_urls.add("https://example.com/charts.png", media.image(8, 8))
            mp.ImagePart.from_url("https://example.com/chart.png").load()
        """
    )
    result = run(strict)
    result.assert_outcomes(failed=1, errors=1)  # and the registration went unused
    result.stdout.fnmatch_lines(
        [
            "E *OfflineError: media_urls refused 'https://example.com/chart.png': only"
            " registered URLs are served while the media_urls fixture is active. Register it"
            " with media_urls.add('https://example.com/chart.png', content) or fix the URL."
            " Registered: https://example.com/charts.png.",
        ]
    )


def test_plugin_marker_allows_unused_registrations(strict: pytest.Pytester) -> None:
    """The marker's option turns the teardown assertion off; the closest marker wins."""
    strict.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.mediaparts(assert_all_requested=False)

        def test_module_marker(media_urls):
            media_urls.add("https://example.com/a.txt", "a")

        @pytest.mark.mediaparts(assert_all_requested=True)
        def test_closer_marker_wins(media_urls):
            media_urls.add("https://example.com/b.txt", "b")
        """
    )
    result = run(strict)
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_closer_marker_wins*"])


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ("mediaparts(assert_all=False)", "*has no option 'assert_all'; its options are: *"),
        ("mediaparts(False)", "*takes keyword options only, got (False,)*"),
        ("mediaparts(assert_all_requested=0)", "*takes True or False, got 0"),
    ],
)
def test_plugin_marker_misuse_is_an_error(
    strict: pytest.Pytester, marker: str, message: str
) -> None:
    """A wrong marker option errors at setup with what the marker takes."""
    strict.makepyfile(
        f"""
        import pytest

        @pytest.mark.{marker}
        def test_marked(media_urls):
            pass
        """
    )
    result = run(strict)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of test_marked*", message])


def test_plugin_marker_is_registered(strict: pytest.Pytester) -> None:
    """The marker is registered, so --strict-markers accepts it and --markers lists it."""
    result = run(strict, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.mediaparts(*, assert_all_requested=True): *"])


def test_plugin_assert_fits_failure_lists_paths(strict: pytest.Pytester) -> None:
    """assert_fits fails with each violation as `path: message (rule)` and a hint."""
    strict.makepyfile(
        """
        import mediaparts as mp
        from mediaparts.testing import assert_fits

        def test_tiff_claim(media):
            payload = mp.render(media.image(64, 48), "anthropic")
            payload["messages"][0]["content"][0]["source"]["media_type"] = "image/tiff"
            assert_fits(payload, "anthropic")
        """
    )
    result = run(strict)
    result.assert_outcomes(failed=1)
    path = "$.messages[0].content[0].source.data"
    result.stdout.fnmatch_lines(
        [
            "E * AssertionError: the payload does not fit anthropic (1 violation):",
            f"E *   {glob.escape(path)}: declared image/tiff but the bytes are image/png"
            " (image.media_type)",
            "E * mp.render(..., 'anthropic') normalizes parts to fit;*",
        ]
    )


def test_plugin_works_beside_pytest_httpx(strict: pytest.Pytester) -> None:
    """media_urls works with pytest-httpx loaded, alone or beside httpx_mock in one test.

    A test that asks only for httpx_mock sees no trace of this plugin.
    """
    strict.makepyfile(
        """
        import httpx
        import mediaparts as mp

        def test_media_urls_alone(media, media_urls):
            url = media_urls.add("https://example.com/a.png", media.image(8, 8))
            assert mp.ImagePart.from_url(url).data == media.image(8, 8).data

        def test_both(media, media_urls, httpx_mock):
            httpx_mock.add_response(url="https://api.example.com/v1", json={"ok": True})
            url = media_urls.add("https://example.com/a.png", media.image(8, 8))
            assert mp.ImagePart.from_url(url).load().size == len(media.image(8, 8).data)
            assert httpx.get("https://api.example.com/v1").json() == {"ok": True}
            assert [str(r.url) for r in httpx_mock.get_requests()] == ["https://api.example.com/v1"]

        def test_httpx_mock_alone(httpx_mock):
            httpx_mock.add_response(url="https://example.com/b.txt", text="from httpx_mock")
            assert mp.FilePart.from_url("https://example.com/b.txt").data == b"from httpx_mock"
        """
    )
    run(strict, "-p", "pytest_httpx").assert_outcomes(passed=3)


@pytest.mark.parametrize("name", ["mediaparts.testing", "mediaparts"])
def test_plugin_entry_point_loads_it(
    strict: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """With a pytest11 entry point installed (faked here), pytest loads the plugin by itself."""
    if _INSTALLED:
        pytest.skip("the real entry point is installed; a second one would load the plugin twice")
    info = strict.mkdir("site") / "mediaparts_fake-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mediaparts-fake\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[pytest11]\n{name} = mediaparts.testing\n")
    paths = [
        str(info.parent),
        SRC,
        *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)),
    ]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    strict.makepyfile(
        "def test_uses(media, media_urls):\n    assert media.image(4, 4).width == 4\n"
    )
    strict.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_plugin_import_is_cheap() -> None:
    """Importing the plugin imports no pytest, httpx or Pillow and configures no client."""
    code = (
        "import sys, mediaparts.testing\n"
        "print(*(name in sys.modules for name in ('pytest', 'httpx', 'PIL')))\n"
        "from mediaparts.fetching import _fetch\n"
        "print(_fetch._settings.client, _fetch._settings.async_client)\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["False", "False", "False", "None", "None"], out.stderr


def test_plugin_is_inactive_unless_asked(
    strict: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session whose tests use no fixture of the plugin loads nothing it would need."""
    paths = [SRC, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # no other plugin imports httpx
    strict.makepyfile(
        """
        import sys

        def test_plain():
            loaded = {"PIL", "httpx", "mediaparts.testing._media", "mediaparts.testing._urls"}
            assert loaded & set(sys.modules) == set()
            assert "mediaparts.testing._plugin" in sys.modules
        """
    )
    result = strict.runpytest_subprocess("-p", "mediaparts.testing", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


# -- media -------------------------------------------------------------------------------------

IMAGE_FORMATS = ["png", "jpeg", "gif", "webp", "bmp", "tiff", "avif"]


@pytest.mark.parametrize("fmt", IMAGE_FORMATS)
def test_media_image_is_deterministic(media: MediaFactory, fmt: str) -> None:
    """The same arguments give the same bytes, of the asked type and size."""
    first = media.image(64, 48, format=fmt)
    assert first.data == MediaFactory().image(64, 48, format=fmt).data
    assert first.media_type == f"image/{fmt}"
    assert (first.width, first.height) == (64, 48)
    assert first.filename == f"image.{'jpg' if fmt == 'jpeg' else fmt}"


CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("image", (64, 48), {}),
    ("image", (640, 480, "jpeg", 6), {}),
    ("image", (40, 30, "webp"), {"animated": True}),
    ("image", (40, 30, "gif"), {"animated": True}),
    ("image", (40, 30, "avif"), {}),
    ("pdf", (3,), {}),
    ("audio", (1.5,), {}),
    ("audio", (0.5, "flac"), {}),
    ("text", ("a,b", "csv"), {}),
]


def test_media_is_the_same_in_another_process(media: MediaFactory) -> None:
    """A fresh interpreter makes the same bytes: nothing depends on time, seeds or caches."""
    if shutil.which("ffmpeg") is None:
        pytest.skip("the flac case needs ffmpeg")
    code = (
        "import hashlib\nfrom mediaparts.testing import MediaFactory\nmedia = MediaFactory()\n"
        f"for name, args, kwargs in {CALLS!r}:\n"
        "    print(hashlib.sha256(getattr(media, name)(*args, **kwargs).data).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    here = [getattr(media, name)(*args, **kwargs).data for name, args, kwargs in CALLS]
    assert out.stdout.split() == [hashlib.sha256(data).hexdigest() for data in here], out.stderr


@pytest.mark.parametrize("fmt", ["jpeg", "png", "webp", "tiff"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_media_image_orientation_gives_upright(
    media: MediaFactory, fmt: str, orientation: int
) -> None:
    """Applying the written EXIF orientation gives the upright picture, red corner top-left."""
    with Image.open(io.BytesIO(media.image(64, 48, fmt, orientation).data)) as image:
        assert image.getexif().get(0x0112) == orientation
        upright = ImageOps.exif_transpose(image).convert("RGB")
    assert upright.size == (64, 48)
    red, green, blue = upright.getpixel((2, 2))  # type: ignore[misc]  # an RGB pixel is a tuple
    assert red > 200 and green < 50 and blue < 50
    red, green, blue = upright.getpixel((61, 2))  # type: ignore[misc]
    assert blue > 200 and red < 50 and green < 50


@pytest.mark.parametrize("fmt", ["gif", "webp", "png"])
def test_media_image_animated_has_three_frames(media: MediaFactory, fmt: str) -> None:
    """animated=True makes three frames (APNG for png)."""
    with Image.open(io.BytesIO(media.image(40, 30, fmt, animated=True).data)) as image:
        assert image.n_frames == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "psd"}, "cannot make 'psd' images; use one of png, jpeg"),
        ({"orientation": 9}, "orientation must be an EXIF tag value 1-8, got 9"),
        ({"format": "gif", "orientation": 6}, "gif has no EXIF block"),
        ({"format": "jpeg", "animated": True}, "jpeg cannot be animated here"),
        ({"width": 0}, "width must be an int from 1 to 20000, got 0"),
    ],
)
def test_media_image_refuses_what_it_cannot_make(
    media: MediaFactory, kwargs: dict[str, Any], message: str
) -> None:
    """Impossible requests raise InvalidConfig saying what is possible."""
    arguments = {"width": 8, "height": 8, **kwargs}
    with pytest.raises(mp.InvalidConfig, match=re.escape(message)):
        media.image(**arguments)


def test_media_audio_wav_has_the_length(media: MediaFactory) -> None:
    """WAV audio is made with the wave module, of the asked length, the same every time."""
    part = media.audio(2.5)
    assert part.media_type == "audio/wav" and part.data == media.audio(2.5).data
    with wave.open(io.BytesIO(part.data)) as read:
        assert read.getnframes() / read.getframerate() == 2.5


@pytest.mark.parametrize(
    ("fmt", "media_type"), [("mp3", "audio/mpeg"), ("flac", "audio/flac"), ("m4a", "audio/mp4")]
)
def test_media_audio_with_ffmpeg(media: MediaFactory, fmt: str, media_type: str) -> None:
    """Other formats come from ffmpeg (the test skips itself without it), deterministically."""
    part = media.audio(0.5, fmt)
    assert part.media_type == media_type
    assert part.data == media.audio(0.5, fmt).data


def test_media_audio_without_ffmpeg_skips(
    media: MediaFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ffmpeg, asking for mp3 skips the test with a reason saying what is missing."""
    monkeypatch.setenv("PATH", "")
    with pytest.raises(pytest.skip.Exception, match="needs ffmpeg on PATH to encode mp3"):
        media.audio(0.25, "mp3")


def test_media_pdf_has_the_pages(media: MediaFactory) -> None:
    """PDFs have the asked number of pages and the same bytes every time."""
    part = media.pdf(pages=3)
    assert part.media_type == "application/pdf" and part.data == media.pdf(pages=3).data
    assert part.data.count(b"/Type /Page\n") == 3


@pytest.mark.parametrize(
    ("fmt", "media_type"),
    [
        ("csv", "text/csv"),
        ("json", "application/json"),
        ("md", "text/markdown"),
        ("txt", "text/plain"),
        ("html", "text/html"),
    ],
)
def test_media_text_is_typed_by_format(media: MediaFactory, fmt: str, media_type: str) -> None:
    """Text files are FileParts typed by their format."""
    part = media.text("a,b\n1,2\n", format=fmt)
    assert isinstance(part, mp.FilePart)
    assert (part.media_type, part.data) == (media_type, b"a,b\n1,2\n")


# -- media_urls --------------------------------------------------------------------------------


def test_media_urls_serves_content_kinds(
    media: MediaFactory, media_urls: MediaURLs, tmp_path: Path
) -> None:
    """Bytes, text, a Path and a part are served, typed by headers or detection."""
    (tmp_path / "notes.pdf").write_bytes(media.pdf().data)
    media_urls.add("https://example.com/raw", media.image(8, 8).data)
    media_urls.add("https://example.com/data.csv", "a,b\n1,2\n")
    media_urls.add("https://example.com/file", tmp_path / "notes.pdf")
    media_urls.add("https://example.com/labelled", b"\x00\x01", headers={"Content-Type": "x/y"})
    fetched = {
        url: _fetch.fetch(f"https://example.com/{url}")
        for url in ("raw", "data.csv", "file", "labelled")
    }
    assert {url: f.content_type for url, f in fetched.items()} == {
        "raw": "image/png",
        "data.csv": "text/csv; charset=utf-8",
        "file": "application/pdf",
        "labelled": "x/y",
    }
    assert media_urls.unrequested == []


def test_media_urls_status_and_redirect(media: MediaFactory, media_urls: MediaURLs) -> None:
    """A registered error status fails the fetch; a redirect to a registered URL is followed."""
    media_urls.add("https://example.com/gone.png", b"", status=404)
    media_urls.add("https://example.com/old.png", b"", 301, {"Location": "/new.png"})
    media_urls.add("https://example.com/new.png", media.image(8, 8))
    with pytest.raises(mp.FetchError) as caught:
        mp.ImagePart.from_url("https://example.com/gone.png").load()
    assert caught.value.status_code == 404
    assert mp.ImagePart.from_url("https://example.com/old.png").width == 8
    assert media_urls.requests == [
        "https://example.com/gone.png",
        "https://example.com/old.png",
        "https://example.com/new.png",
    ]


def test_media_urls_refuses_others_sync_and_async(media_urls: MediaURLs) -> None:
    """Unregistered URLs raise OfflineError naming the URL, in sync and async loads."""
    with pytest.raises(mp.OfflineError, match=r"refused 'https://example\.com/a\.png'") as caught:
        mp.ImagePart.from_url("https://example.com/a.png").load()
    assert caught.value.url == "https://example.com/a.png"
    with pytest.raises(mp.OfflineError, match=r"media_urls\.add\('https://example\.com/b\.png'"):
        asyncio.run(mp.ImagePart.from_url("https://example.com/b.png").aload())


def test_media_urls_active_restores_settings_exactly() -> None:
    """The clients configured before are put back exactly, None included."""
    before = (_fetch._settings.client, _fetch._settings.async_client)
    with httpx.Client() as mine:
        mp.configure(client=mine)
        try:
            with MediaURLs().active():
                assert _fetch._settings.client is not mine
                assert _fetch._settings.async_client is not before[1]
            assert (_fetch._settings.client, _fetch._settings.async_client) == (mine, before[1])
        finally:
            _fetch._settings.client = before[0]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda media: media.audio(seconds=0), "seconds must be over 0"),
        (lambda media: media.audio(format="xyz"), "cannot make 'xyz' audio"),
        (lambda media: media.pdf(pages=0), "pages must be an int from 1 to 1000"),
        (lambda media: media.text("a", format="docx"), "cannot make 'docx' files"),
        (lambda media: media.text(b"a"), "takes str, got bytes"),
    ],
)
def test_media_factory_refuses_bad_arguments(
    media: MediaFactory, make: Callable[[MediaFactory], object], message: str
) -> None:
    """Bad audio, PDF and text arguments raise InvalidConfig saying what is possible."""
    with pytest.raises(mp.InvalidConfig, match=re.escape(message)):
        make(media)


def test_media_urls_add_refuses_bad_input(media_urls: MediaURLs) -> None:
    """Bad URLs, statuses, content types and unloaded URL parts raise InvalidConfig at add()."""
    with pytest.raises(mp.InvalidConfig, match=r"needs an absolute http\(s\) URL, got 'exa"):
        media_urls.add("example.com/a", b"")
    with pytest.raises(mp.InvalidConfig, match="status must be an HTTP status"):
        media_urls.add("https://example.com/a", b"", status=700)
    with pytest.raises(mp.InvalidConfig, match=r"takes bytes, str text, a pathlib\.Path or a"):
        media_urls.add("https://example.com/a", 42)  # type: ignore[arg-type]
    with pytest.raises(mp.InvalidConfig, match="not loaded"):
        media_urls.add("https://example.com/a", mp.ImagePart.from_url("https://x.org/a.png"))
    assert media_urls.unrequested == []


# -- summarize and assert_fits -----------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
def test_summarize_leaves_no_base64(media: MediaFactory, provider: str) -> None:
    """Every blob in a rendered payload becomes a descriptor; the original is untouched."""
    files: list[mp.MediaPart] = [media.image(64, 48, "jpeg", 6), media.image(300, 200, "webp")]
    if "application/pdf" in mp.providers.get(provider).rules.file.media_types:
        files.append(media.pdf(2))
    payload = mp.render(mp.User("Look", files=files), provider)
    original = json.dumps(payload, default=repr)
    summary = summarize(payload)
    dumped = json.dumps(summary)  # no bytes left either: json.dumps would refuse them
    assert BASE64_RUN.search(dumped) is None
    assert len(DESCRIPTOR.findall(dumped)) == len(files)
    assert json.dumps(payload, default=repr) == original


def test_summarize_descriptor_format(media: MediaFactory) -> None:
    """Descriptors give the detected type, pixel size, size and a sha256 prefix."""
    image = media.image(640, 480)
    summary = summarize(
        {
            "raw": image.data,
            "b64": base64.b64encode(image.data).decode(),
            "uri": image.to_data_uri(),
        }
    )
    expected = describe(image.data)
    assert re.fullmatch(r"<image/png 640x480 \d+\.\d KB sha256:[0-9a-f]{6}>", expected)
    assert summary == {"raw": expected, "b64": expected, "uri": f"data:image/png;base64,{expected}"}


def test_summarize_leaves_other_text_alone() -> None:
    """Hex digests, words, short strings and numbers are not taken for base64."""
    payload = {
        "digest": "a" * 8 + "0123456789abcdef" * 4,
        "words": ["What is in this picture?", "abcd", "Zm9v"],
        "numbers": (1, 2.5, None, True),
        "id": "toolu_01A09q90qw90lq917835lq9",
    }
    assert summarize(payload) == payload


def test_summarize_sizes_in_decimal_units() -> None:
    """Sizes read B, KB, MB."""
    assert " 999 B " in describe(b"\x00" * 999)
    assert " 1.0 KB " in describe(b"\x00" * 1000)
    assert " 1.0 MB " in describe(b"\x00" * 999_960)


def test_assert_fits_passes_silently(media: MediaFactory) -> None:
    """A rendered payload fits its provider."""
    payload = mp.render(media.image(64, 48), "gemini")
    assert assert_fits(payload, "gemini") is None  # type: ignore[func-returns-value]


# -- docs --------------------------------------------------------------------------------------


def _example(page: str) -> str:
    """Return the python block between a doc page's example markers."""
    text = (Path(__file__).resolve().parent.parent / "docs" / page).read_text("utf-8")
    found = re.search(
        r"<!-- example:start -->\n```python\n(.*?)```\n<!-- example:end -->", text, re.S
    )
    assert found, f"docs/{page} has no <!-- example:start --> python block"
    return found.group(1)


@pytest.mark.slow  # the docs' example module under pytest, in process
def test_docs_example_module_passes(
    strict: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The complete example in docs/testing.md passes: writing its golden file, then reading it."""
    strict.makepyfile(test_prompt=_example("testing.md"))
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    run(strict).assert_outcomes(passed=9)
    monkeypatch.delenv("UPDATE_GOLDEN")
    run(strict).assert_outcomes(passed=9)
    assert '"data": "<image/jpeg 640x480 ' in (strict.path / "prompt.anthropic.json").read_text()


def test_docs_getting_started_example_passes(strict: pytest.Pytester) -> None:
    """The test in docs/getting-started.md passes as written."""
    strict.makepyfile(test_prompt=_example("getting-started.md"))
    run(strict).assert_outcomes(passed=1)


# -- failed comparisons of messages ---------------------------------------------------------------


def test_plugin_explains_unequal_conversations_with_show(strict: pytest.Pytester) -> None:
    """A failed `==` between lists of messages shows both with mp.show and a diff."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_compare():
            got = [mp.User("Describe the photo"), mp.Assistant("A cat.", model="m1")]
            expected = [mp.User("Describe the photo"), mp.Assistant("A dog.", model="m1")]
            assert got == expected
        """
    )
    result = run(strict, "-vv")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*assert ?2 messages? == ?2 messages?",
            "*mp.show() of both sides, diff (- left, + right):",
            "* assistant  model=m1",
            "*-  A cat.",
            "*+  A dog.",
        ]
    )


@pytest.mark.slow  # long conversations compared and shown
def test_plugin_explains_long_conversations_around_the_first_difference(
    strict: pytest.Pytester,
) -> None:
    """Long conversations are diffed only around their first differing message (a diff of
    thousands of messages would take minutes)."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_compare():
            got = [mp.User(f"turn {i}") for i in range(3000)]
            expected = [*got[:1500], mp.User("changed"), *got[1501:]]
            assert got == expected
        """
    )
    result = run(strict, "-vv")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*mp.show() of messages 1495 to 1504, around message 1500, of both sides*",
            "*-  turn 1500",
            "*+  changed",
        ]
    )


def test_plugin_explains_one_message_and_media(strict: pytest.Pytester) -> None:
    """Single messages compare too; media show as descriptors, never as bytes."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_compare(media):
            got = mp.User(["Look", media.image(64, 48)])
            assert got == mp.User(["Look", media.image(32, 24)])
        """
    )
    result = run(strict, "-vv")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*assert User(...) == User(...)", "*-  <image/png 64x48 *", "*+  <image/png 32x24 *"]
    )


def test_plugin_leaves_what_show_cannot_tell_apart_to_pytest(strict: pytest.Pytester) -> None:
    """Messages that differ only in what show leaves out keep pytest's own explanation."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_compare():
            assert mp.User("x", native={"openai": {"a": 1}}) == mp.User("x")
        """
    )
    result = run(strict, "-vv")
    result.assert_outcomes(failed=1)
    assert "mp.show()" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*native*openai*"])


def test_plugin_leaves_other_comparisons_alone(strict: pytest.Pytester) -> None:
    """Comparisons of other values (or a message with a dict) keep pytest's own explanation."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_compare():
            assert [mp.User("x")] == [{"role": "user"}]
        """
    )
    result = run(strict)
    result.assert_outcomes(failed=1)
    assert "mp.show()" not in result.stdout.str()


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:8000/cat.png", "127.0.0.1 is a loopback address"),
        ("http://10.0.0.5/cat.png", "10.0.0.5 is a private address"),
        ("http://localhost/cat.png", "localhost is a*"),
        ("http://169.254.169.254/latest/x.png", "169.254.169.254 is a cloud-metadata*"),
    ],
)
def test_plugin_registered_url_the_policy_refuses_says_why(
    strict: pytest.Pytester, url: str, reason: str
) -> None:
    """A registered URL the fetch policy refuses is reported as refused, with the reason and
    the fix, not only as never requested."""
    strict.makepyfile(
        f"""
        import pytest
        import mediaparts as mp

        def test_local(media, media_urls):
            media_urls.add({url!r}, media.image(8, 8))
            with pytest.raises(mp.BlockedURL):
                mp.part({url!r}).load()
        """
    )
    result = run(strict)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "media_urls: 1 registered URL was never requested:",
            f"  - {url}",
            f"    refused by the fetch policy, before any request: refusing '{url}': {reason}*",
            "Fetch it in the test *",
            "A URL the fetch policy refuses raises mp.BlockedURL and never reaches media_urls:"
            " register a public URL (https://example.com/...) instead, or fetch it inside `with"
            " mediaparts.fetching.using_policy(mp.FetchPolicy(allow_private=True)):`, which lasts"
            " for that block only.",
        ]
    )


@pytest.mark.slow  # waits for a local server
def test_plugin_local_url_is_served_when_the_policy_allows_it(strict: pytest.Pytester) -> None:
    """With allow_private, a registered local URL is served and no refusal is reported."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_local(media, media_urls):
            url = media_urls.add("http://127.0.0.1:8000/cat.png", media.image(8, 8))
            policy = mp.FetchPolicy(allow_private=True)
            assert mp.part(url).load(policy=policy).media_type == "image/png"
        """
    )
    run(strict).assert_outcomes(passed=1)


def test_plugin_suggested_fix_serves_a_local_url(strict: pytest.Pytester) -> None:
    """The fix the refusal suggests (using_policy for a block) serves the local URL."""
    strict.makepyfile(
        """
        import mediaparts as mp
        from mediaparts.fetching import using_policy

        def test_local(media, media_urls):
            url = media_urls.add("http://127.0.0.1:8000/cat.png", media.image(8, 8))
            with using_policy(mp.FetchPolicy(allow_private=True)):
                assert mp.part(url).load().media_type == "image/png"
            assert not mp.fetching.default_policy().allow_private
        """
    )
    run(strict).assert_outcomes(passed=1)


def test_plugin_puts_a_configured_policy_back_after_the_test(strict: pytest.Pytester) -> None:
    """A test that configures allow_private=True does not leave it to the next test."""
    strict.makepyfile(
        """
        import mediaparts as mp

        def test_first(media_urls):
            mp.configure(fetch=mp.FetchPolicy(allow_private=True, max_bytes=1234))

        def test_next(media_urls):
            policy = mp.fetching.default_policy()
            assert not policy.allow_private and policy.max_bytes != 1234
        """
    )
    run(strict).assert_outcomes(passed=2)


def test_plugin_lists_a_long_url_shortened(strict: pytest.Pytester) -> None:
    """A registered URL of 300 characters is listed in at most about 80."""
    strict.makepyfile(
        """
        def test_long(media, media_urls):
            media_urls.add("https://example.com/" + "a" * 300 + ".png", media.image(8, 8))
        """
    )
    result = run(strict)
    result.assert_outcomes(passed=1, errors=1)
    assert "a" * 100 not in result.stdout.str()

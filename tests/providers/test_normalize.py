"""normalize: every image fits every provider; other media pass or are refused by name."""

from __future__ import annotations

import asyncio
import base64
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pytest_httpx import HTTPXMock

import mediaparts as mp
from mediaparts.providers import MediaRates, ModelRule, OpenAITiles
from tests._builders import IMAGES

PROVIDERS = mp.providers.names()


def _frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as img:
        return getattr(img, "n_frames", 1)


def _fits(result: mp.NormalizedPart, provider: mp.Provider) -> None:
    rules = provider.rules.image
    assert result.data is not None
    assert result.media_type in rules.media_types
    assert mp.detect(result.data).media_type == result.media_type
    assert rules.fits(len(result.data))
    with Image.open(io.BytesIO(result.data)) as img:
        assert (result.width, result.height) == img.size
    if rules.max_width:
        assert result.width is not None and result.width <= rules.max_width
    if rules.max_height:
        assert result.height is not None and result.height <= rules.max_height
    if not rules.animated:
        assert _frames(result.data) == 1


@pytest.fixture(scope="module", autouse=True)
def _heif() -> None:
    """Let Pillow read HEIC/AVIF outputs in assertions."""
    import pillow_heif

    pillow_heif.register_heif_opener()


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("name", IMAGES)
def test_normalize_every_image_fits(testdata: Path, name: str, provider: str) -> None:
    """Every testdata image comes out an accepted type, within limits, size true to bytes."""
    _fits(mp.normalize(testdata / name, provider), mp.providers.get(provider))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_normalize_exif_photo_upright(testdata: Path, provider: str) -> None:
    """The EXIF-rotated photo comes out upright: 480x640, red top-left, blue top-right."""
    result = mp.normalize(testdata / "photo.jpg", provider)
    assert "exif-transpose" in result.steps
    assert result.data is not None
    with Image.open(io.BytesIO(result.data)) as img:
        rgb = img.convert("RGB")
        assert rgb.size == (480, 640)
        assert 0x0112 not in img.getexif() or img.getexif()[0x0112] == 1
        red, blue = rgb.getpixel((8, 8)), rgb.getpixel((471, 8))
    assert isinstance(red, tuple) and isinstance(blue, tuple)
    assert red[0] > 180 and red[2] < 90
    assert blue[2] > 180 and blue[0] < 90


@pytest.mark.parametrize("provider", PROVIDERS)
def test_normalize_fitting_jpeg_passes_through(testdata: Path, provider: str) -> None:
    """A JPEG that already fits is sent byte for byte, with no steps."""
    raw = (testdata / "upright.jpg").read_bytes()
    result = mp.normalize(testdata / "upright.jpg", provider)
    assert result.data == raw
    assert result.steps == ()
    assert result.unchanged


@pytest.fixture(scope="module")
def big_images(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 24-megapixel JPEG and a 9000-px-wide PNG, made once."""
    folder = tmp_path_factory.mktemp("big")
    import random

    rng = random.Random(7)
    photo = Image.linear_gradient("L").resize((6000, 4000)).convert("RGB")
    noise = Image.frombytes("L", (600, 400), bytes(rng.randrange(256) for _ in range(240_000)))
    photo.paste(noise.convert("RGB").resize((6000, 4000)), mask=Image.new("L", (6000, 4000), 60))
    photo.save(folder / "24mp.jpg", quality=90)
    wide = Image.linear_gradient("L").resize((9000, 600)).convert("RGBA")
    wide.save(folder / "wide.png")
    return {"24mp": folder / "24mp.jpg", "wide": folder / "wide.png"}


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("which", ["24mp", "wide"])
def test_normalize_large_images_fit(big_images: dict[str, Path], which: str, provider: str) -> None:
    """A 24 MP photo and a 9000-px-wide PNG are fitted to every provider's limits."""
    chosen = mp.providers.get(provider)
    result = mp.normalize(big_images[which], chosen)
    _fits(result, chosen)
    if provider in ("anthropic", "bedrock"):  # Claude's 1568-px rule; the others keep the size
        assert any(step.startswith("resize ") for step in result.steps)


def test_normalize_audio_for_anthropic_names_anthropic(testdata: Path) -> None:
    """Audio is refused for Anthropic by an error naming the provider, type and what it takes."""
    with pytest.raises(mp.UnsupportedMediaType, match="anthropic") as caught:
        mp.normalize(testdata / "tone.wav", "anthropic")
    assert caught.value.provider == "anthropic"
    assert caught.value.media_type == "audio/wav"


@pytest.mark.parametrize(
    ("provider", "name", "media_type"),
    [
        ("gemini", "tone.wav", "audio/wav"),
        ("gemini", "tone.mp3", "audio/mpeg"),
        ("gemini", "clip.mp4", "video/mp4"),
        ("openai", "tone.wav", "audio/wav"),
        ("openai", "tone.mp3", "audio/mpeg"),
        ("bedrock", "clip.mp4", "video/mp4"),
        ("anthropic", "document.pdf", "application/pdf"),
        ("openai", "document.pdf", "application/pdf"),
        ("gemini", "document.pdf", "application/pdf"),
    ],
)
def test_normalize_media_passes_through(
    testdata: Path, provider: str, name: str, media_type: str
) -> None:
    """Accepted audio, video and documents are sent as they are."""
    result = mp.normalize(testdata / name, provider)
    assert (result.media_type, result.data) == (media_type, (testdata / name).read_bytes())


@pytest.mark.parametrize(
    ("provider", "name"),
    [
        ("anthropic", "tone.wav"),
        ("anthropic", "tone.m4a"),
        ("openai-responses", "tone.flac"),
    ],
)
def test_normalize_refuses_by_name(testdata: Path, provider: str, name: str) -> None:
    """Media a provider cannot take, even converted (audio where it takes no audio), raises
    UnsupportedMediaType naming it."""
    with pytest.raises(mp.UnsupportedMediaType, match=provider):
        mp.normalize(testdata / name, provider)


@pytest.mark.parametrize("name", ["photo.heic", "image.avif", "image.tiff", "image.bmp"])
def test_normalize_truncated_convertible_image_is_invalid(testdata: Path, name: str) -> None:
    """A type normalize converts, cut short, is reported as undecodable, not as refused."""
    data = (testdata / name).read_bytes()
    part = mp.ImagePart.from_bytes(data[: len(data) // 2], filename=name)
    with pytest.raises(mp.InvalidMedia, match=r"openai does not accept .* cannot be converted"):
        mp.normalize(part, "openai")


@pytest.mark.parametrize("provider", ["anthropic", "openai", "bedrock"])
def test_normalize_heic_without_pillow_heif_is_codec_unavailable(
    testdata: Path, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A HEIC the server cannot decode is CodecUnavailable (a server fix), naming the extra."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    with pytest.raises(mp.CodecUnavailable, match=r"mediaparts' \[heif\] extra") as caught:
        mp.normalize(testdata / "photo.heic", provider)
    assert (caught.value.package, caught.value.extra) == ("pillow-heif", "heif")
    assert caught.value.provider == provider


@pytest.mark.parametrize("cut", [13, 40, 100])
def test_normalize_unreadable_header_names_no_python_object(testdata: Path, cut: int) -> None:
    """A GIF cut inside its header says what is wrong, not Pillow's '<_io.BytesIO ...>'."""
    data = (testdata / "animated.gif").read_bytes()[:cut]
    part = mp.ImagePart.from_bytes(data, media_type="image/gif")
    with pytest.raises(mp.InvalidMedia, match="corrupt, truncated") as caught:
        mp.normalize(part, "openai")
    assert "object at 0x" not in str(caught.value)


def test_normalize_text_file_as_text(testdata: Path) -> None:
    """A CSV for Anthropic becomes text."""
    result = mp.normalize(testdata / "data.csv", "anthropic")
    assert result.text == (testdata / "data.csv").read_text()
    assert result.data is None


@pytest.mark.parametrize(
    ("data", "steps"),
    [
        ("notes.txt", ("as text",)),
        ("notes-latin1.txt", ("as text", "decoded from Windows-1252")),
        ("notes-utf16.txt", ("as text", "decoded from UTF-16")),
        (b"\xef\xbb\xbfplain words\n", ("as text", "UTF-8 byte order mark removed")),
    ],
)
def test_normalize_text_steps_say_how_it_was_read(
    testdata: Path, data: str | bytes, steps: tuple[str, ...]
) -> None:
    """A text file's steps say whether its bytes were sent as they are or decoded, and from what."""
    raw = (testdata / data).read_bytes() if isinstance(data, str) else data
    result = mp.normalize(mp.FilePart.from_bytes(raw, filename="notes.txt"), "anthropic")
    assert result.steps == steps
    assert result.text is not None and "\ufeff" not in result.text


_NO_BOM_TEXT = {"ascii": "plain words, nothing more\n", "accents": "Grüße, naïve café ½\n"}


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("text", _NO_BOM_TEXT.values(), ids=_NO_BOM_TEXT.keys())
def test_normalize_text_utf16_without_bom_is_decoded(codec: str, text: str) -> None:
    """UTF-16 without a byte order mark is decoded as UTF-16 (no NULs reach the model), and
    the steps say so."""
    raw = (text * 4).encode(codec)
    result = mp.normalize(mp.FilePart.from_bytes(raw, filename="notes.txt"), "anthropic")
    assert result.text == text * 4
    assert result.steps == ("as text", "decoded from UTF-16 (no byte order mark)")


def _zip() -> bytes:
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.txt", "a")
    return buffer.getvalue()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_normalize_refusal_names_what_is_taken_by_kind(provider: str) -> None:
    """A refusal says what the provider takes in one short line of short names, grouped by
    kind; `accepted` holds every media type it takes."""
    rules = mp.providers.get(provider).rules
    with pytest.raises(mp.UnsupportedMediaType) as refused:
        mp.normalize(mp.FilePart.from_bytes(_zip()), provider)
    message = str(refused.value)
    assert message.startswith(f"{provider} does not accept application/zip (file); it takes ")
    said = message.split("; it takes ")[1]
    assert "\n" not in message and len(said) <= 200
    assert "/" not in said  # short names, not media types
    assert ("images (" in message) == bool(rules.image.media_types)
    assert ("audio (" in message) == bool(rules.audio.media_types)
    assert ("video (" in message) == bool(rules.video.media_types)
    assert ("documents (PDF" in message) == ("application/pdf" in rules.file.media_types)
    assert " and text (" in message or message.endswith(") only")
    every = (rules.image, rules.audio, rules.video, rules.file)
    types = [t for kind_rules in every for t in kind_rules.media_types]
    assert refused.value.accepted == (*types, *rules.file.text_types)


def test_normalize_refusal_by_a_provider_that_takes_one_kind() -> None:
    """The line follows the rules: a provider changed to take only PNG images says so."""
    png_only = mp.providers.get("anthropic").with_rules(file_media_types=(), file_text_types=())
    png_only = png_only.with_rules(image_media_types=("image/png",))
    with pytest.raises(mp.UnsupportedMediaType) as refused:
        mp.normalize(mp.FilePart.from_bytes(_zip()), png_only)
    assert str(refused.value).endswith("; it takes images (PNG) only")
    assert refused.value.accepted == ("image/png",)


# 5,000 bytes with no signature, under names and types of formats whose signatures we know.
_NOT_A_PDF = bytes(range(7, 256)) * 20


def _bogus_route(route: str, tmp_path: Path, httpx_mock: HTTPXMock) -> Any:
    encoded = base64.b64encode(_NOT_A_PDF).decode()
    if route == "path":
        (tmp_path / "bogus.pdf").write_bytes(_NOT_A_PDF)
        return {"path": str(tmp_path / "bogus.pdf")}
    if route == "url":
        url = "https://example.com/bogus.pdf"
        headers = {"content-type": "application/pdf"}
        httpx_mock.add_response(url=url, content=_NOT_A_PDF, headers=headers)
        return {"url": url}
    return {
        "bytes and name": {"data": _NOT_A_PDF, "filename": "bogus.pdf"},
        "bytes and type": {"data": _NOT_A_PDF, "media_type": "application/pdf"},
        "data URI": {"data": f"data:application/pdf;base64,{encoded}"},
        "base64 and type": {"data": encoded, "media_type": "application/pdf"},
    }[route]


@pytest.mark.parametrize(
    "route", ["path", "url", "bytes and name", "bytes and type", "data URI", "base64 and type"]
)
def test_normalize_bytes_win_on_every_route(
    route: str, tmp_path: Path, httpx_mock: HTTPXMock
) -> None:
    """Bytes named or declared a PDF but lacking its signature are never sent as one."""
    given = _bogus_route(route, tmp_path, httpx_mock)
    with pytest.raises(mp.UnsupportedMediaType, match=r"application/octet-stream") as refused:
        mp.normalize(given, "openai", urls="inline")
    if route in ("path", "bytes and name"):
        assert "says application/pdf, but the bytes are not one" in str(refused.value)


def test_normalize_urls_modes(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """auto passes a URL the provider fetches itself; inline fetches; pass refuses to fetch."""
    url = "https://example.com/a.png"
    passed = mp.normalize(url, "openai")
    assert (passed.url, passed.data, passed.steps) == (url, None, ("url pass-through",))
    httpx_mock.add_response(url=url, content=(testdata / "alpha.png").read_bytes())
    inlined = mp.normalize(url, "openai", urls="inline")
    assert inlined.url is None and inlined.media_type == "image/png"
    with pytest.raises(mp.UnsupportedMediaType, match="urls='pass'"):
        mp.normalize(url, "bedrock", urls="pass")


def test_normalize_with_rules_override(testdata: Path) -> None:
    """with_rules changes a limit: a tight byte cap forces re-encoding; an impossible one fails."""
    tight = mp.providers.get("anthropic").with_rules(image_max_bytes=12_000, image_measure="raw")
    result = mp.normalize(testdata / "photo.jpg", tight)
    assert result.data is not None and len(result.data) <= 12_000
    impossible = tight.with_rules(image_max_bytes=50)
    with pytest.raises(mp.ProviderLimitError):
        mp.normalize(testdata / "photo.jpg", impossible)
    with pytest.raises(mp.InvalidConfig, match="no rule named"):
        tight.with_rules(image_colour="red")


def test_anormalize_matches_normalize(testdata: Path) -> None:
    """The async path gives the same result."""
    sync = mp.normalize(testdata / "photo.jpg", "anthropic")
    result = asyncio.run(mp.anormalize(testdata / "photo.jpg", "anthropic"))
    assert (result.data, result.steps, result.tokens) == (sync.data, sync.steps, sync.tokens)


def test_normalize_many_in_processes(testdata: Path) -> None:
    """normalize_many with two workers gives what one process gives, in order."""
    names = ["photo.jpg", "alpha.png", "image.bmp", "still.gif"]
    parts = [mp.part(testdata / n) for n in names]
    one = mp.normalize_many(parts, "openai", workers=1)
    two = mp.normalize_many(parts, "openai", workers=2)
    assert [r.data for r in one] == [r.data for r in two]
    assert [r.media_type for r in two] == ["image/jpeg", "image/png", "image/png", "image/gif"]


def test_normalize_reports_tokens(testdata: Path) -> None:
    """normalize reports the documented token cost where there is one."""
    assert mp.normalize(testdata / "photo.jpg", "anthropic").tokens == mp.estimate_tokens(
        testdata / "photo.jpg", "anthropic"
    )
    assert mp.normalize(testdata / "tone.wav", "gemini").tokens == 32
    assert mp.normalize(testdata / "tone.wav", "openai").tokens is None


@pytest.mark.parametrize("fmt", ["JPEG", "TIFF", "PNG", "WEBP"])
@pytest.mark.parametrize("orientation", [1, 2, 3, 4, 5, 6, 7, 8])
def test_normalize_orientation_every_format(tmp_path: Path, fmt: str, orientation: int) -> None:
    """Every EXIF orientation, in every format that carries it, comes out upright once."""
    upright = Image.new("RGB", (120, 80), "white")
    upright.paste((255, 0, 0), (0, 0, 20, 20))  # red marks the top-left corner
    # Store the pixels so that applying `orientation` gives `upright` back.
    inverse = {
        2: Image.Transpose.FLIP_LEFT_RIGHT,
        3: Image.Transpose.ROTATE_180,
        4: Image.Transpose.FLIP_TOP_BOTTOM,
        5: Image.Transpose.TRANSPOSE,
        6: Image.Transpose.ROTATE_90,
        7: Image.Transpose.TRANSVERSE,
        8: Image.Transpose.ROTATE_270,
    }
    stored = upright.transpose(inverse[orientation]) if orientation in inverse else upright
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / f"o{orientation}.{fmt.lower()}"
    stored.save(path, fmt, exif=exif)
    result = mp.normalize(path, "anthropic")
    assert result.data is not None
    with Image.open(io.BytesIO(result.data)) as img:
        rgb = img.convert("RGB")
    assert rgb.size == (120, 80)
    corner = rgb.getpixel((5, 5))
    assert isinstance(corner, tuple) and corner[0] > 200 and corner[1] < 60
    assert mp.estimate_tokens(path, "anthropic") == mp.estimate_tokens(
        mp.ImagePart.from_pil(upright), "anthropic"
    )


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"image_max_bytes": "5MB"}, "whole number"),
        ({"image_media_types": "image/png"}, "tuple of media type strings"),
        ({"image": None}, "must be an ImageRules"),
        ({"image_measure": "b64"}, "raw, base64"),
        ({"image_max_width": 0}, "positive"),
        ({"vision": ("x",)}, "ModelRule"),
        ({"image_animated": "yes"}, "bool"),
        ({"vision": 5}, "vision must be a tuple of ModelRule"),
        ({"costs": 5}, "costs must be a tuple of ModelRule"),
        ({"image_media_types": 5}, "tuple of media type strings"),
        ({"vision": (ModelRule("*", MediaRates("x")),)}, "vision row's rule must be a Vision"),
        ({"costs": (ModelRule("*", OpenAITiles(85, 170)),)}, "costs row's rule must be a MediaR"),
    ],
)
def test_with_rules_refuses_bad_overrides(overrides: dict[str, object], message: str) -> None:
    """A bad override fails at once with InvalidConfig, naming the rule, not inside normalize."""
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.providers.get("anthropic").with_rules(**overrides)


def test_rules_refuses_a_wrong_row_when_built() -> None:
    """Rules built directly check their kinds' rules and table rows too, naming the field."""
    r = mp.providers.get("openai").rules
    wrong_row: Any = ModelRule("*", OpenAITiles(85, 170))  # a vision rule in costs, on purpose
    with pytest.raises(mp.InvalidConfig, match=r"Rules\.costs: the row '\*' holds an OpenAITiles"):
        mp.providers.Rules("x", r.image, r.audio, r.video, r.file, costs=(wrong_row,))
    wrong_kind: Any = r.audio  # a KindRules where FileRules belongs, on purpose
    with pytest.raises(mp.InvalidConfig, match=r"Rules\.file must be a FileRules, got KindRules"):
        mp.providers.Rules("x", r.image, r.audio, r.video, wrong_kind)


@pytest.mark.parametrize(
    "call",
    [
        # Each argument is of a wrong type on purpose, hence the ignores.
        lambda: mp.render(mp.User("x"), ["openai"]),  # type: ignore[arg-type]
        lambda: mp.check({}, ["openai"]),  # type: ignore[arg-type]
        lambda: mp.normalize_many(None, "openai"),  # type: ignore[arg-type]
    ],
)
def test_entry_points_refuse_bad_arguments(call: Callable[[], object]) -> None:
    """Wrong argument types raise InvalidMedia (a provider: UnknownProvider), not TypeError.

    A bad option value (`urls`, `workers`, `model`) is InvalidConfig: below and in
    tests/providers/test_options.py.
    """
    with pytest.raises((mp.InvalidMedia, mp.UnknownProvider)):
        call()


_ALPHA = "testdata/alpha.png"


@pytest.mark.parametrize(
    "call",
    [
        # `model=5` is of a wrong type on purpose, hence the ignores.
        lambda: mp.normalize(_ALPHA, "openai", model=5),  # type: ignore[arg-type]
        lambda: asyncio.run(mp.anormalize(_ALPHA, "openai", model=5)),  # type: ignore[arg-type]
        lambda: mp.normalize_many([_ALPHA], "openai", model=5),  # type: ignore[arg-type]
        lambda: mp.render(mp.User([_ALPHA]), "openai", model=5),  # type: ignore[arg-type]
        lambda: asyncio.run(mp.arender(mp.User([_ALPHA]), "openai", model=5)),  # type: ignore[arg-type]
        lambda: mp.estimate_tokens(_ALPHA, "openai", model=5),  # type: ignore[arg-type]
        lambda: mp.check({}, "openai", model=5),  # type: ignore[arg-type]
        lambda: mp.providers.get("openai").rules.vision_for(5),  # type: ignore[arg-type]
    ],
)
def test_entry_points_refuse_a_model_that_is_no_string(call: Callable[[], object]) -> None:
    """model= is an option: a value that is no string is InvalidConfig at every entry point."""
    with pytest.raises(mp.InvalidConfig, match="model must be a model name string, got int"):
        call()


def test_normalize_unknown_model_fits_but_does_not_price(testdata: Path) -> None:
    """An unknown model is fitted by the default rule (saying so), but no token count is
    guessed."""
    with pytest.warns(mp.UnknownModelWarning, match="using the default rules, for 'gpt-4o\\*'"):
        result = mp.normalize(testdata / "alpha.png", "openai", model="totally-made-up")
    assert result.data is not None and result.tokens is None
    with pytest.raises(mp.MediaError, match="no documented rule for model"):
        mp.estimate_tokens(testdata / "alpha.png", "openai", model="totally-made-up")


def test_url_pass_through_resolves_detail() -> None:
    """A URL passed through gets the same detail handling as inline bytes."""
    part = mp.ImagePart.from_url("https://example.com/cat.png", detail="original")
    gemini = mp.render(mp.User(["x", part]), "gemini")["contents"][0]["parts"][1]
    assert "mediaResolution" not in gemini
    chat = mp.render(mp.User(["x", part]), "openai", model="gpt-4o")["messages"][0]["content"][1]
    assert "detail" not in chat["image_url"]
    assert mp.normalize("https://example.com/cat.png", "openai", detail="low").detail == "low"


@pytest.mark.parametrize(
    ("name", "provider", "model", "detail"),
    [
        ("photo.heic", "openai", "gpt-4o", "original"),
        ("animated.gif", "gemini", "gemini-2.5-flash", "low"),
        ("image.tiff", "openai", "gpt-4.1-mini", "original"),
        ("alpha.png", "openai", "gpt-4o", "original"),
    ],
)
def test_normalize_detail_the_model_lacks(
    testdata: Path, name: str, provider: str, model: str, detail: str
) -> None:
    """A detail level the model lacks is reported as such, not as a refused image type."""
    with pytest.raises(mp.InvalidMedia, match=f"detail level '{detail}'"):
        mp.normalize(testdata / name, provider, model=model, detail=detail)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/photo.jpg",
        "http://localhost/photo.jpg",
        "http://10.1.2.3/photo.jpg",
        "http://printer.local/photo.jpg",
        "http://[::1]/photo.jpg",
    ],
)
def test_normalize_private_url_is_never_passed_through(url: str) -> None:
    """A URL on a loopback, private or local host is not passed to a provider that fetches
    URLs itself (its servers cannot reach it): it is loaded here, under the fetch policy."""
    made = mp.part(url, media_type="image/jpeg")
    with pytest.raises(mp.BlockedURL):
        mp.normalize(made, "openai")
    assert mp.normalize(
        mp.part("https://example.com/photo.jpg", media_type="image/jpeg"), "openai"
    ).steps == ("url pass-through",)


def test_normalize_without_model_fits_every_current_model(media: Any) -> None:
    """No model: OpenAI's default row is gpt-4o's (taken by every current model), so a
    4000x3000 photo is fitted to 1024x768, not sent whole as the newest model would take it."""
    photo = media.image(4000, 3000, format="jpeg")
    fitted = mp.normalize(photo, "openai")
    assert (fitted.width, fitted.height) == (1024, 768)
    newest = mp.normalize(photo, "openai", model="gpt-5.6")
    assert (newest.width, newest.height) == (4000, 3000)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_normalize_unknown_model_warns_naming_the_rules(media: Any, provider: str) -> None:
    """A model no row matches is never used silently: UnknownModelWarning names the default
    rules used (a provider whose tables match every model has nothing to warn about)."""
    rules = mp.providers.get(provider).rules
    if rules.model_row("zz-unknown-9") is not None or not rules.model_patterns:
        pytest.skip("every model name matches a row of this provider's tables")
    with pytest.warns(mp.UnknownModelWarning, match=rf"{provider}: model 'zz-unknown-9'"):
        mp.normalize(media.image(64, 64), provider, model="zz-unknown-9")

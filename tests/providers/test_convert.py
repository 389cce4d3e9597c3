"""normalize and render with media a provider cannot take as it is: audio, video, SVG and
documents converted (`providers/_fitting/_convert.py`, `_documents.py`), rendered and validated with
the SDKs' own request types.

Each test needs the extras it converts with, and skips cleanly without them.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import NormalizedPart
from tests.providers._sdk import SDK_MODULES, validate_request

PROVIDERS = mp.providers.names()
AUDIO = [
    f"tone.{ext}" for ext in ("wav", "mp3", "m4a", "ogg", "opus", "flac", "webm", "aac", "aiff")
]
VIDEO = [f"clip.{ext}" for ext in ("mp4", "mov", "mkv", "webm", "avi", "3gp")]


def _av() -> Any:
    return pytest.importorskip("av")


def _decoded_seconds(data: bytes) -> float:
    """The duration of audio bytes as FFmpeg reads them."""
    av = _av()
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        last = 0.0
        for frame in container.decode(stream):
            last = float(frame.time + frame.samples / frame.sample_rate)
        return last


def _media(result: NormalizedPart) -> list[NormalizedPart]:
    return [p for p in result.sent if isinstance(p, NormalizedPart)]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("name", AUDIO)
def test_audio_reaches_every_provider_that_takes_audio(
    testdata: Path, name: str, provider: str
) -> None:
    """Audio in any container is sent as a type the provider takes (the same second of
    sound), or refused by a provider that takes no audio at all."""
    _av()
    rules = mp.providers.get(provider).rules.audio
    if not rules.media_types:
        with pytest.raises(mp.UnsupportedMediaType, match=provider):
            mp.normalize(testdata / name, provider)
        return
    result = mp.normalize(testdata / name, provider)
    assert result.media_type in rules.media_types
    assert result.data is not None
    # MP3 without a LAME tag (lameenc) and ADTS decode with their encoder padding: a frame more.
    before = _decoded_seconds((testdata / name).read_bytes())
    assert _decoded_seconds(result.data) == pytest.approx(before, abs=0.12)
    if result.unchanged:
        assert result.data == (testdata / name).read_bytes()


@pytest.mark.parametrize(
    ("name", "provider", "media_type", "step"),
    [
        ("tone.m4a", "gemini", "audio/aac", "remux"),
        ("tone.webm", "gemini", "audio/ogg", "remux"),
        ("tone.m4a", "openai", "audio/mpeg", "mp3"),
        ("tone.opus", "openai", "audio/mpeg", "mp3"),
        ("tone.aiff", "openai", "audio/wav", "wav"),
    ],
)
def test_audio_remuxed_where_the_codec_allows(
    testdata: Path, name: str, provider: str, media_type: str, step: str
) -> None:
    """AAC goes to Gemini as ADTS and Opus as Ogg without re-encoding; OpenAI Chat gets MP3,
    or WAV from PCM; the steps say which."""
    _av()
    result = mp.normalize(testdata / name, provider)
    assert result.media_type == media_type
    assert any(step in s for s in result.steps), result.steps


def test_audio_tokens_are_priced_from_the_converted_duration(testdata: Path) -> None:
    """Gemini's 32 tokens a second apply to the remuxed track: one second is 32 tokens."""
    _av()
    result = mp.normalize(testdata / "tone.m4a", "gemini")
    assert result.tokens == 32


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("name", VIDEO)
def test_video_reaches_every_provider(testdata: Path, name: str, provider: str) -> None:
    """A video goes as a video type the provider takes, or, to one that takes no video, as
    sampled frames (images it takes), each after a text part with its time."""
    _av()
    chosen = mp.providers.get(provider)
    most = chosen.rules.image.max_count
    policy = mp.TransformPolicy()
    if not chosen.rules.video.media_types and most is not None and most < policy.frames:
        # More frames than the provider takes images is refused, naming its count; as many
        # frames as it takes go.
        with pytest.raises(mp.ProviderLimitError, match=rf"\({most}\); ask for fewer frames"):
            mp.normalize(testdata / name, provider)
        policy = mp.TransformPolicy(frames=most)
    result = mp.normalize(testdata / name, provider, transforms=policy)
    if chosen.rules.video.media_types:
        assert result.media_type in chosen.rules.video.media_types
        return
    assert result.pieces, result
    images = _media(result)
    texts = [p for p in result.pieces if isinstance(p, mp.TextPart)]
    assert images and len(texts) == len(images)
    assert all(i.media_type in chosen.rules.image.media_types for i in images)
    assert "at 0:00." in texts[0].text
    assert result.steps[0].startswith("video→")


def test_video_frames_have_increasing_times(testdata: Path) -> None:
    """The frames' labels are their times in order."""
    _av()
    result = mp.normalize(testdata / "clip.mp4", "anthropic")
    labels = [p.text for p in result.pieces if isinstance(p, mp.TextPart)]
    times = [float(label.rsplit("at 0:", 1)[1].rstrip("]")) for label in labels]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_video_audio_policy_sends_the_track(testdata: Path) -> None:
    """video='audio' sends a video's audio track to OpenAI Chat, which takes audio only."""
    _av()
    policy = mp.TransformPolicy(video="audio")
    result = mp.normalize(testdata / "clip.mp4", "openai", transforms=policy)
    assert result.kind == "audio" and result.media_type == "audio/mpeg"


@pytest.mark.parametrize(
    ("provider", "video", "error"),
    [
        ("anthropic", "audio", mp.UnsupportedMediaType),
        ("anthropic", "refuse", mp.UnsupportedMediaType),
        ("openai", "refuse", mp.UnsupportedMediaType),
    ],
)
def test_video_policy_refusals(testdata: Path, provider: str, video: str, error: type) -> None:
    """A refusal by policy, or audio for a provider that takes none, names the provider and
    says how to get frames instead."""
    _av()
    policy = mp.TransformPolicy(video=video)  # type: ignore[arg-type]
    with pytest.raises(error, match=rf"{provider}.*frames"):
        mp.normalize(testdata / "clip.mp4", provider, transforms=policy)


def test_video_frames_and_audio(testdata: Path) -> None:
    """video='frames+audio' sends the frames, then the audio track, to OpenAI Chat; to
    Anthropic the frames only, and the steps say the track was not sent."""
    _av()
    policy = mp.TransformPolicy(video="frames+audio", frames=2)
    both = mp.normalize(testdata / "clip.mp4", "openai", transforms=policy)
    kinds = [p.kind for p in _media(both)]
    assert kinds == ["image", "image", "audio"]
    only = mp.normalize(testdata / "clip.mp4", "anthropic", transforms=policy)
    assert [p.kind for p in _media(only)] == ["image", "image"]
    assert any("audio track not sent" in s for s in only.steps)


def test_video_policy_from_using_transforms(testdata: Path) -> None:
    """`mp.using_transforms` sets the policy for a block; outside it the default is back."""
    _av()
    with mp.using_transforms(mp.TransformPolicy(frames=3)):
        inside = mp.normalize(testdata / "clip.mp4", "anthropic")
    outside = mp.normalize(testdata / "clip.mp4", "anthropic")
    assert len(_media(inside)) == 3
    assert len(_media(outside)) > 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_svg_is_rasterised_for_every_provider(testdata: Path, provider: str) -> None:
    """No provider takes SVG: it goes as a PNG fitted like any image."""
    pytest.importorskip("resvg_py")
    result = mp.normalize(testdata / "drawing.svg", provider)
    assert result.kind == "image" and result.media_type == "image/png"
    assert result.steps[0].startswith("svg→png")


def test_svg_without_a_rasteriser_is_sent_as_text(
    testdata: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the [svg] extra, an SVG is sent as its text, and the steps say why."""
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    result = mp.normalize(testdata / "drawing.svg", "anthropic")
    assert result.text is not None and "<svg" in result.text
    assert any("resvg" in s for s in result.steps)


@pytest.mark.parametrize(
    ("provider", "as_is"),
    [
        ("openai", False),
        ("openai-responses", True),
        ("anthropic", False),
        ("gemini", False),
        ("bedrock", True),
    ],
)
def test_docx_is_sent_as_markdown_where_not_taken(
    testdata: Path, provider: str, as_is: bool
) -> None:
    """A Word file goes as it is where the API reads Word files, else as its text."""
    pytest.importorskip("docx")
    result = mp.normalize(testdata / "document.docx", provider)
    if as_is:
        assert result.unchanged
    else:
        assert result.text is not None and result.media_type == "text/markdown"


def test_pdf_over_the_page_limit_is_split(testdata: Path) -> None:
    """A PDF over a provider's page limit goes as several PDFs within it."""
    pytest.importorskip("pypdfium2")
    anthropic = mp.providers.get("anthropic").with_rules(file_max_pages=1)
    result = mp.normalize(testdata / "document.pdf", anthropic)
    pieces = _media(result)
    assert [p.media_type for p in pieces] == ["application/pdf", "application/pdf"]
    assert "split into 2 PDFs" in result.steps


def test_pdf_over_the_page_limit_as_page_images(testdata: Path) -> None:
    """pdf='pages' sends the pages as images instead, each after its label."""
    pytest.importorskip("pypdfium2")
    anthropic = mp.providers.get("anthropic").with_rules(file_max_pages=1)
    policy = mp.TransformPolicy(pdf="pages")
    result = mp.normalize(testdata / "document.pdf", anthropic, transforms=policy)
    assert [p.media_type for p in _media(result)] == ["image/png", "image/png"]


def test_pdf_refused_by_policy_says_how_to_split(testdata: Path) -> None:
    """pdf='refuse' raises ProviderLimitError naming the pages and the limit."""
    pytest.importorskip("pypdfium2")
    anthropic = mp.providers.get("anthropic").with_rules(file_max_pages=1)
    with pytest.raises(mp.ProviderLimitError, match=r"2 pages.*at most 1"):
        mp.normalize(
            testdata / "document.pdf", anthropic, transforms=mp.TransformPolicy(pdf="refuse")
        )


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "name",
    [
        *AUDIO,
        "voice.m4a",
        *VIDEO,
        "scenes.mp4",
        "drawing.svg",
        "diagram.svg",
        "document.pdf",
        "text.pdf",
        "document.docx",
        "report.docx",
        "sheet.xlsx",
        "slides.pptx",
        "memo.rtf",
    ],
)
def test_converted_media_renders_and_validates(testdata: Path, name: str, provider: str) -> None:
    """Whatever a part became, `render` sends it in a request the SDK's own types accept, and
    `check` finds nothing wrong."""
    _av()
    pytest.importorskip("resvg_py")
    pytest.importorskip("docx")
    pytest.importorskip(SDK_MODULES[provider])
    message = mp.User("What is in this?", files=[{"path": str(testdata / name)}])
    rules = mp.providers.get(provider).rules
    audio = name.startswith(("tone.", "voice."))
    pdf = name.endswith(".pdf") and "application/pdf" not in rules.file.media_types
    if (audio and not rules.audio.media_types) or pdf:  # a kind it takes none of
        with pytest.raises(mp.UnsupportedMediaType, match=provider):
            mp.render([message], provider)
        return
    policy = mp.TransformPolicy(frames=min(rules.image.max_count or 8, 8))
    payload = mp.render([message], provider, transforms=policy)
    validate_request(provider, payload)
    assert mp.check(payload, provider) == []


def test_count_tokens_counts_what_is_sent(testdata: Path) -> None:
    """A video counted for Anthropic costs what its frames and their labels cost."""
    _av()
    part = mp.part(testdata / "clip.mp4")
    sent = mp.normalize(part, "anthropic")
    count = mp.count_tokens([mp.User([part])], "anthropic")
    media = next(p for p in count.messages[0].parts if p.kind == "video")
    images = sum(p.tokens or 0 for p in _media(sent))
    assert media.tokens > images  # and the labels' text
    assert "video→" in media.how


def test_missing_extra_is_named(testdata: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without PyAV, converting audio raises CodecUnavailable naming the [av] extra."""
    monkeypatch.setitem(sys.modules, "av", None)
    with pytest.raises(mp.CodecUnavailable, match=r"\[av\]") as caught:
        mp.normalize(testdata / "tone.m4a", "openai")
    assert caught.value.extra == "av"


def test_transforms_must_be_a_policy(testdata: Path) -> None:
    """A transforms argument that is not a TransformPolicy is an InvalidConfig."""
    with pytest.raises(mp.InvalidConfig, match="TransformPolicy"):
        mp.normalize(testdata / "tone.wav", "openai", transforms={"video": "audio"})  # type: ignore[arg-type]


def test_pdf_over_a_request_page_limit_is_refused_not_split(testdata: Path) -> None:
    """Anthropic's 100 PDF pages hold for the whole request: a 300-page PDF is refused with
    the limit and what to do, since splitting it within one request would not help."""
    with pytest.raises(mp.ProviderLimitError, match=r"300 pages.*100 PDF pages in one request"):
        mp.normalize(testdata / "300-pages.pdf", "anthropic")


def test_pdf_pages_over_the_image_count_are_refused_before_drawing(testdata: Path) -> None:
    """pdf='pages' for 300 pages would be 300 images, over Anthropic's 100 a request: refused
    before a page is drawn."""
    policy = mp.TransformPolicy(pdf="pages")
    with pytest.raises(mp.ProviderLimitError, match="300 images, over anthropic's 100"):
        mp.normalize(testdata / "300-pages.pdf", "anthropic", transforms=policy)


def test_pdf_over_a_document_page_limit_is_split_in_order(testdata: Path) -> None:
    """Gemini's limit is per document: a PDF over it is split into documents within it, in
    page order, each priced by its pages."""
    pytest.importorskip("pypdfium2")
    gemini = mp.providers.get("gemini").with_rules(file_max_pages=100)
    result = mp.normalize(testdata / "300-pages.pdf", gemini)
    names = [p.filename for p in _media(result)]
    assert names == [
        "300-pages (pages 1-100).pdf",
        "300-pages (pages 101-200).pdf",
        "300-pages (pages 201-300).pdf",
    ]
    assert result.tokens == 300 * 560  # Gemini 3's 560 a page, whole


def test_check_counts_the_pdf_pages_of_the_whole_request(testdata: Path) -> None:
    """check() adds up the pages of every PDF in a request against Anthropic's 100."""
    pytest.importorskip("pypdfium2")
    from mediaparts.converting import TransformPolicy, split_pdf

    pieces = split_pdf((testdata / "300-pages.pdf").read_bytes(), TransformPolicy(), max_pages=60)
    parts = [
        mp.FilePart.from_bytes(p.data or b"", filename=f"{i}.pdf") for i, p in enumerate(pieces)
    ]
    payload = mp.render([mp.User("Read these", files=parts[:2])], "anthropic")
    rules = [v.rule for v in mp.check(payload, "anthropic")]
    assert rules == ["file.max_request_pages"]
    assert mp.check(mp.render([mp.User("Read", files=parts[:1])], "anthropic"), "anthropic") == []


def test_count_tokens_takes_a_policy(testdata: Path) -> None:
    """count_tokens(transforms=...) counts what that policy would send: 2 frames cost less
    than the default 8."""
    _av()
    part = mp.part(testdata / "clip.mp4")
    two = mp.count_tokens(part, "anthropic", transforms=mp.TransformPolicy(frames=2)).total
    eight = mp.count_tokens(part, "anthropic").total
    assert 0 < two < eight
    with pytest.raises(mp.InvalidConfig, match="TransformPolicy"):
        mp.count_tokens(part, "anthropic", transforms="frames")  # type: ignore[arg-type]


def test_responses_message_read_back_keeps_every_piece_and_what_follows(testdata: Path) -> None:
    """A message read from a Responses payload (its list hint) with a video added renders the
    frames and the text after them, as a message built in code does."""
    _av()
    payload = {"input": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}]}
    read = mp.messages_from(payload, "openai-responses")[0]
    parts = [*read.parts, mp.part(testdata / "clip.mp4"), "what happens in the clip?"]
    listed = mp.User(parts, native=read.native)
    content = mp.render([listed], "openai-responses")["input"][0]["content"]
    assert content == mp.render([mp.User(parts)], "openai-responses")["input"][0]["content"]
    assert [b["type"] for b in content].count("input_image") == 8
    assert content[-1] == {"type": "input_text", "text": "what happens in the clip?"}


def test_video_audio_without_a_track_is_refused_by_name(testdata: Path) -> None:
    """video='audio' for a silent video says there is no track, names the provider and what
    to do; the file is not called broken."""
    _av()
    policy = mp.TransformPolicy(video="audio")
    with pytest.raises(mp.UnsupportedMediaType, match=r"openai: .*no audio track.*frames"):
        mp.normalize(testdata / "scenes.mp4", "openai", transforms=policy)


def test_more_frames_than_the_provider_takes_images_is_refused_up_front(testdata: Path) -> None:
    """150 frames for Anthropic (100 images a request) is refused before a frame is decoded."""
    policy = mp.TransformPolicy(frames=150)
    with pytest.raises(mp.ProviderLimitError, match=r"frames=150 .* anthropic .*\(100\)"):
        mp.normalize(testdata / "clip.mp4", "anthropic", transforms=policy)


def test_wav_over_the_byte_limit_becomes_a_compressed_type(testdata: Path) -> None:
    """A WAV over the provider's audio limit goes as MP3 when the provider takes MP3, rather
    than being refused for what PCM cannot shrink to."""
    _av()
    small = mp.providers.get("openai").with_rules(audio_max_bytes=20_000)
    result = mp.normalize(testdata / "tone.wav", small)
    assert result.media_type == "audio/mpeg" and (result.byte_size or 0) <= 20_000


def test_count_tokens_keeps_what_is_known_of_a_part_in_pieces(testdata: Path) -> None:
    """Frames and their audio track for OpenAI: the frames are priced, the track has no rule;
    the count is the frames' as a floor (approximate), not 0."""
    _av()
    policy = mp.TransformPolicy(video="frames+audio", frames=2)
    count = mp.count_tokens(
        [mp.User([mp.part(testdata / "clip.mp4")])], "openai", transforms=policy
    )
    video = next(p for p in count.messages[0].parts if p.kind == "video")
    assert video.tokens > 0 and video.method == "approximate"
    assert video.how.startswith("at least")

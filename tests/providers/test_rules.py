"""Provider rules: the documented facts they hold, their sources, and the SDKs' own enums."""

from __future__ import annotations

import dataclasses
import pickle
import re
import typing
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts.formats import Kind
from mediaparts.providers import bedrock
from mediaparts.providers._fitting._normalized import NormalizedPart
from tests._builders import TESTDATA
from tests.providers._prepare import StandIn

_WEB = {"image/jpeg", "image/png", "image/gif", "image/webp"}

# (provider, rule, value): facts from the providers' pages and SDKs as summarised in the
# project's shared provider notes (read 2026-08). A change here is a change of fact: update
# the rule, its source comment and docs/providers.md together.
# Mistral's transcription formats, assumed for chat with the Voxtral models (known-limitations).
_VOXTRAL = {"audio/wav", "audio/mpeg", "audio/flac", "audio/ogg", "audio/webm"}
FACTS: list[tuple[str, str, Any]] = [
    ("openai", "image.media_types", _WEB),  # "PNG, JPEG, WEBP, non-animated GIF"
    ("openai", "image.animated", False),
    ("openai", "image.max_count", 1500),  # "Up to 1,500 images per request"
    ("openai", "max_request_bytes", 512_000_000),  # "Up to 512 MB total payload per request"
    ("openai", "audio.media_types", {"audio/wav", "audio/mpeg"}),  # input_audio wav | mp3
    ("openai", "file.max_bytes", 32_000_000),  # "32MB of total content" (pdf-files guide)
    ("openai", "video.media_types", set()),
    ("openai-responses", "image.media_types", _WEB),
    ("openai-responses", "audio.media_types", set()),
    ("anthropic", "image.media_types", _WEB),
    ("anthropic", "image.max_bytes", 10 * 2**20),  # 10 MB of base64 on the direct API
    ("anthropic", "image.measure", "base64"),
    ("anthropic", "image.max_width", 8000),
    ("anthropic", "image.max_height", 8000),
    ("anthropic", "image.max_count", 100),  # 100 for 200k-context models, 600 for the others
    ("anthropic", "image.url_types", _WEB),  # the direct API fetches URL sources
    ("anthropic", "file.url_types", {"application/pdf"}),
    ("anthropic", "audio.media_types", set()),
    ("anthropic", "video.media_types", set()),
    ("anthropic", "file.media_types", {"application/pdf"}),
    ("anthropic", "max_request_bytes", 32_000_000),  # "32 MB for the Messages API"
    # Claude on Google Cloud and on Bedrock: "only base64-encoded sources", "5 MB
    # (base64-encoded)" an image; "Amazon Bedrock allows 20 MB and Google Cloud 30 MB".
    *[
        (route, rule, value)
        for route in ("anthropic-vertex", "anthropic-bedrock")
        for rule, value in (
            ("image.media_types", _WEB),
            ("image.max_bytes", 5 * 2**20),
            ("image.measure", "base64"),
            ("image.url_types", set()),
            ("file.url_types", set()),
            ("file.media_types", {"application/pdf"}),
            ("audio.media_types", set()),
            ("video.media_types", set()),
        )
    ],
    ("anthropic-vertex", "max_request_bytes", 30_000_000),
    ("anthropic-bedrock", "max_request_bytes", 20_000_000),
    ("anthropic-bedrock", "batch_max_requests", 50_000),  # Bedrock's batch quotas
    ("anthropic-vertex", "prices_id", "google"),
    ("anthropic-bedrock", "prices_id", "aws"),
    ("gemini", "image.media_types", {*_WEB - {"image/gif"}, "image/heic", "image/heif"}),
    (
        "gemini",
        "audio.media_types",
        {"audio/wav", "audio/mpeg", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac"},
    ),
    ("gemini", "file.max_bytes", 50_000_000),  # "50 MB for PDFs"
    ("gemini", "max_request_bytes", 100_000_000),  # "100 MB per request or payload"
    # Gemini on Vertex AI: "7 MB" an inline image file, "50 MB" a PDF, no URL fetched by
    # default (only the newest models document "public HTTP or HTTPS URLs"), no AIFF or AVI.
    ("vertex", "image.media_types", {*_WEB - {"image/gif"}, "image/heic", "image/heif"}),
    ("vertex", "image.max_bytes", 7_000_000),
    ("vertex", "image.measure", "raw"),
    ("vertex", "image.url_types", set()),
    ("vertex", "image.max_count", 900),  # Gemini 3 Pro: "Maximum images per prompt: 900"
    ("vertex", "file.max_bytes", 50_000_000),
    ("vertex", "file.max_pages", 900),
    ("vertex", "video.max_count", 10),  # "Maximum number of videos per prompt: 10"
    ("vertex", "max_request_bytes", None),  # not documented
    (
        "vertex",
        "audio.media_types",
        {"audio/aac", "audio/flac", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/pcm"}
        | {"audio/wav", "audio/webm"},
    ),
    ("bedrock", "image.media_types", _WEB),
    ("bedrock", "image.max_bytes", 3_932_160),  # "3.75 MB"
    ("bedrock", "image.measure", "raw"),
    ("bedrock", "image.max_width", 8000),
    ("bedrock", "image.max_height", 8000),
    ("bedrock", "image.max_count", 20),  # "up to 20 images" per message
    ("bedrock", "image.count_scope", "message"),
    ("bedrock", "file.max_bytes", 4_718_592),  # "no more than 4.5 MB"
    ("bedrock", "file.max_count", 5),  # "up to five documents"
    ("bedrock", "video.max_bytes", 25 * 2**20),  # "less than 25MB" of base64
    ("bedrock", "video.measure", "base64"),
    # Azure OpenAI (learn.microsoft.com/azure/ai-foundry/openai, read 2026-12): "PNG (.png),
    # JPEG (.jpeg and .jpg), WEBP (.webp)"; "restricted to 50 MB"; "a limit of 10 images per
    # chat call"; detail "low, high, or auto"; PDFs documented for the Responses API only.
    ("azure-openai", "image.media_types", _WEB - {"image/gif"}),
    ("azure-openai", "image.max_bytes", 50_000_000),
    ("azure-openai", "image.max_count", 10),
    ("azure-openai", "image.detail_levels", ("auto", "low", "high")),
    ("azure-openai", "audio.max_bytes", 20_000_000),  # "Message size for audio files | 20 MB"
    ("azure-openai", "file.media_types", set()),
    ("azure-openai", "batch_max_requests", 100_000),  # "Max requests per file | 100,000"
    ("azure-openai", "batch_max_bytes", 200_000_000),  # "Max input file size | 200 MB"
    ("azure-openai-responses", "image.media_types", _WEB - {"image/gif"}),
    ("azure-openai-responses", "file.media_types", {"application/pdf"}),
    ("azure-openai-responses", "file.url_types", set()),  # "Base64-encoded data or file IDs"
    ("azure-openai-responses", "audio.media_types", set()),
    # OpenRouter (openrouter.ai/docs, read 2026-12): its four image types, by URL or base64;
    # PDFs by URL or data URL "on any model"; audio base64 only; no documented limits.
    ("openrouter", "image.media_types", _WEB),
    ("openrouter", "image.url_types", _WEB),
    ("openrouter", "image.max_count", None),  # "varies per provider and per model"
    ("openrouter", "file.media_types", {"application/pdf"}),
    ("openrouter", "file.url_types", {"application/pdf"}),
    ("openrouter", "audio.media_types", {"audio/wav", "audio/mpeg"}),
    ("openrouter", "audio.url_types", set()),  # "direct URLs are not supported"
    ("openrouter", "video.media_types", set()),
    ("openrouter", "max_request_bytes", None),
    # Mistral: the vision FAQ, Document QnA's FAQ, the audio page (read 2026-12).
    ("mistral", "image.media_types", _WEB),  # "Non-animated GIF with only one frame"
    ("mistral", "image.url_types", _WEB),
    ("mistral", "image.max_bytes", 10_000_000),  # "The current file size limit is 10Mb"
    ("mistral", "image.max_count", 8),  # "The maximum number images per request via API is 8"
    ("mistral", "image.max_width", 10_000),  # "An error ... higher than 10000x10000"
    ("mistral", "file.media_types", {"application/pdf"}),
    ("mistral", "file.max_bytes", 50_000_000),  # "must not exceed 50 MB"
    ("mistral", "file.max_pages", 1000),  # "no longer than 1,000 pages"
    ("mistral", "audio.media_types", _VOXTRAL),  # the API's; only Voxtral models take it
    ("mistral", "video.media_types", set()),
    # The providers on the OpenAI wires, read 2026-12 (their tables cite each page).
    ("xai", "image.media_types", {"image/jpeg", "image/png"}),  # "jpg/jpeg or png"
    ("xai", "image.max_bytes", 20 * 2**20),  # "Maximum image size: 20MiB"
    ("xai", "image.max_count", None),  # "Maximum number of images: No limit"
    ("xai", "image.url_types", {"image/jpeg", "image/png"}),  # "the image's url on the Internet"
    ("xai", "image.detail_levels", ("auto", "low", "high")),
    ("xai", "file.media_types", set()),
    ("xai-responses", "image.max_bytes", 20 * 2**20),
    ("xai-responses", "file.url_types", {"application/pdf"}),  # input_file by file_url
    ("deepseek", "image.media_types", _WEB),  # "JPEG, PNG, GIF, and WebP"
    ("deepseek", "image.max_bytes", 32 * 2**20),  # "the 32 MiB per-image inline limit"
    ("deepseek", "max_request_bytes", 48 * 2**20),  # "the 48 MiB request body limit"
    ("deepseek", "file.media_types", set()),
    ("ollama", "image.media_types", {"image/jpeg", "image/png", "image/webp"}),
    ("ollama", "image.url_types", set()),  # "[ ] Image URL"
    ("ollama", "file.media_types", set()),
    ("ollama", "audio.media_types", set()),
]

# (provider, model, rule, value): what one model takes differently (`Rules.models`).
_OLLAMA_IMAGES = {"image/jpeg", "image/png", "image/webp"}
MODEL_FACTS: list[tuple[str, str, str, Any]] = [
    ("azure-openai", "gpt-4o-mini", "image.max_count", 50),  # quotas-limits: GPT-4o, GPT-4.1
    ("azure-openai", "gpt-4.1", "image.max_count", 50),
    ("azure-openai", "gpt-5", "image.max_count", 10),
    ("azure-openai-responses", "gpt-4o", "image.max_count", 50),
    ("openrouter", "anthropic/claude-sonnet-4.5", "audio.media_types", set()),
    ("openrouter", "anthropic/claude-sonnet-4.5", "image.media_types", _WEB),
    ("openrouter", "meta-llama/llama-3.3-70b-instruct", "image.media_types", set()),
    ("openrouter", "meta-llama/llama-3.1-8b-instruct", "audio.media_types", set()),
    ("openrouter", "meta-llama/llama-3.1-8b-instruct", "file.media_types", {"application/pdf"}),
    ("openrouter", "openai/gpt-4o", "audio.media_types", {"audio/wav", "audio/mpeg"}),
    # Mistral's model cards (capabilities.input, read 2026-12)
    ("mistral", "voxtral-small-latest", "audio.media_types", _VOXTRAL),
    ("mistral", "voxtral-small-latest", "audio.url_types", _VOXTRAL),  # "a public url of a file"
    ("mistral", "voxtral-small-latest", "image.media_types", set()),
    ("mistral", "codestral-2508", "image.media_types", set()),  # input: text only
    ("mistral", "codestral-2508", "audio.media_types", set()),
    ("mistral", "codestral-2508", "file.media_types", {"application/pdf"}),  # document-qna
    ("mistral", "mistral-small-latest", "audio.media_types", set()),
    ("mistral", "mistral-small-latest", "image.media_types", _WEB),
    ("deepseek", "deepseek-flash", "image.media_types", _WEB),  # the Vision guide's model
    ("deepseek", "deepseek-v4-flash-vision-exp", "image.media_types", _WEB),  # its old name
    ("deepseek", "deepseek-chat", "image.media_types", set()),
    ("deepseek", "deepseek-reasoner", "image.url_types", set()),
    ("deepseek", "deepseek-v4-pro", "image.media_types", set()),
    ("ollama", "gemma3:12b", "image.media_types", _OLLAMA_IMAGES),
    ("ollama", "gemma3:1b", "image.media_types", set()),  # Gemma 3's 1B is text-only
    ("ollama", "llama3.2-vision:11b", "image.media_types", _OLLAMA_IMAGES),
    ("ollama", "llama3.2:3b", "image.media_types", set()),
    ("ollama", "qwen2.5vl:7b", "image.media_types", _OLLAMA_IMAGES),
    ("ollama", "qwen3:8b", "image.media_types", set()),
    ("ollama", "hf.co/acme/llava-7b:q4", "image.media_types", _OLLAMA_IMAGES),
    ("xai", "grok-4.20-0309-reasoning", "image.media_types", {"image/jpeg", "image/png"}),
    ("xai", "grok-2-1212", "image.media_types", set()),
    ("xai-responses", "grok-beta", "image.media_types", set()),
]


# The text models of the providers whose models take images or nothing (a text model of
# another may take documents or audio).
_TEXT_MODELS = [
    (p, m)
    for p, m, r, v in MODEL_FACTS
    if r == "image.media_types" and not v and p in ("deepseek", "ollama", "xai", "xai-responses")
]


@pytest.mark.parametrize(("provider", "model"), _TEXT_MODELS)
def test_rules_text_model_refuses_an_image_naming_itself(provider: str, model: str) -> None:
    """A model that takes no images refuses one by the §4 rules: the refusal names the model,
    the row of rules it used, and what it takes."""
    image = mp.part(TESTDATA / "alpha.png")
    with pytest.raises(mp.UnsupportedMediaType, match=f"model '{re.escape(model)}'") as refused:
        mp.normalize(image, provider, model=model)
    assert "it takes text" in str(refused.value)
    assert mp.normalize(image, provider).media_type == "image/png"  # model=None: the endpoint's


def _rule(provider: str, path: str, model: str | None = None) -> Any:
    value: Any = mp.providers.get(provider).for_model(model).rules
    for name in path.split("."):
        value = getattr(value, name)
    return set(value) if path.endswith(("media_types", "url_types")) else value


@pytest.mark.parametrize(
    ("provider", "path", "value"), FACTS, ids=[f"{p}-{r}" for p, r, _ in FACTS]
)
def test_rules_hold_the_documented_facts(provider: str, path: str, value: Any) -> None:
    """Each rule holds the value its provider documents."""
    assert _rule(provider, path) == value


@pytest.mark.parametrize(
    ("provider", "model", "path", "value"),
    MODEL_FACTS,
    ids=[f"{p}-{m}-{r}" for p, m, r, _ in MODEL_FACTS],
)
def test_rules_hold_the_documented_facts_of_a_model(
    provider: str, model: str, path: str, value: Any
) -> None:
    """A model's rules (`for_model`) hold what its provider documents for it."""
    assert _rule(provider, path, model) == value


_DATED = re.compile(r"\(read \d{4}-\d{2}\)")


@pytest.mark.parametrize("provider", mp.providers.names())
def test_rules_name_source_and_date(provider: str) -> None:
    """Every kind's rules and the request rules name their source and the date it was read."""
    rules = mp.providers.get(provider).rules
    for where in (rules.image, rules.audio, rules.video, rules.file, rules):
        assert _DATED.search(where.source), f"{provider}: {where.source!r} has no (read YYYY-MM)"
    for row in rules.models:  # what a model takes differently is sourced and dated too
        assert _DATED.search(row.rule.source), f"{provider} {row.pattern}: {row.rule.source!r}"


def _literal(annotation: Any) -> set[str]:
    """The strings of a TypedDict field's `Literal[...]`, through `Required[...]`."""
    while typing.get_origin(annotation) is not typing.Literal:
        (annotation,) = typing.get_args(annotation)[:1]
    return set(typing.get_args(annotation))


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def test_anthropic_types_are_the_sdk_literals() -> None:
    """Anthropic's image and PDF types are exactly the SDK's `media_type` literals."""
    pytest.importorskip("anthropic")
    from anthropic.types import Base64ImageSourceParam, Base64PDFSourceParam

    rules = mp.providers.get("anthropic").rules
    assert set(rules.image.media_types) == _literal(_hints(Base64ImageSourceParam)["media_type"])
    assert set(rules.file.media_types) == _literal(_hints(Base64PDFSourceParam)["media_type"])


def test_openai_levels_and_audio_are_the_sdk_literals() -> None:
    """OpenAI's detail levels and audio formats are exactly the SDK's literals."""
    pytest.importorskip("openai")
    from openai.types.chat.chat_completion_content_part_image_param import ImageURL
    from openai.types.chat.chat_completion_content_part_input_audio_param import InputAudio
    from openai.types.responses.image_detail import ImageDetail

    chat = mp.providers.get("openai").rules.image.detail_levels
    responses = mp.providers.get("openai-responses").rules.image.detail_levels
    assert set(chat) == _literal(_hints(ImageURL)["detail"])
    assert set(responses) == set(typing.get_args(ImageDetail))
    clips = [mp.AudioPart.from_path(TESTDATA / name) for name in ("tone.wav", "tone.mp3")]
    content = mp.render(mp.User(clips), "openai")["messages"][0]["content"]
    assert {block["input_audio"]["format"] for block in content} == _literal(
        _hints(InputAudio)["format"]
    )


def _bedrock_format(kind: Kind, media_type: str) -> str:
    sent = NormalizedPart(kind=kind, media_type=media_type, data=b"x", filename="a.bin")
    carrier = mp.ImagePart.from_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    payload = bedrock.PROVIDER.renderer(
        [mp.User(["x", carrier])], StandIn(bedrock.RULES, lambda _: sent)
    )
    (block,) = [b for b in payload["messages"][0]["content"] if "text" not in b]
    fmt: str = next(iter(block.values()))["format"]
    return fmt


@pytest.mark.parametrize(
    ("kind", "block", "complete"),
    [
        ("image", "image", True),
        ("file", "document", True),
        ("video", "video", False),
        ("audio", "audio", False),
    ],
)
def test_bedrock_formats_are_botocore_enums(kind: Kind, block: str, complete: bool) -> None:
    """Every Converse `format` written is in botocore's enum; images and documents cover it."""
    pytest.importorskip("botocore")
    import botocore.session

    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    content = service.shape_for("ContentBlock")
    allowed = set(content.members[block].members["format"].enum)
    written = {_bedrock_format(kind, t) for t in bedrock.RULES.for_kind(kind).media_types}
    assert written <= allowed, written - allowed
    if complete:
        assert written == allowed


@pytest.mark.parametrize(
    ("provider", "model", "pattern"),
    [
        ("openai", None, "gpt-4o*"),  # model=None: the default row, taken by every model
        ("openai", "gpt-4o-2024-08-06", "gpt-4o*"),
        ("anthropic", "Claude-Opus-4-7", "claude-*-4-[7-9]*"),
        ("bedrock", "us.anthropic.claude-opus-4-7", "*claude-*-4-[7-9]*"),
        ("gemini", "models/gemini-2.5-pro", "gemini-2*"),
        ("anthropic", "gpt-4o", None),  # no row matches
    ],
)
def test_rules_model_row_is_the_row_the_rules_take(
    provider: str, model: str | None, pattern: str | None
) -> None:
    """model_row names the model table row that vision_for and costs_for read for a model."""
    rules = mp.providers.get(provider).rules
    row = rules.model_row(model)
    assert (row.pattern if row else None) == pattern
    if row is not None:
        assert rules.vision_for(model) is row.rule
        assert row.pattern in rules.model_patterns


def test_rules_model_row_without_tables_and_bad_model() -> None:
    """No model table: no row and no patterns; a model that is not a string is InvalidConfig."""
    bare = mp.providers.get("openai").with_rules(vision=(), costs=()).rules
    assert (bare.model_row(None), bare.model_row("x"), bare.model_patterns) == (None, None, ())
    with pytest.raises(mp.InvalidConfig, match="model must be a model name string"):
        mp.providers.get("openai").rules.model_row(4)  # type: ignore[arg-type]


def _override_keys(provider: str) -> list[str]:
    """Every key with_rules takes for a provider: the fields of Rules and `<kind>_<field>`."""
    rules = mp.providers.get(provider).rules
    keys = [f.name for f in dataclasses.fields(rules)]
    for kind in typing.get_args(Kind):
        keys += [f"{kind}_{f.name}" for f in dataclasses.fields(rules.for_kind(kind))]
    return keys


# Fields where None is a value: a size's "no limit", the provider's own file store or name.
NONE_TAKEN = {"max_request_bytes", "file_store", "prices_id"}
NONE_TAKEN |= {f"{k}_{f}" for k in typing.get_args(Kind) for f in ("max_bytes", "max_count")}
NONE_TAKEN |= {"image_max_width", "image_max_height", "file_max_pages", "file_max_request_pages"}
NONE_TAKEN |= {"file_max_request_bytes"}
NONE_TAKEN |= {"batch_max_requests", "batch_max_bytes"}  # None: no per-file limit
WRONG = [None, 1.5, "x", [object()], {"a": 1}, object()]


@pytest.mark.parametrize("provider", mp.providers.names())
@pytest.mark.parametrize("value", WRONG, ids=["None", "float", "str", "list", "dict", "object"])
def test_with_rules_refuses_every_wrong_value_with_invalid_config(
    provider: str, value: object
) -> None:
    """Every with_rules key given None or a wrong type raises InvalidConfig naming the key
    (or takes the value), never a TypeError, AttributeError or KeyError."""
    chosen = mp.providers.get(provider)
    for key in _override_keys(provider):
        refused = ""
        try:
            changed = chosen.with_rules(**{key: value})
        except mp.InvalidConfig as exc:
            refused = str(exc)
        if refused:
            assert key in refused, refused
            assert " a Image" not in refused and " a OpenAI" not in refused
            continue
        if value is None:
            assert key in NONE_TAKEN, f"with_rules({key}=None) was taken"
        if changed.rules.vision:  # without a table, an image estimate is NoDocumentedRule
            mp.estimate_tokens(mp.part(TESTDATA / "alpha.png"), changed)  # still usable


@pytest.mark.parametrize(
    ("key", "advice"),
    [
        ("vision", "pass () for no per-model image rule"),
        ("costs", "pass () for no audio, video or PDF token rates"),
        ("text", "pass () for no text table"),
        ("image", "an ImageRules, got NoneType; pass dataclasses.replace(provider.rules.image"),
        ("file", "a FileRules, got NoneType; pass dataclasses.replace(provider.rules.file"),
        ("image_media_types", "image_media_types must be a tuple of media type strings"),
        ("image_detail_levels", "must be a tuple of detail level names, got None; pass ()"),
        ("image_measure", "image_measure must be one of raw, base64, got None"),
        ("image_animated", "image_animated must be a bool, got NoneType"),
        ("source", "source must be a str, got NoneType (pass '' for none)"),
    ],
)
def test_with_rules_none_says_what_to_pass(key: str, advice: str) -> None:
    """`with_rules(vision=None)` and the like say what to pass instead (() for no rows)."""
    with pytest.raises(mp.InvalidConfig, match=re.escape(advice)):
        mp.providers.get("openai").with_rules(**{key: None})


def test_with_rules_takes_none_for_the_price_id() -> None:
    """prices_id=None means the provider's own name, as in Rules; with_rules takes it."""
    changed = mp.providers.get("gemini").with_rules(prices_id=None)
    assert changed.rules.prices_id is None


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.providers.ImageRules(media_types=None), "ImageRules.media_types must be"),  # type: ignore[arg-type]
        (lambda: mp.providers.KindRules(max_bytes="5MB"), "KindRules.max_bytes must be a whole"),  # type: ignore[arg-type]
        (lambda: mp.providers.FileRules(text_types="text/csv"), "FileRules.text_types must be"),  # type: ignore[arg-type]
        (lambda: mp.providers.KindRules(measure="b64"), "KindRules.measure must be one of"),  # type: ignore[arg-type]
        (lambda: mp.providers.ImageRules(animated="no"), "ImageRules.animated must be a bool"),  # type: ignore[arg-type]
    ],
)
def test_kind_rules_refuse_wrong_fields_when_built(
    make: typing.Callable[[], object], message: str
) -> None:
    """A kind's rules built directly check their fields, as with_rules does."""
    with pytest.raises(mp.InvalidConfig, match=re.escape(message)):
        make()


def test_kind_rules_keep_lists_as_tuples() -> None:
    """A list of media types given to a kind's rules is kept as a tuple (rules are frozen)."""
    assert mp.providers.KindRules(media_types=["audio/wav"]).media_types == ("audio/wav",)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("provider", "refused"),
    [
        ("anthropic", False),  # 32 MB (Anthropic API overview)
        ("anthropic-bedrock", True),  # "Amazon Bedrock allows 20 MB"
        ("anthropic-vertex", False),  # "Google Cloud 30 MB"
    ],
)
def test_rules_anthropic_request_size_is_the_routes(provider: str, refused: bool) -> None:
    """A 25 MB Messages request is within the first-party API's 32 MB and Google Cloud's 30 MB,
    and `check` reports it over Bedrock's 20 MB."""
    payload = mp.render([mp.User("x" * 25_000_000)], provider)
    rules = {violation.rule for violation in mp.check(payload, provider)}
    assert ("request.max_bytes" in rules) is refused, provider


# One model as the first-party API, Vertex AI and Bedrock name it (platform.claude.com
# claude-on-vertex-ai and claude-on-amazon-bedrock, read 2026-12), paths and ARNs included.
MODEL_IDS = [
    (
        "claude-sonnet-4-5-20250929",
        "claude-sonnet-4-5@20250929",
        "anthropic.claude-sonnet-4-5-20250929-v1:0",
    ),
    ("claude-opus-4-7", "claude-opus-4-7", "us.anthropic.claude-opus-4-7"),
    (
        "claude-3-5-sonnet-20241022",
        "claude-3-5-sonnet-v2@20241022",
        "anthropic.claude-3-5-sonnet-20241022-v2:0",
    ),
    (
        "claude-haiku-4-5-20251001",
        "claude-haiku-4-5@20251001",
        "global.anthropic.claude-haiku-4-5-20251001-v1:0",
    ),
    (
        "claude-opus-4-6",
        "publishers/anthropic/models/claude-opus-4-6",
        "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-6-v1",
    ),
]


@pytest.mark.parametrize(
    ("first", "vertex", "bedrock_id"), MODEL_IDS, ids=[m[0] for m in MODEL_IDS]
)
def test_rules_routes_read_anthropics_tables_in_their_model_ids(
    first: str, vertex: str, bedrock_id: str
) -> None:
    """A model's image geometry, text rule and media rates on Vertex AI and Bedrock, named in
    the route's ids, are the first-party API's for the same model."""
    rules = mp.providers.get("anthropic").rules
    for route, model in (("anthropic-vertex", vertex), ("anthropic-bedrock", bedrock_id)):
        routed = mp.providers.get(route).rules
        assert routed.vision_for(model, strict=True) == rules.vision_for(first, strict=True)
        assert routed.text_for(model, strict=True) == rules.text_for(first, strict=True)
        assert routed.costs_for(model) == rules.costs_for(first)


@pytest.mark.parametrize(
    ("model", "images", "pages", "audio"),
    [
        (None, 900, 900, None),  # the smallest documented limits hold for every model
        ("gemini-3-pro-preview", 900, 900, None),  # "900" images, "900" pages a file
        ("gemini-2.5-flash", 3000, 1000, 1),  # "3,000" images, "1,000" pages, 1 audio file
        ("publishers/google/models/gemini-2.5-pro", 3000, 1000, 1),
    ],
)
def test_rules_vertex_limits_by_model(
    model: str | None, images: int, pages: int, audio: int | None
) -> None:
    """Vertex AI's per-model limits: Gemini 2.x models take more images and pages, and one
    audio file a prompt."""
    rules = mp.providers.get("vertex", model).rules
    assert (rules.image.max_count, rules.file.max_pages, rules.audio.max_count) == (
        images,
        pages,
        audio,
    )


def _by_model(**changes: Any) -> mp.providers.Provider:
    """An OpenAI-shaped provider whose `text-*` models take no images (or `changes`)."""
    rows = (
        mp.providers.ModelRule(
            "text-*",
            mp.providers.ModelRules(
                changes or {"image_media_types": (), "image_url_types": ()}, "test (read 2026-12)"
            ),
        ),
        mp.providers.ModelRule(
            "acme/*", mp.providers.ModelRules({"image_max_bytes": 1000}, "test (read 2026-12)")
        ),
    )
    rules = dataclasses.replace(mp.providers.get("openai").rules, provider="by-model", models=rows)
    return mp.providers.Provider("by-model", rules, "openai")


def test_for_model_applies_the_first_matching_row() -> None:
    """A model of the `models` table gets its row's changes; the record says which row."""
    provider = _by_model()
    served = provider.for_model("text-large")
    assert served.rules.image.media_types == () and served.model_rules == "text-*"
    assert provider.rules.image.media_types  # the provider's own rules are unchanged
    assert served.label == "by-model (model 'text-large', rules for 'text-*')"
    assert provider.for_model("text-large") is served  # made once per model


@pytest.mark.parametrize("model", [None, "gpt-4o", "vision-text-1"])
def test_for_model_keeps_the_rules_for_other_models(model: str | None) -> None:
    """No model, or one no row matches, keeps the provider's own rules (and record)."""
    provider = _by_model()
    assert provider.for_model(model) is provider and provider.model_rules is None


def test_for_model_scans_the_rows_once_per_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model name is matched against the rows once, whether or not a row matches it, and
    the names remembered are bounded (they come from callers)."""
    from mediaparts.providers import _record
    from mediaparts.providers._model_rules import model_rules_row as scan

    provider, scans = _by_model(), []

    def counted(rows: Any, model: str | None) -> Any:
        scans.append(model)
        return scan(rows, model)

    monkeypatch.setattr(_record, "model_rules_row", counted)
    for _ in range(3):
        assert provider.for_model("gpt-4o") is provider
        assert provider.for_model("text-1").model_rules == "text-*"
    assert scans == ["gpt-4o", "text-1"]
    for i in range(_record._MODELS_KEPT + 5):
        provider.for_model(f"model-{i}")
    assert len(provider._for_models) <= _record._MODELS_KEPT


def test_for_model_matches_a_vendor_prefix_pattern_on_the_whole_name() -> None:
    """A pattern with a `/` (a router's vendor prefix) matches the whole model name."""
    provider = _by_model()
    assert provider.for_model("acme/vision-9").rules.image.max_bytes == 1000
    assert provider.for_model("other/vision-9") is provider


def test_for_model_from_a_model_record_starts_from_the_provider() -> None:
    """A model's record asked for another model serves that one, not both rows at once."""
    provider = _by_model()
    assert provider.for_model("text-1").for_model("acme/x").rules.image.media_types


def test_for_model_refusal_names_the_model_and_what_it_takes() -> None:
    """Media a model takes none of is refused by the §4 rules, naming the model's row."""
    provider = _by_model()
    image = mp.part(Image.new("RGB", (8, 8)))
    with pytest.raises(mp.UnsupportedMediaType, match=r"model 'text-1', rules for 'text-\*'"):
        mp.normalize(image, provider, model="text-1")
    assert mp.normalize(image, provider, model="gpt-4o").media_type == "image/png"


def test_for_model_record_pickles_with_its_row() -> None:
    """A model's record pickles (for worker processes) with its rules and label."""
    served = pickle.loads(pickle.dumps(_by_model().for_model("text-1")))
    assert served.rules.image.media_types == () and served.model_rules == "text-*"


def test_for_model_refuses_a_row_naming_no_rule() -> None:
    """A row whose changes name no rule is an InvalidConfig when a model uses it."""
    provider = _by_model(image_colour=1)
    with pytest.raises(mp.InvalidConfig, match="no rule named 'image_colour'"):
        provider.for_model("text-1")


@pytest.mark.parametrize("changes", [{"models": ()}, {"provider": "x"}, [("a", 1)]])
def test_model_rules_refuse_what_is_no_change(changes: Any) -> None:
    """A row cannot rename the provider or change the table itself; changes are a mapping."""
    with pytest.raises(mp.InvalidConfig):
        mp.providers.ModelRules(changes)


def test_get_with_a_model_returns_its_record() -> None:
    """`get(name, model)` is `get(name).for_model(model)`."""
    mp.providers.register("by-model", wire="openai", rules=_by_model().rules, replace=True)
    try:
        assert mp.providers.get("by-model", "text-2").model_rules == "text-*"
    finally:
        mp.providers.unregister("by-model")


def _azure(**deployments: str) -> mp.providers.Provider:
    return mp.providers.get("azure-openai").with_deployments(deployments)


@pytest.mark.parametrize(("deployment", "model"), [("my-prod", "gpt-4o"), ("fast.v2", "gpt-5.4")])
def test_with_deployments_gives_a_deployment_its_models_rows(deployment: str, model: str) -> None:
    """A deployment takes its model's row in every model table, and its per-model rules."""
    provider = _azure(**{deployment: model})
    for rules in (provider.rules, provider.for_model(deployment).rules):
        assert rules.vision_for(deployment) == rules.vision_for(model)
        assert rules.text_for(deployment) == rules.text_for(model)
        assert rules.costs_for(deployment) == rules.costs_for(model)
    served = provider.for_model(deployment)
    assert served.rules.image == provider.for_model(model).rules.image
    assert provider.rules.vision_for(None) == mp.providers.get("azure-openai").rules.vision_for()


def test_with_deployments_counts_images_as_the_model_does() -> None:
    """Eleven images are within a gpt-4o deployment's 50 and over a gpt-5 deployment's 10."""
    provider = _azure(prod="gpt-4o", edge="gpt-5")
    image = mp.part(Image.new("RGB", (8, 8)))
    payload = mp.render([mp.User([image] * 11)], provider, model="prod")
    assert mp.check(payload, provider, model="prod") == []
    assert {v.rule for v in mp.check(payload, provider, model="edge")} == {"image.max_count"}


def test_with_deployments_unmapped_name_is_an_unknown_model() -> None:
    """A deployment no mapping names gets the default rules, with a warning naming them."""
    with pytest.warns(mp.UnknownModelWarning, match=r"'my-other'.*default rules"):
        _azure(prod="gpt-4o").rules.vision_for("my-other")


def test_with_deployments_unknown_model_is_said_once_when_mapped() -> None:
    """A mapped model the tables do not know is said at mapping; using it says nothing more."""
    with pytest.warns(mp.UnknownModelWarning, match=r"gpt-99 \(deployment prod\)"):
        provider = _azure(prod="gpt-99")
    rules = provider.rules
    assert rules.vision_for("prod") == rules.vision_for(None)  # no second warning (error filter)


def test_with_deployments_name_is_matched_literally() -> None:
    """fnmatch's special characters in a deployment name match only themselves."""
    provider = _azure(**{"prod[1]*": "gpt-4o"})
    assert provider.for_model("prod[1]*").rules.image.max_count == 50
    with pytest.warns(mp.UnknownModelWarning):
        provider.rules.vision_for("prod1-x")


@pytest.mark.parametrize(
    "deployments",
    [["prod", "gpt-4o"], {"": "gpt-4o"}, {"a/b": "gpt-4o"}, {" prod": "gpt-4o"}, {"prod": 4}],
    ids=["not-a-mapping", "empty-name", "slash", "padded", "model-not-a-string"],
)
def test_with_deployments_refuses_what_is_no_mapping_of_names(deployments: Any) -> None:
    """A mapping of deployment names to model names is required; InvalidConfig says what."""
    with pytest.raises(mp.InvalidConfig):
        mp.providers.get("azure-openai").with_deployments(deployments)


def test_with_deployments_name_like_another_model_takes_its_own_models_rules() -> None:
    """A deployment named like one model and serving another takes the one it serves."""
    provider = _azure(**{"gpt-4o-canary": "gpt-5"})
    assert provider.for_model("gpt-4o-canary").rules.image.max_count == 10


def test_with_deployments_of_a_models_record_starts_from_the_provider() -> None:
    """Deployments mapped on a model's record are the provider's, not that model's rules."""
    provider = (
        mp.providers.get("azure-openai").for_model("gpt-4o").with_deployments({"edge": "gpt-5"})
    )
    assert provider.rules.image.max_count == 10 and provider.model_rules is None
    assert provider.for_model("edge").rules.image.max_count == 10


@pytest.mark.parametrize(
    ("provider", "model", "override", "value"),
    [
        ("azure-openai", "gpt-4o", "image_max_count", 2),  # its row raises the count to 50
        ("ollama", "qwen3:my-finetune", "image_media_types", ("image/png",)),  # a text row
        ("groq", "llama-3.3-70b-versatile", "image_media_types", ("image/png",)),
    ],
)
def test_with_rules_wins_over_a_models_row(
    provider: str, model: str, override: str, value: Any
) -> None:
    """The caller's `with_rules` changes hold for a model whose row changes the same rule,
    and survive pickling; the other rules of the row still apply."""
    changed = mp.providers.get(provider).with_rules(**{override: value})
    kind, _, field = override.partition("_")
    for served in (changed, pickle.loads(pickle.dumps(changed))):
        rules = served.for_model(model).rules
        assert getattr(getattr(rules, kind), field) == value
        assert served.for_model(model).model_rules is not None


def test_refusals_name_the_model_at_every_entry_point() -> None:
    """`check` and `estimate_tokens` name the model and its row as `normalize` does, for an
    image a model of a provider that takes images elsewhere refuses."""
    model = "llama-3.3-70b-versatile"
    said = "groq (model 'llama-3.3-70b-versatile', rules for 'llama-3.3-*')"
    png = mp.part(TESTDATA / "alpha.png")
    with pytest.raises(mp.UnsupportedMediaType) as refused:
        mp.estimate_tokens(png, "groq", model=model)
    assert said in str(refused.value)
    payload = mp.render([mp.User(["Look", png])], "groq")
    violations = mp.check({"model": model, **payload}, "groq")
    assert any(said in v.message for v in violations), violations
